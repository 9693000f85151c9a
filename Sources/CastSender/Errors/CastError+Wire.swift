extension CastError {
    /// The error for a receiver-namespace failure reply, following the suggested
    /// `GCKError` mapping: `LAUNCH_ERROR NOT_FOUND` → 20, `CANCELLED` → 5, `NOT_ALLOWED` → 7,
    /// `BAD_PARAMETER` → 4, `CAST_INIT_TIMEOUT` → 2; `INVALID_REQUEST INVALID_SESSION_ID` → 22,
    /// other `INVALID_REQUEST` → 4.
    static func receiverReply(_ message: ReceiverMessage, request: String) -> CastError? {
        switch message {
        case .launchError(let error):
            let reason = error.reason?.rawValue
            let code: Code =
                switch error.reason {
                case .notFound?: .applicationNotFound
                case .cancelled?: .cancelled
                case .notAllowed?: .notAllowed
                case .badParameter?: .invalidRequest
                case .castInitTimeout?: .timeout
                default: .unknown
                }
            return CastError(code, "\(request) failed: the receiver answered LAUNCH_ERROR", wireReason: reason)
        case .invalidRequest(let error):
            let code: Code = error.reason == .invalidSessionID ? .invalidApplicationSessionID : .invalidRequest
            return CastError(
                code,
                "\(request) failed: the receiver answered INVALID_REQUEST",
                wireReason: error.reason?.rawValue
            )
        default:
            return nil
        }
    }

    /// The error for a media-namespace failure reply: `LOAD_FAILED` → 30,
    /// `INVALID_PLAYER_STATE` → 31, `LOAD_CANCELLED` → 6 (replaced), `INVALID_REQUEST` → 4,
    /// `ERROR` → 34.
    static func mediaReply(_ message: MediaMessage, request: String) -> CastError? {
        switch message {
        case .loadFailed(let error):
            return CastError(
                .mediaLoadFailed,
                "\(request) failed: the receiver answered LOAD_FAILED",
                wireReason: error.reason?.rawValue,
                detailedErrorCode: error.detailedErrorCode?.rawValue
            )
        case .invalidPlayerState:
            return CastError(
                .invalidMediaPlayerState,
                "\(request) failed: the receiver answered INVALID_PLAYER_STATE"
            )
        case .loadCancelled:
            return CastError(.replaced, "\(request) was replaced: the receiver answered LOAD_CANCELLED")
        case .invalidRequest(let error):
            return CastError(
                .invalidRequest,
                "\(request) failed: the receiver answered INVALID_REQUEST",
                wireReason: error.reason?.rawValue
            )
        case .error(let error):
            return CastError(
                .mediaError,
                "\(request) failed: the receiver answered ERROR",
                wireReason: error.reason?.rawValue,
                detailedErrorCode: error.detailedErrorCode?.rawValue
            )
        default:
            return nil
        }
    }
}
