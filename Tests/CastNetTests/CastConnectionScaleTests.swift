import CastNet
import CastSync
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A thousand TLS Cast connections open at once in one process, client and server ours.
@Suite(.serialized, .requires(.openssl)) struct CastConnectionScaleTests {
    struct ProcessFigures: CustomStringConvertible {
        var descriptors: Int
        var threads: Int
        var residentKiB: Int

        static func current() -> ProcessFigures {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            func field(_ name: String) -> Int {
                for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                    let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
                    return Int(digits) ?? -1
                }
                return -1
            }
            return ProcessFigures(descriptors: descriptors, threads: field("Threads"), residentKiB: field("VmRSS"))
        }

        var description: String {
            "fds=\(descriptors) threads=\(threads) rss=\(residentKiB / 1024) MiB"
        }
    }

    private func raiseDescriptorLimit(to wanted: rlim_t) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    @Test func thousandConcurrentTLSConnections() async throws {
        let count = 1000
        raiseDescriptorLimit(to: 8192)
        let before = ProcessFigures.current()
        // Its own two loops, so the other suites running in parallel keep theirs.
        let group = EventLoopGroup(loopCount: 2)
        let accepted = Locked<[CastConnection]>([])
        let listener = try CastListener(
            address: .loopbackIPv4(),
            tls: TestIdentity.server.serverConfiguration,
            backlog: 2048,
            group: group
        ) { connection in
            accepted.withLock { $0.append(connection) }
            connection.setFrameHandler { frame in try? connection.send(frame) }
        }
        let address = listener.localAddress
        let clock = ContinuousClock()
        let start = clock.now
        let loops = group
        let clients = try await withThrowingTaskGroup(of: CastConnection.self) { group in
            for _ in 0..<count {
                group.addTask { try await CastConnection.connect(to: address, group: loops) }
            }
            var clients: [CastConnection] = []
            for try await client in group { clients.append(client) }
            return clients
        }
        let connected = clock.now - start
        #expect(clients.count == count)

        // Every connection carries a frame both ways while all are open.
        let echoed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    let body = Array("client \(index)".utf8)
                    try client.send(body)
                    var iterator = client.frames.makeAsyncIterator()
                    return try await iterator.next() == body
                }
            }
            var matches = 0
            for try await match in group where match { matches += 1 }
            return matches
        }
        #expect(echoed == count)
        let open = ProcessFigures.current()
        print(
            "[scale] \(count) TLS connections (both ends in process): before \(before); "
                + "all open \(open); connect+handshake of all took \(connected)"
        )
        // Two descriptors per connection (client and server end), no thread per connection.
        // The thread bound is far above the loops' few threads because the process is shared:
        // the other suites running beside this one brought it to 70 threads in one run.
        #expect(open.descriptors >= 2 * count)
        #expect(open.threads < count / 4)

        // Both ends and the listener closed before the test returns: nothing of TLS is left
        // running on the loops while the process exits (OpenSSL's exit handler frees its state).
        for client in clients { client.close() }
        for client in clients { _ = await client.closed() }
        await listener.closeAndWait()
        for connection in accepted.withLock({ $0 }) {
            connection.close()
            _ = await connection.closed()
        }
    }
}
