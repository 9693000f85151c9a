/// Why a `cast` invocation failed, with the exit code it maps to.
public struct CommandLineError: Error, Hashable, Sendable, CustomStringConvertible {
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
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate let base: Base

        /// The first word is not a command.
        public static let unknownCommand = Code(base: .unknownCommand)
        /// An option the command does not take.
        public static let unknownOption = Code(base: .unknownOption)
        /// An option that takes a value was last on the line.
        public static let missingValue = Code(base: .missingValue)
        /// A value that does not parse (a position, a level, a number).
        public static let invalidValue = Code(base: .invalidValue)
        /// A required argument is missing.
        public static let missingArgument = Code(base: .missingArgument)
        /// More arguments than the command takes.
        public static let unexpectedArgument = Code(base: .unexpectedArgument)
        /// No device was named and none could be chosen.
        public static let noDevice = Code(base: .noDevice)
        /// The named device was not found or did not answer.
        public static let deviceNotFound = Code(base: .deviceNotFound)
        /// The device refused or did not answer a request.
        public static let requestFailed = Code(base: .requestFailed)
        /// The command needs a running media session and there is none.
        public static let nothingPlaying = Code(base: .nothingPlaying)
        /// A local file does not exist or cannot be read.
        public static let fileNotFound = Code(base: .fileNotFound)
        /// The device's volume cannot be changed (`controlType` `fixed`: the TV or amplifier
        /// it is plugged into owns the volume).
        public static let fixedVolume = Code(base: .fixedVolume)
        /// `--member NAME` names no member of the device's speaker group.
        public static let memberNotFound = Code(base: .memberNotFound)

        /// A stable number for the code.
        public var rawValue: Int { base.rawValue }

        /// Usage errors exit with 2, runtime failures with 1.
        public var exitCode: ExitCode { base.rawValue < 100 ? .usage : .failure }

        public var description: String { "\(base)" }
    }

    /// The kind of failure.
    public let code: Code
    /// A one-line explanation naming what was wrong.
    public let message: String
    /// The command whose usage to show with a usage error, if known.
    public var commandName: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, commandName: String? = nil) {
        self.code = code
        self.message = message
        self.commandName = commandName
    }

    /// The process exit code for this error.
    public var exitCode: ExitCode { code.exitCode }

    public var description: String { message }
}
