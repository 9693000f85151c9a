/// Hears how a ``CastRequest`` ends (as `GCKRequestDelegate`). Every method has a default
/// that does nothing; exactly one of them is called per request, on the context's
/// callback queue.
public protocol CastRequestDelegate: AnyObject, Sendable {
    /// The receiver accepted the request.
    func requestDidComplete(_ request: CastRequest)
    /// The request failed: an error reply, a timeout, or a lost connection.
    func request(_ request: CastRequest, didFailWithError error: CastError)
    /// The request was abandoned: replaced by a newer one or cancelled.
    func request(_ request: CastRequest, didAbortWithReason reason: CastRequestAbortReason)
}

extension CastRequestDelegate {
    public func requestDidComplete(_ request: CastRequest) {}
    public func request(_ request: CastRequest, didFailWithError error: CastError) {}
    public func request(_ request: CastRequest, didAbortWithReason reason: CastRequestAbortReason) {}
}
