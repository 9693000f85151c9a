import CastNetCore
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A response made ready for the wire: the serialized head, the in-memory body, or an
/// open file region to stream. Built off the event loop (it may open a file).
struct PreparedHTTPResponse: Sendable {
    struct FileRegion: Sendable {
        var fd: Int32
        var offset: Int
        var length: Int
    }

    var head: [UInt8]
    var body: [UInt8]
    var file: FileRegion?
    /// The body written while the client reads (no `Content-Length`; the connection closes
    /// at its end).
    var stream: HTTPResponseStream? = nil
    /// Whether the connection closes after this response, whatever the request asked.
    var closesConnection = false

    /// A queue for the blocking file calls of responses, away from the event loops.
    static let fileQueue = DispatchQueue(label: "cast.http.file", qos: .userInitiated, attributes: .concurrent)

    /// Builds the wire form of `response` to `request`, applying `Range`.
    static func make(
        _ response: HTTPResponse,
        to request: HTTPRequest,
        keepAlive: Bool,
        serverName: String?
    ) async -> PreparedHTTPResponse {
        var status = response.status
        var headers = response.headers
        var body: [UInt8] = []
        var file: FileRegion?
        var length: Int
        var rangeable = false
        var stream: HTTPResponseStream?
        switch response.body.storage {
        case .stream(let body):
            stream = body
            length = 0
        case .bytes(let bytes):
            body = bytes
            length = bytes.count
            rangeable = status == .ok && !bytes.isEmpty && headers["Accept-Ranges"] == "bytes"
        case .file, .openFile:
            let opened: (fd: Int32, size: Int)?
            if case .openFile(let served) = response.body.storage {
                opened = served.duplicate()
            } else if case .file(let path) = response.body.storage {
                opened = await open(path: path)
            } else {
                opened = nil
            }
            if let opened {
                file = FileRegion(fd: opened.fd, offset: 0, length: opened.size)
                length = opened.size
                rangeable = status == .ok
                headers.replaceOrAdd(name: "Accept-Ranges", value: "bytes")
            } else {
                status = .notFound
                headers = ["Content-Type": "text/plain; charset=utf-8"]
                body = Array("404 Not Found\n".utf8)
                length = body.count
            }
        }
        if rangeable && (request.method == .get || request.method == .head) {
            switch HTTPByteRange.resolve(request.headers["Range"], length: length) {
            case .whole:
                break
            case .partial(let range):
                status = .partialContent
                headers.replaceOrAdd(
                    name: "Content-Range",
                    value: "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
                )
                if file != nil {
                    file?.offset = range.lowerBound
                    file?.length = range.count
                } else {
                    body = Array(body[range])
                }
                length = range.count
            case .unsatisfiable:
                status = .rangeNotSatisfiable
                headers.replaceOrAdd(name: "Content-Range", value: "bytes */\(length)")
                headers.remove(name: "Content-Type")
                if let region = file { close(region.fd) }
                file = nil
                body = []
                length = 0
            }
        }
        let bodyless = request.method == .head || status.code == 204 || status.code == 304 || status.code < 200
        if stream != nil {
            headers.remove(name: "Content-Length")
        } else if status.code != 204 && status.code != 304 {
            headers.replaceOrAdd(name: "Content-Length", value: String(length))
        }
        headers.remove(name: "Transfer-Encoding")
        headers.remove(name: "Connection")
        if !keepAlive || stream != nil {
            headers.add(name: "Connection", value: "close")
        } else if request.minorVersion == 0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        if let serverName, headers["Server"] == nil { headers.add(name: "Server", value: serverName) }
        if bodyless {
            body = []
            if let region = file { close(region.fd) }
            file = nil
        }
        if bodyless, let stream {
            stream.connectionClosed()
        }
        return PreparedHTTPResponse(
            head: serializeHead(status: status, headers: headers),
            body: body,
            file: file,
            stream: bodyless ? nil : stream,
            closesConnection: stream != nil
        )
    }

    static func serializeHead(status: HTTPStatus, headers: HTTPHeaders) -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// A plain error response that closes the connection.
    static func error(_ status: HTTPStatus) -> [UInt8] {
        let body = "\(status.description)\n"
        let headers: HTTPHeaders = [
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": String(body.utf8.count),
            "Connection": "close",
        ]
        return serializeHead(status: status, headers: headers) + Array(body.utf8)
    }

    private static func open(path: String) async -> (fd: Int32, size: Int)? {
        await withCheckedContinuation { continuation in
            fileQueue.async {
                let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else {
                    continuation.resume(returning: nil)
                    return
                }
                var info = stat()
                guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    Glibc.close(fd)
                    continuation.resume(returning: nil)
                    return
                }
                continuation.resume(returning: (fd, Int(info.st_size)))
            }
        }
    }
}
