public import CastCore

/// A fault-injection request: the JSON body of `POST /control/faults`, or built in code for
/// ``VirtualDevice/apply(_:)``.
///
/// Every member is optional:
/// ```json
/// {"clear": true, "ignorePings": true, "refuseLaunch": "NOT_ALLOWED", "failNextLoad": true,
///  "replyDelayMs": 250, "dropConnections": true, "crashMidFrame": true,
///  "restartApp": true, "reboot": true, "sendGarbage": true, "oversizeFrame": true, "trickleMs": 1000,
///  "standBy": true, "activeInput": false}
/// ```
/// - `standBy` and `activeInput` change the HDMI-CEC state of a device with an HDMI input (a
///   TV, Google TV), as the TV going to standby or switching input would; every sender gets
///   the new `RECEIVER_STATUS`. A `LAUNCH` wakes the TV again.
/// - `clear` first resets every lasting fault; the lasting members then apply:
///   `ignorePings` (the device swallows `PING`s), `refuseLaunch` (`true` for `NOT_ALLOWED`, a
///   `LAUNCH_ERROR` reason string, or `false`/`null` to stop refusing), `failNextLoad` (the next
///   `LOAD` gets `LOAD_FAILED`) and `replyDelayMs` (every frame the device sends waits this long,
///   0 to 600000).
/// - The one-shot actions run last, in this order: `restartApp` (the running app restarts with
///   new session IDs), `reboot` (every connection dropped, the receiver starts afresh),
///   `crashMidFrame` (half a frame on every connection, then close), `dropConnections` (every
///   connection closed at once), then the misbehaving peers, which leave their connections
///   open for the sender to close: `sendGarbage` (a frame that is not a `CastMessage`),
///   `oversizeFrame` (a length prefix of 0x7FFFFFFF) and `trickleMs` (a frame written one
///   byte every so many milliseconds, 1 to 600000).
public struct FaultControlRequest: Sendable, Equatable {
    /// Resets every lasting fault before the others apply.
    public var clear = false
    /// New value of ``DeviceFaults/ignoresPings``.
    public var ignorePings: Bool?
    /// New value of ``DeviceFaults/launchRefusal``: `.some(nil)` stops refusing.
    public var refuseLaunch: LaunchErrorReason??
    /// New value of ``DeviceFaults/failsNextLoad``.
    public var failNextLoad: Bool?
    /// New reply delay, in milliseconds (0 to 600 000).
    public var replyDelayMilliseconds: Int?
    /// Restarts the running app with new session and transport IDs.
    public var restartApp = false
    /// Drops every connection and starts the receiver afresh.
    public var reboot = false
    /// Sends half a frame on every sender connection, then closes it.
    public var crashMidFrame = false
    /// Closes every sender connection at once.
    public var dropConnections = false
    /// Sends every sender a frame that is not a `CastMessage`.
    public var sendGarbage = false
    /// Sends every sender the length prefix of an oversize frame.
    public var oversizeFrame = false
    /// Writes a frame to every sender one byte per this many milliseconds (1 to 600 000).
    public var trickleMilliseconds: Int?
    /// Makes the device its TV's active input, or not (`isActiveInput`; devices with an
    /// HDMI input only).
    public var activeInput: Bool?
    /// Puts the TV in standby or wakes it (`isStandBy`; devices with an HDMI input only).
    public var standBy: Bool?

    /// Creates an empty request.
    public init() {}

    private static let knownKeys: Set<String> = [
        "clear", "ignorePings", "refuseLaunch", "failNextLoad", "replyDelayMs", "restartApp", "reboot",
        "crashMidFrame", "dropConnections", "sendGarbage", "oversizeFrame", "trickleMs", "activeInput", "standBy",
    ]

    /// Parses the JSON body of a control request.
    /// - Throws: ``FaultControlError`` with code ``FaultControlError/Code/invalidRequest``
    ///   naming the member at fault.
    public init(json bytes: [UInt8]) throws(FaultControlError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes, maximumDepth: 4)
        } catch {
            throw FaultControlError(code: .invalidRequest, detail: "body is not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw FaultControlError(code: .invalidRequest, detail: "body is not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !Self.knownKeys.contains($0) }) {
            throw FaultControlError(code: .invalidRequest, detail: "unknown member \"\(unknown)\"")
        }
        func flag(_ key: String) throws(FaultControlError) -> Bool? {
            guard let member = object[key] else { return nil }
            guard let flag = member.boolValue else {
                throw FaultControlError(code: .invalidRequest, detail: "member \"\(key)\" must be true or false")
            }
            return flag
        }
        self.init()
        clear = try flag("clear") ?? false
        ignorePings = try flag("ignorePings")
        failNextLoad = try flag("failNextLoad")
        restartApp = try flag("restartApp") ?? false
        reboot = try flag("reboot") ?? false
        crashMidFrame = try flag("crashMidFrame") ?? false
        dropConnections = try flag("dropConnections") ?? false
        sendGarbage = try flag("sendGarbage") ?? false
        oversizeFrame = try flag("oversizeFrame") ?? false
        activeInput = try flag("activeInput")
        standBy = try flag("standBy")
        switch object["refuseLaunch"] {
        case nil:
            break
        case .null?, .bool(false)?:
            refuseLaunch = .some(nil)
        case .bool(true)?:
            refuseLaunch = .some(.notAllowed)
        case .string(let reason)? where !reason.isEmpty:
            refuseLaunch = .some(LaunchErrorReason(rawValue: reason))
        default:
            throw FaultControlError(
                code: .invalidRequest,
                detail: "member \"refuseLaunch\" must be true, false, null or a LAUNCH_ERROR reason"
            )
        }
        if let member = object["replyDelayMs"] {
            guard let milliseconds = member.intValue, (0...600_000).contains(milliseconds) else {
                throw FaultControlError(
                    code: .invalidRequest,
                    detail: "member \"replyDelayMs\" must be an integer from 0 to 600000"
                )
            }
            replyDelayMilliseconds = milliseconds
        }
        if let member = object["trickleMs"] {
            guard let milliseconds = member.intValue, (1...600_000).contains(milliseconds) else {
                throw FaultControlError(
                    code: .invalidRequest,
                    detail: "member \"trickleMs\" must be an integer from 1 to 600000"
                )
            }
            trickleMilliseconds = milliseconds
        }
    }

    /// Applies the lasting part of the request to `faults` and `replyDelay`.
    func apply(to faults: inout DeviceFaults, replyDelay: inout Duration) {
        if clear {
            faults = .none
            replyDelay = .zero
        }
        if let ignorePings { faults.ignoresPings = ignorePings }
        if let refuseLaunch { faults.launchRefusal = refuseLaunch }
        if let failNextLoad { faults.failsNextLoad = failNextLoad }
        if let replyDelayMilliseconds { replyDelay = .milliseconds(replyDelayMilliseconds) }
    }

    /// The lasting faults as the JSON answer of the control endpoint.
    static func json(faults: DeviceFaults, replyDelay: Duration) -> JSONValue {
        [
            "ignorePings": .bool(faults.ignoresPings),
            "refuseLaunch": faults.launchRefusal.map { .string($0.rawValue) } ?? .null,
            "failNextLoad": .bool(faults.failsNextLoad),
            "replyDelayMs": .integer(Int((replyDelay / .milliseconds(1)).rounded())),
        ]
    }
}
