import CastSync
import CastTestSupport
import Foundation
import Glibc
import Testing

@testable import TerminalUI

/// The graphics query on a pseudo-terminal: the test plays the terminal, reads the query the
/// app writes and answers as kitty, a sixel terminal or a plain one would.
@Suite(.serialized) struct GraphicsQueryTests {
    /// A pseudo-terminal in raw mode: the app's side (`slave`) and the terminal's (`master`).
    struct PseudoTerminal {
        let master: Int32
        let slave: Int32

        init() throws {
            // /dev/ptmx, unlocked (TIOCSPTLCK), its number (TIOCGPTN): Linux's pseudo-terminals.
            master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0
            else { throw CocoaError(.fileNoSuchFile) }
            slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw CocoaError(.fileNoSuchFile) }
            var attributes = termios()
            tcgetattr(slave, &attributes)
            cfmakeraw(&attributes)
            tcsetattr(slave, TCSANOW, &attributes)
        }

        func close() {
            Glibc.close(master)
            Glibc.close(slave)
        }

        /// Reads what the app wrote until `count` bytes arrived (or 30 seconds passed), without
        /// holding a thread of the test pool while it waits.
        func read(count: Int) async throws -> [UInt8] {
            let received = Locked<[UInt8]>([])
            let master = master
            // What the app wrote waits in the pty, which announces nothing to a task.
            try? await pollUntil("\(count) bytes from the app", within: .seconds(30)) {
                var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                while poll(&descriptor, 1, 0) > 0 {
                    var buffer = [UInt8](repeating: 0, count: 256)
                    let read = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
                    guard read > 0 else { break }
                    let chunk = Array(buffer[0..<read])
                    received.withLock { $0 += chunk }
                }
                return received.withLock { $0.count } >= count
            }
            return received.withLock { $0 }
        }

        func write(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Runs the query with `answer` sent once the query arrived.
    static func query(
        answer: String?,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(30)
    ) async throws -> (GraphicsSupport, [UInt8], [UInt8]) {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = Terminal(input: pty.slave, output: pty.slave, environment: environment)
        // The query blocks while it waits for the answer: on a thread of its own, not on the
        // test pool's.
        let (results, continuation) = AsyncStream<(GraphicsSupport, [UInt8])>.makeStream()
        let thread = Thread {
            continuation.yield(terminal.queryGraphics(timeout: timeout))
            continuation.finish()
        }
        thread.start()
        let query = try await pty.read(count: GraphicsSupport.query.count)
        if let answer { pty.write(answer) }
        var result: (GraphicsSupport, [UInt8])?
        for await value in results { result = value }
        let (support, typed) = try #require(result)
        return (support, typed, query)
    }

    @Test func kittyAnswersOK() async throws {
        let (support, typed, query) = try await Self.query(answer: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c")
        #expect(query == GraphicsSupport.query, "the kitty query, then DA1")
        #expect(support.graphicsProtocol == .kitty)
        #expect(typed.isEmpty)
    }

    @Test func aSixelTerminalListsAttributeFour() async throws {
        let (support, typed, _) = try await Self.query(answer: "a\u{1B}[?63;1;2;4;6;9;15;22c")
        #expect(support.graphicsProtocol == .sixel)
        #expect(support.reason == "DA1 lists sixel")
        #expect(typed == Array("a".utf8), "a key typed before the answer reaches the app")
    }

    @Test func aPlainTerminalDrawsInCells() async throws {
        let (support, _, _) = try await Self.query(answer: "\u{1B}[?1;2c", environment: ["TERM": "xterm-kitty"])
        #expect(support.graphicsProtocol == nil)
        #expect(support.reason == "no graphics protocol declared")
    }

    @Test func aSilentTerminalTimesOut() async throws {
        let start = ContinuousClock.now
        let (support, _, _) = try await Self.query(answer: nil, timeout: .milliseconds(300))
        #expect(support.graphicsProtocol == nil)
        #expect(support.reason.contains("did not answer"))
        // A hang guard, not a timing claim: a loaded run may hold the query's thread for long.
        #expect(ContinuousClock.now - start < TestTiming.patience)
    }
}
