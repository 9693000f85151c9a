import CastSync
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads a body of at most `limit` bytes, streaming: a declared `Content-Length` above
/// the limit cancels the transfer before any body byte is taken, and a running count
/// cancels it as soon as the bytes read pass the limit (for bodies without a length, or
/// that run past it). Memory use stays near the limit whatever the server sends.
final class CappedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// How a download ended.
    enum Outcome: Sendable, Equatable {
        case body([UInt8])
        /// The status was not 2xx.
        case status(Int)
        /// `Content-Length` declared more than the limit.
        case declaredTooLarge(Int64)
        /// More than the limit arrived.
        case tooLarge
        case failed(String)
    }

    private struct State {
        var received: [UInt8] = []
        var outcome: Outcome?
        var continuation: CheckedContinuation<Outcome, Never>?
        var completed = false
    }

    private let limit: Int
    private let state = Locked(State())

    private init(limit: Int) { self.limit = limit }

    /// Fetches `request`, keeping at most `limit` bytes of body.
    static func fetch(_ request: URLRequest, limit: Int) async -> Outcome {
        let download = CappedDownload(limit: limit)
        let session = URLSession(configuration: .ephemeral, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            download.state.withLock { $0.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        var refusal: Outcome?
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            refusal = .status(http.statusCode)
        } else if response.expectedContentLength > Int64(limit) {
            refusal = .declaredTooLarge(response.expectedContentLength)
        }
        if let refusal {
            state.withLock { if $0.outcome == nil { $0.outcome = refusal } }
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = state.withLock { state -> Bool in
            guard state.outcome == nil else { return false }
            guard state.received.count + data.count <= limit else {
                state.outcome = .tooLarge
                state.received = []
                return true
            }
            state.received.append(contentsOf: data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, Outcome) in
            let outcome = state.outcome ?? error.map { .failed($0.localizedDescription) } ?? .body(state.received)
            let continuation = state.completed ? nil : state.continuation
            state.completed = true
            state.continuation = nil
            return (continuation, outcome)
        }
        continuation?.resume(returning: outcome)
    }
}
