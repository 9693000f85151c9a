// Fuzzes the HTTP clients that read what a hostile server sends: the input is a program for a
// loopback HTTP server (random status lines, endless 100 Continue answers, header fields,
// Content-Length, chunk sizes that lie, chunk extensions, trailers, raw bytes, stalls,
// closes), and a choice of client: the virtual device's media fetcher (a LOAD's probe or a
// text track), the read that follows a live stream, `cast`'s subtitle download (`cast play
// --subtitle URL.srt`), or a plain GET; or a well-formed response framed at random.
//
// Properties: every read ends (an error or a response) within the harness's deadline, and the
// process holds no more sockets afterwards than before (no socket of a finished read stays
// open); a well-formed response, however it is framed and split, gives exactly its body.
// Memory is bounded by libFuzzer's -rss_limit_mb.

import CastNet
import CastNetCore
import Dispatch
import Foundation
import FuzzSupport

@testable import CastCommandLine
@testable import CastEmulator

/// What the scripted server writes on each connection.
private enum Action: Sendable {
    case send([UInt8])
    /// Stops writing and keeps the connection open until the client closes it.
    case stall
    /// Closes the connection at once.
    case close
}

/// The script of the current input, read by every connection the client opens.
private let script = ScriptBox()
private final class ScriptBox: @unchecked Sendable {
    // @unchecked: `actions` is written between inputs, when no connection runs, under `lock`.
    private let lock = NSLock()
    private var stored: [Action] = []
    private var pieces: [Int] = []
    private var open = 0

    func set(_ actions: [Action], pieces: [Int]) {
        lock.withLock {
            stored = actions
            self.pieces = pieces
        }
    }

    var actions: ([Action], [Int]) { lock.withLock { (stored, pieces) } }
    var openConnections: Int { lock.withLock { open } }
    func opened() { lock.withLock { open += 1 } }
    func closed() { lock.withLock { open -= 1 } }
}

/// The loopback server, started once for the process.
private let server: TCPListener = {
    let listener: TCPListener
    do {
        listener = try TCPListener(address: .loopbackIPv4())
    } catch {
        FuzzProperty.fail("cannot listen on loopback: \(error)")
    }
    Task {
        await withTaskGroup(of: Void.self) { group in
            for await connection in listener.connections {
                script.opened()
                group.addTask {
                    defer {
                        connection.close()
                        script.closed()
                    }
                    await serve(connection)
                }
            }
        }
    }
    return listener
}()

private func serve(_ connection: TCPConnection) async {
    // The request head first (a client that sends more is read on in the stall).
    var request: [UInt8] = []
    while !(request.count >= 4 && Array(request.suffix(4)) == Array("\r\n\r\n".utf8)) {
        guard let bytes = try? await connection.receive(), request.count < 16_384 else { return }
        request += bytes
    }
    let (actions, pieces) = script.actions
    var piece = 0
    do {
        for action in actions {
            switch action {
            case .send(var bytes):
                // Split as the input says, so that every parser sees its input cut anywhere.
                while !bytes.isEmpty {
                    let size = max(1, pieces.isEmpty ? bytes.count : pieces[piece % pieces.count])
                    piece += 1
                    try await connection.send(Array(bytes.prefix(size)))
                    bytes.removeFirst(min(size, bytes.count))
                }
            case .stall:
                while try await connection.receive() != nil {}
                return
            case .close:
                return
            }
        }
    } catch {
        return
    }
}

private var base: String { "http://127.0.0.1:\(server.localAddress.port)" }

// MARK: Programs

