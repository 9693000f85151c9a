import TerminalUI

/// A progress bar and a time pair, as shown while media plays.
enum TerminalProgress {
    /// A 30-column bar.
    static func bar(_ fraction: Double) -> String {
        ProgressBar(fraction: fraction.isFinite ? max(0, min(1, fraction)) : 0).render(width: 30)
    }

    /// `01:23 / 10:00`.
    static func time(_ position: Double, _ duration: Double?) -> String {
        TimeFormat.progress(position: position, duration: duration)
    }
}
