/// The status a `cast` invocation exits with.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The command did what was asked.
    public static let success = ExitCode(rawValue: 0)
    /// The command was well formed but failed: no device, launch failed, request failed.
    public static let failure = ExitCode(rawValue: 1)
    /// The command line was malformed: unknown command or option, bad or missing value.
    public static let usage = ExitCode(rawValue: 2)

    public var description: String { "exit \(rawValue)" }
}