private let statusCodes = [200, 206, 204, 301, 302, 304, 307, 404, 416, 500, 100, 199, 999, 0]
private let headerNames = [
    "Content-Length", "Transfer-Encoding", "Content-Type", "Content-Range", "Location", "Connection", "X-Filler",
]
private let headerValues = [
    "0", "5", "65536", "16777217", "9999999999999999999", "-1", "1, 2", "chunked", "gzip, chunked", "chunked, gzip",
    "video/mp4", "application/x-mpegurl", "application/dash+xml", "text/vtt", "bytes 0-99/1234", "bytes */*",
    "/media", "//127.0.0.1:1/x", "close", "",
]
/// Starts of bodies the probes recognise.
private let bodyPrefixes: [[UInt8]] = [
    [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8),
    Array("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n".utf8),
    Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nmedia\n".utf8),
    Array("<MPD type=\"static\" mediaPresentationDuration=\"PT1M\"><Period/></MPD>".utf8),
    Array("WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n\n".utf8),
    Array("1\n00:00:00,000 --> 00:00:01,000\nhello\n\n".utf8),
    [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84] + Array("webm".utf8),
    [0x89] + Array("PNG\r\n\u{1A}\n".utf8),
]

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A hostile script: actions read from the input.
private func hostileScript(_ input: inout FuzzBytes) -> [Action] {
    var actions: [Action] = []
    for _ in 0..<24 where !input.isAtEnd {
        switch input.below(13) {
        case 0:
            let code = input.pick(statusCodes)
            actions.append(.send(bytes("HTTP/1.\(input.below(3)) \(code) Reason\r\n")))
        case 1:
            let count = input.below(48)
            var line = (0..<count).map { _ in input.byte() }
            line += input.bool() ? [13, 10] : [10]
            actions.append(.send(line))
        case 2:
            let count = input.count()
            actions.append(
                .send(Array([[UInt8]](repeating: bytes("HTTP/1.1 100 Continue\r\n\r\n"), count: count).joined()))
            )
        case 3:
            actions.append(.send(bytes("\(input.pick(headerNames)): \(input.pick(headerValues))\r\n")))
        case 4:
            actions.append(.send(bytes("\r\n")))
        case 5:
            var body = input.pick(bodyPrefixes)
            body += (0..<input.count() * 37).map { UInt8(truncatingIfNeeded: $0 &* 131) }
            actions.append(.send(body))
        case 6:
            let data = (0..<input.count()).map { UInt8(truncatingIfNeeded: $0) }
            let declared: String
            switch input.below(5) {
            case 0: declared = String(data.count, radix: 16)
            case 1: declared = String(data.count + 1 + input.below(100), radix: 16)
            case 2: declared = String(max(0, data.count - 1), radix: 16)
            case 3: declared = "7fffffffffffffff"
            default: declared = "zz"
            }
            let extensionLength = input.pick([0, 0, 10, 1_000, 20_000])
            let extensionText = extensionLength == 0 ? "" : ";" + String(repeating: "e", count: extensionLength)
            actions.append(.send(bytes("\(declared)\(extensionText)\r\n") + data + bytes("\r\n")))
        case 7:
            var trailer = bytes("0\r\n")
            for index in 0..<input.count() {
                trailer += bytes("X-Trailer-\(index): \(String(repeating: "t", count: input.below(200)))\r\n")
            }
            if input.bool() { trailer += bytes("\r\n") }
            actions.append(.send(trailer))
        case 8:
            // A trailer line without an end.
            actions.append(.send(bytes("0\r\nX-Endless: ") + [UInt8](repeating: 0x61, count: 70_000)))
        case 9:
            actions.append(.stall)
        case 10:
            actions.append(.close)
        case 11:
            var head = bytes("HTTP/1.1 200 OK\r\n")
            for index in 0..<input.count() * 40 { head += bytes("X-Filler-\(index): \(index)\r\n") }
            actions.append(.send(head))
        default:
            actions.append(.send(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")))
        }
    }
    return actions
}

/// A well-formed response of `body` within the client's documented limits: a Content-Length
/// or chunks of random sizes with short extensions (16 KiB of them at most) and trailers,
/// after 0 to 3 interim answers.
private func wellFormedScript(_ body: [UInt8], _ input: inout FuzzBytes) -> [Action] {
    var out: [UInt8] = []
    for _ in 0..<input.below(4) { out += bytes("HTTP/1.1 100 Continue\r\n\r\n") }
    out += bytes("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n")
    if input.bool() {
        out += bytes("Content-Length: \(body.count)\r\n\r\n") + body
    } else {
        out += bytes("Transfer-Encoding: chunked\r\n\r\n")
        var rest = body[...]
        // Extensions within the 16 KiB a response may carry (docs/security.md).
        var extensionBytes = 0
        while !rest.isEmpty {
            let size = min(rest.count, 1 + input.below(64))
            let extensionText = input.below(4) == 0 && extensionBytes + 11 <= 16 * 1024 ? ";name=value" : ""
            extensionBytes += extensionText.utf8.count
            out += bytes(String(size, radix: 16) + extensionText + "\r\n") + rest.prefix(size) + bytes("\r\n")
            rest = rest.dropFirst(size)
        }
        out += bytes("0\r\n")
        for index in 0..<input.below(3) { out += bytes("X-Sum-\(index): 1\r\n") }
        out += bytes("\r\n")
    }
    return [.send(out), .close]
}

// MARK: The clients

private let timeout = Duration.milliseconds(250)

private func runClient(_ kind: Int, contentType: String?, expected: [UInt8]?) async {
    switch kind {
    case 0:
        let fetcher = MediaFetcher(timeout: timeout)
        _ = try? await fetcher.probe(url: base + "/media", contentType: contentType)
    case 1:
        _ = try? await MediaFetcher(timeout: timeout).probeTextTrack(url: base + "/track.vtt")
    case 2:
        var client = HTTPClient()
        client.timeout = timeout
        let pieces = PieceCounter()
        _ = try? await client.follow(
            base + "/live",
            checkInterval: .milliseconds(20),
            idleTimeout: timeout,
            shouldContinue: { pieces.count < 4 },
            onBody: { _ in pieces.add() }
        )
    case 3:
        _ = try? await PlayCommand.subtitleBytes(base + "/subtitles.srt", timeout: timeout)
    default:
        var client = HTTPClient()
        // A well-formed response may come a byte at a time: it has the time that takes.
        client.timeout = expected == nil ? timeout : .seconds(15)
        var failure: (any Error)?
        let response: HTTPClientResponse?
        do { response = try await client.get(base + "/catalog.json") } catch {
            failure = error
            response = nil
        }
        if let expected {
            FuzzProperty.require(
                response != nil,
                "a well-formed response of \(expected.count) bytes failed: \(failure.map { "\($0)" } ?? "")"
            )
            FuzzProperty.require(
                response?.status.code == 200 && response?.body == expected,
                "a well-formed response gave status \(response?.status.code ?? 0) and \(response?.body.count ?? 0) bytes, not \(expected.count)"
            )
        }
    }
}

private final class PieceCounter: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
}

// MARK: Descriptors

/// The sockets the process holds open (the runtime opens timer and pipe descriptors of its
/// own as it goes; sockets are what a read may leave behind).
private func descriptorCount() -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.count { name in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name))?.hasPrefix("socket:")
            ?? false
    }
}

