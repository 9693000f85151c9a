import TerminalUI

/// A command line that cannot be used: what was wrong and where, in one line that names the
/// program (`cast-emulator: --devices: "0" is not a number from 1 to 10000`). Every program
/// prints it as `error: MESSAGE`, then `See 'PROGRAM --help'.`, and exits with 2.
package struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of mistake it is; `rawValue` is stable.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case unknownOption = 1
            case missingValue = 2
            case invalidValue = 3
            case missingArgument = 4
            case unexpectedArgument = 5
            case unknownCommand = 6
        }

        fileprivate let base: Base

        /// An option the program does not take.
        package static let unknownOption = Code(base: .unknownOption)
        /// An option that takes a value was last on the line, or given an empty one.
        package static let missingValue = Code(base: .missingValue)
        /// A value that does not parse or is out of range.
        package static let invalidValue = Code(base: .invalidValue)
        /// A required argument is missing.
        package static let missingArgument = Code(base: .missingArgument)
        /// More arguments than the program takes.
        package static let unexpectedArgument = Code(base: .unexpectedArgument)
        /// The first word is not a command the program has.
        package static let unknownCommand = Code(base: .unknownCommand)

        /// The stable number of the code.
        package var rawValue: Int { base.rawValue }

        package var description: String { "\(base)" }
    }

    /// The exit status of a usage error, for every program.
    package static let exitStatus: Int32 = 2

    /// The kind of mistake.
    package let code: Code
    /// The program (or `program command`) the line was for, such as `cast play`.
    package let program: String
    /// What was wrong, without the program's name.
    package let reason: String

    /// Creates an error for `program`.
    package init(_ code: Code, program: String, _ reason: String) {
        self.code = code
        self.program = program
        self.reason = reason
    }

    /// `program: reason`, through the terminal sanitizer: the reason quotes what the user
    /// typed, which may hold escape sequences.
    package var description: String { TerminalText.sanitized("\(program): \(reason)") }

    /// The lines a program prints to standard error for this error: `error: …` and where to
    /// find help.
    package var report: String { "error: \(description)\nSee '\(TerminalText.sanitized(program)) --help'." }
}
