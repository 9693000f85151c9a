import CastSender

/// The introductory overlay's once-logic: present it the first time the cast state is
/// anything but "no devices available", unless it was shown in an earlier launch.
struct IntroductoryOverlayStateMachine: Sendable, Hashable {
    private(set) var shown: Bool
    private(set) var presented = false

    init(shown: Bool) {
        self.shown = shown
    }

    /// Returns `true` when the overlay is to be presented now (and ``shown`` becomes true).
    mutating func castStateChanged(_ state: CastState) -> Bool {
        guard state != .noDevicesAvailable else { return false }
        return presentOnce()
    }

    /// Presents the overlay unless it was shown before.
    mutating func presentOnce() -> Bool {
        guard !shown else { return false }
        shown = true
        presented = true
        return true
    }

    mutating func dismiss() { presented = false }

    mutating func clearShownFlag() { shown = false }
}
