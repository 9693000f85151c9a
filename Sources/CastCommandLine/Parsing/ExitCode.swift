/// The status a `cast` invocation exits with.
package struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The command did what was asked.
    package static let success = ExitCode(rawValue: 0)
    /// The command was well formed but failed: no device, launch failed, request failed.
    package static let failure = ExitCode(rawValue: 1)
    /// The command line was malformed: unknown command or option, bad or missing value.
    package static let usage = ExitCode(rawValue: 2)

    package var description: String { "exit \(rawValue)" }
}
