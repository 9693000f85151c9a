import Glibc

/// An error from the terminal: its attributes could not be read or set, output could not be
/// written, or it is already in use.
public struct TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of terminal error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case attributes = 1
            case write = 2
            case alreadyActive = 3
            case eventSource = 4
        }

        fileprivate let base: Base

        /// Reading or setting the terminal's attributes (termios) failed.
        public static let attributes = Code(base: .attributes)
        /// Writing to the terminal failed.
        public static let write = Code(base: .write)
        /// A terminal or app loop is already active in this process.
        public static let alreadyActive = Code(base: .alreadyActive)
        /// The pipe or thread that carries input and signals could not be created.
        public static let eventSource = Code(base: .eventSource)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .attributes: "attributes"
            case .write: "write"
            case .alreadyActive: "alreadyActive"
            case .eventSource: "eventSource"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The operation that failed, such as `tcsetattr`.
    public let operation: String
    /// The file descriptor concerned, or -1.
    public let fileDescriptor: Int32
    /// The `errno` value, or 0.
    public let errno: Int32

    init(_ code: Code, operation: String, fileDescriptor: Int32 = -1, errno: Int32 = 0) {
        self.code = code
        self.operation = operation
        self.fileDescriptor = fileDescriptor
        self.errno = errno
    }

    public static func == (lhs: TerminalError, rhs: TerminalError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "terminal \(operation) failed"
        if fileDescriptor >= 0 {
            text += " on file descriptor \(fileDescriptor)"
        }
        if code == .alreadyActive {
            text += ": another terminal session is active in this process"
        }
        if errno != 0, let message = strerror(errno) {
            text += ": \(String(cString: message)) (errno \(errno))"
        }
        return text
    }
}