/// What each open descriptor is (`socket:[…]`, `anon_inode:[eventpoll]`, a path), for the
/// message of a failed property.
private func descriptorTargets() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.sorted().map { name in
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) ?? "?"
        return "\(name)=\(target)"
    }
}

nonisolated(unsafe) private var baseline: Int?

/// Waits (a little) for the descriptors of the finished input to be closed.
private func settledDescriptors(atMost limit: Int) -> Int {
    var count = descriptorCount()
    for _ in 0..<200 where count > limit || script.openConnections > 0 {
        usleep(5_000)
        count = descriptorCount()
    }
    return count
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPServer(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { input in
        var program = FuzzBytes(input)
        _ = server.localAddress
        // A first byte below 64 asks for a well-formed response.
        let wellFormed = program.byte() < 64
        let kind = wellFormed ? 4 : program.below(5)
        let contentType = program.pick([nil, "video/mp4", "application/x-mpegurl", "application/dash+xml", "image/png"])
        var expected: [UInt8]?
        let actions: [Action]
        if wellFormed {
            let body = (0..<min(8_192, program.count() * 97 + program.below(50))).map { _ in program.byte() }
            expected = body
            actions = wellFormedScript(body, &program)
        } else {
            actions = hostileScript(&program)
        }
        var sizes = ChunkSizes(seed: input)
        script.set(actions, pieces: (0..<8).map { _ in sizes.next(limit: 4096) })

        let done = DispatchSemaphore(value: 0)
        Task {
            await runClient(kind, contentType: contentType, expected: expected)
            done.signal()
        }
        // Every hostile read has 250 ms per request, a few requests at most; a well-formed one
        // 15 s: 20 s is a hang.
        guard done.wait(timeout: .now() + 20) == .success else {
            FuzzProperty.fail("the client did not finish within 20 s")
        }
        let settled = settledDescriptors(atMost: baseline ?? .max)
        if let baseline {
            FuzzProperty.require(
                settled <= baseline,
                "\(settled) sockets open after the read, \(baseline) before: a socket was left open: "
                    + descriptorTargets().joined(separator: " ")
            )
        } else {
            baseline = settled
        }
    }
}
