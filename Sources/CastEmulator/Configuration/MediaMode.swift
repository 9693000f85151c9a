/// Whether the virtual device reads the media a `LOAD` names.
public enum MediaMode: String, Sendable, Hashable, CaseIterable {
    /// Read the media as a receiver does: its duration, tracks, picture size and stream
    /// type come from it, and media that cannot be read gives `LOAD_FAILED`.
    case fetch
    /// Like ``fetch``, but media whose host cannot be resolved or reached plays simulated
    /// (``VirtualDeviceConfiguration/defaultMediaDuration``), with a log entry saying so.
    /// For machines without internet access.
    case auto
    /// Never read the media: every item plays simulated, as the `LOAD` describes it.
    case simulate
}
