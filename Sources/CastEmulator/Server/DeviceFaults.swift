import CastCore

/// Lasting faults a virtual device can be told to show, to test how senders cope.
///
/// Set them with ``VirtualDevice/setFaults(_:)`` or `POST /control/faults` (see
/// ``FaultControlRequest``). One-shot faults (drop every connection, crash mid-frame,
/// restart) are methods of ``VirtualDevice``.
public struct DeviceFaults: Sendable, Equatable {
    /// The device stops answering heartbeat `PING`s (the messages are swallowed).
    public var ignoresPings: Bool
    /// Every frame the device sends is held back this long (zero for none).
    public var replyDelay: Duration
    /// Every receiver `LAUNCH` is answered with `LAUNCH_ERROR` (reason `NOT_ALLOWED`).
    public var refusesLaunch: Bool
    /// The next media `LOAD` is answered with `LOAD_FAILED`; cleared once used.
    public var failsNextLoad: Bool

    /// No fault.
    public static let none = DeviceFaults()

    /// Creates a set of faults; none unless given.
    public init(
        ignoresPings: Bool = false,
        replyDelay: Duration = .zero,
        refusesLaunch: Bool = false,
        failsNextLoad: Bool = false
    ) {
        self.ignoresPings = ignoresPings
        self.replyDelay = replyDelay
        self.refusesLaunch = refusesLaunch
        self.failsNextLoad = failsNextLoad
    }

    /// The faults as the JSON object of the control endpoint.
    public var json: JSONValue {
        [
            "ignorePings": .bool(ignoresPings),
            "replyDelayMs": .integer(Int((replyDelay / .milliseconds(1)).rounded())),
            "refuseLaunch": .bool(refusesLaunch),
            "failNextLoad": .bool(failsNextLoad),
        ]
    }
}

/// A fault-injection request, as the JSON body of `POST /control/faults`.
///
/// Every member is optional:
/// ```json
/// {"ignorePings": true, "replyDelayMs": 250, "refuseLaunch": false, "failNextLoad": true,
///  "dropConnections": true, "crashMidFrame": true, "restart": true, "clear": true}
/// ```
/// `clear` first resets every lasting fault; the lasting fields then apply; the one-shot
/// actions (`dropConnections`, `crashMidFrame`, `restart`) run last.
public struct FaultControlRequest: Sendable, Equatable {
    /// Resets every lasting fault before the others apply.
    public var clear = false
    /// New value of ``DeviceFaults/ignoresPings``.
    public var ignorePings: Bool?
    /// New value of ``DeviceFaults/replyDelay``, in milliseconds (0 to 600 000).
    public var replyDelayMilliseconds: Int?
    /// New value of ``DeviceFaults/refusesLaunch``.
    public var refuseLaunch: Bool?
    /// New value of ``DeviceFaults/failsNextLoad``.
    public var failNextLoad: Bool?
    /// Closes every sender connection at once.
    public var dropConnections = false
    /// Sends half a frame on every sender connection, then closes it.
    public var crashMidFrame = false
    /// Restarts the device: connections dropped, the receiver starts afresh with new session IDs.
    public var restart = false

    /// Creates an empty request.
    public init() {}

    private static let knownKeys: Set<String> = [
        "clear", "ignorePings", "replyDelayMs", "refuseLaunch", "failNextLoad", "dropConnections",
        "crashMidFrame", "restart",
    ]

    /// Parses the JSON body of a control request.
    /// - Throws: ``SetupHTTPError`` with code ``SetupHTTPError/Code/invalidControlRequest``
    ///   naming the member at fault.
    public init(json bytes: [UInt8]) throws(SetupHTTPError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes, maximumDepth: 4)
        } catch {
            throw SetupHTTPError(code: .invalidControlRequest, detail: "body is not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw SetupHTTPError(code: .invalidControlRequest, detail: "body is not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !Self.knownKeys.contains($0) }) {
            throw SetupHTTPError(code: .invalidControlRequest, detail: "unknown member \"\(unknown)\"")
        }
        func flag(_ key: String) throws(SetupHTTPError) -> Bool? {
            guard let member = object[key] else { return nil }
            guard let flag = member.boolValue else {
                throw SetupHTTPError(code: .invalidControlRequest, detail: "member \"\(key)\" must be true or false")
            }
            return flag
        }
        self.init()
        clear = try flag("clear") ?? false
        ignorePings = try flag("ignorePings")
        refuseLaunch = try flag("refuseLaunch")
        failNextLoad = try flag("failNextLoad")
        dropConnections = try flag("dropConnections") ?? false
        crashMidFrame = try flag("crashMidFrame") ?? false
        restart = try flag("restart") ?? false
        if let member = object["replyDelayMs"] {
            guard let milliseconds = member.intValue, (0...600_000).contains(milliseconds) else {
                throw SetupHTTPError(
                    code: .invalidControlRequest,
                    detail: "member \"replyDelayMs\" must be an integer from 0 to 600000"
                )
            }
            replyDelayMilliseconds = milliseconds
        }
    }

    /// Applies the lasting part of the request to `faults`.
    public func applied(to faults: DeviceFaults) -> DeviceFaults {
        var result = clear ? DeviceFaults.none : faults
        if let ignorePings { result.ignoresPings = ignorePings }
        if let replyDelayMilliseconds { result.replyDelay = .milliseconds(replyDelayMilliseconds) }
        if let refuseLaunch { result.refusesLaunch = refuseLaunch }
        if let failNextLoad { result.failsNextLoad = failNextLoad }
        return result
    }
}
