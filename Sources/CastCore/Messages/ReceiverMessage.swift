/// A message of the `urn:x-cast:com.google.cast.receiver` namespace, in either direction.
package enum ReceiverMessage: Sendable, Hashable {
    /// `GET_STATUS` (sender to receiver).
    case getStatus(GetReceiverStatusRequest)
    /// `LAUNCH` (sender to receiver).
    case launch(LaunchRequest)
    /// `STOP` (sender to receiver).
    case stop(StopApplicationRequest)
    /// `SET_VOLUME` (sender to receiver).
    case setVolume(SetDeviceVolumeRequest)
    /// `GET_APP_AVAILABILITY` (sender to receiver).
    case getAppAvailability(GetAppAvailabilityRequest)
    /// The reply to `GET_APP_AVAILABILITY` (receiver to sender).
    case appAvailability(AppAvailabilityResponse)
    /// `RECEIVER_STATUS` (receiver to sender).
    case receiverStatus(ReceiverStatusMessage)
    /// `LAUNCH_ERROR` (receiver to sender).
    case launchError(LaunchErrorMessage)
    /// `LAUNCH_STATUS` (receiver to sender).
    case launchStatus(LaunchStatusMessage)
    /// `INVALID_REQUEST` (receiver to sender).
    case invalidRequest(InvalidRequestMessage)
    /// Any other type, kept whole.
    case unknown(UnknownMessage)

    /// Decodes a payload of the receiver namespace.
    ///
    /// A `GET_APP_AVAILABILITY` payload is the reply when it is marked with `responseType`
    /// only, or carries an `availability` member.
    ///
    /// - Throws: ``MessageDecodingError``; an unknown `type` is not an error.
    package init(jsonString payload: String) throws(MessageDecodingError) {
        self = try InboundMessageDecoding.decode(payload) { peek, document in
            switch peek.type {
            case .getStatus: .getStatus(try GetReceiverStatusRequest(token: 0, in: document))
            case .launch: .launch(try LaunchRequest(token: 0, in: document))
            case .stop: .stop(try StopApplicationRequest(token: 0, in: document))
            case .setVolume: .setVolume(try SetDeviceVolumeRequest(token: 0, in: document))
            case .getAppAvailability:
                if peek.isResponseType || document.member("availability", ofObjectAt: 0) != nil {
                    .appAvailability(try AppAvailabilityResponse(token: 0, in: document))
                } else {
                    .getAppAvailability(try GetAppAvailabilityRequest(token: 0, in: document))
                }
            case .receiverStatus: .receiverStatus(try ReceiverStatusMessage(token: 0, in: document))
            case .launchError: .launchError(try LaunchErrorMessage(token: 0, in: document))
            case .launchStatus: .launchStatus(try LaunchStatusMessage(token: 0, in: document))
            case .invalidRequest: .invalidRequest(try InvalidRequestMessage(token: 0, in: document))
            default: .unknown(InboundMessageDecoding.unknown(peek, document))
            }
        }
    }

    /// The decoded message, or `nil` for an unknown type.
    package var message: (any CastJSONMessage)? {
        switch self {
        case .getStatus(let message): message
        case .launch(let message): message
        case .stop(let message): message
        case .setVolume(let message): message
        case .getAppAvailability(let message): message
        case .appAvailability(let message): message
        case .receiverStatus(let message): message
        case .launchError(let message): message
        case .launchStatus(let message): message
        case .invalidRequest(let message): message
        case .unknown: nil
        }
    }

    /// The message type.
    package var type: CastMessageType {
        if case .unknown(let message) = self { return message.type }
        return message!.type
    }

    /// The request id, when the message carries one (`launchRequestId` counts for `LAUNCH_STATUS`).
    package var requestID: Int? {
        switch self {
        case .unknown(let message): message.requestID
        case .launchStatus(let message): message.requestID ?? message.launchRequestID
        default: message!.requestID
        }
    }

    /// Encodes the message as compact JSON text; an unknown message is written back as received.
    package func jsonString() throws(MessageEncodingError) -> String {
        if case .unknown(let message) = self { return message.payload.description }
        return try message!.jsonString()
    }
}
