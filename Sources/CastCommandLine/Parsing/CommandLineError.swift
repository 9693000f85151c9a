/// Why a `cast` invocation failed, with the exit code it maps to.
package struct CommandLineError: Error, Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Base: Int, Sendable {
        case unknownCommand = 1
        case unknownOption = 2
        case missingValue = 3
        case invalidValue = 4
        case missingArgument = 5
        case unexpectedArgument = 6
        case noDevice = 101
        case deviceNotFound = 102
        case requestFailed = 103
        case nothingPlaying = 104
        case fileNotFound = 105
        case fixedVolume = 106
        case memberNotFound = 107
    }

    /// The kind of failure; its `rawValue` is stable.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate let base: Base

        /// The first word is not a command.
        package static let unknownCommand = Code(base: .unknownCommand)
        /// An option the command does not take.
        package static let unknownOption = Code(base: .unknownOption)
        /// An option that takes a value was last on the line.
        package static let missingValue = Code(base: .missingValue)
        /// A value that does not parse (a position, a level, a number).
        package static let invalidValue = Code(base: .invalidValue)
        /// A required argument is missing.
        package static let missingArgument = Code(base: .missingArgument)
        /// More arguments than the command takes.
        package static let unexpectedArgument = Code(base: .unexpectedArgument)
        /// No device was named and none could be chosen.
        package static let noDevice = Code(base: .noDevice)
        /// The named device was not found or did not answer.
        package static let deviceNotFound = Code(base: .deviceNotFound)
        /// The device refused or did not answer a request.
        package static let requestFailed = Code(base: .requestFailed)
        /// The command needs a running media session and there is none.
        package static let nothingPlaying = Code(base: .nothingPlaying)
        /// A local file does not exist or cannot be read.
        package static let fileNotFound = Code(base: .fileNotFound)
        /// The device's volume cannot be changed (`controlType` `fixed`: the TV or amplifier
        /// it is plugged into owns the volume).
        package static let fixedVolume = Code(base: .fixedVolume)
        /// `--member NAME` names no member of the device's speaker group.
        package static let memberNotFound = Code(base: .memberNotFound)

        /// A stable number for the code.
        package var rawValue: Int { base.rawValue }

        /// Usage errors exit with 2, runtime failures with 1.
        package var exitCode: ExitCode { base.rawValue < 100 ? .usage : .failure }

        package var description: String { "\(base)" }
    }

    /// The kind of failure.
    package let code: Code
    /// A one-line explanation naming what was wrong.
    package let message: String
    /// The command whose usage to show with a usage error, if known.
    package var commandName: String?

    /// Creates an error.
    package init(_ code: Code, _ message: String, commandName: String? = nil) {
        self.code = code
        self.message = message
        self.commandName = commandName
    }

    /// The process exit code for this error.
    package var exitCode: ExitCode { code.exitCode }

    package var description: String { message }
}
