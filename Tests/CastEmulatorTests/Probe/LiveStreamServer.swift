import CastNet
import CastSync
import CastTestSupport
import Foundation

/// A loopback HTTP/1.0 server that streams live Matroska as VLC does: no length, no ranges,
/// the header then one cluster after another, until `clusters` were sent (then it closes)
/// or forever (`nil`) until the reader goes away.
final class LiveStreamServer: Sendable {
    let listener: TCPListener
    let task: Task<Void, Never>
    let requests = Locked(0)
    let bytesSent = WatchedCount()

    var url: String { "http://127.0.0.1:\(listener.localAddress.port)/stream" }

    init(clusters: Int?, header: [UInt8]) throws {
        let listener = try TCPListener(address: .loopbackIPv4())
        self.listener = listener
        let requests = self.requests
        let bytesSent = self.bytesSent
        task = Task {
            await withTaskGroup(of: Void.self) { group in
                for await connection in listener.connections {
                    requests.withLock { $0 += 1 }
                    group.addTask {
                        defer { connection.close() }
                        var request: [UInt8] = []
                        while !request.ends(with: Array("\r\n\r\n".utf8)) {
                            guard let bytes = try? await connection.receive(), request.count < 8192 else { return }
                            request += bytes
                        }
                        let head = Array("HTTP/1.0 200 OK\r\nContent-Type: video/x-matroska\r\n\r\n".utf8)
                        do {
                            try await connection.send(head + header)
                            var index = 0
                            while clusters.map({ index < $0 }) ?? true {
                                let cluster = MatroskaBuilder.cluster(
                                    timecode: UInt64(index) * 100,
                                    blocks: [0, 40],
                                    payload: 2000
                                )
                                try await connection.send(cluster)
                                bytesSent.add(cluster.count)
                                index += 1
                                // A live source makes its clusters at a pace; without one, the
                                // never-ending stream would take a core from the suite.
                                if clusters == nil { try await Task.sleep(for: .milliseconds(5)) }
                            }
                        } catch {
                            return
                        }
                    }
                }
            }
        }
    }

    static var liveHeader: [UInt8] {
        MatroskaBuilder.file(
            segment: [MatroskaBuilder.info(durationMilliseconds: nil), MatroskaBuilder.tracks()],
            unknownSegmentSize: true
        )
    }

    func close() {
        listener.close()
        task.cancel()
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
