import CastSync
import CastTestSupport
import Foundation
import Glibc
import TerminalUI
import Testing

/// The app loop driven through pipes, in this process. The suite is serialized: a terminal
/// session is process-wide.
@Suite(.serialized) struct TerminalAppTests {
    private final class Pipes: Sendable {
        let inputRead: Int32
        let inputWrite: Int32
        let outputRead: Int32
        let outputWrite: Int32
        private let inputWriteOpen = Locked(true)

        init() {
            var input: [Int32] = [-1, -1]
            var output: [Int32] = [-1, -1]
            precondition(pipe(&input) == 0 && pipe(&output) == 0)
            inputRead = input[0]
            inputWrite = input[1]
            outputRead = output[0]
            outputWrite = output[1]
            _ = fcntl(outputRead, F_SETFL, fcntl(outputRead, F_GETFL) | O_NONBLOCK)
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(inputWrite, $0.baseAddress, $0.count) }
        }

        func drainOutput() -> String {
            var collected: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(outputRead, &buffer, buffer.count)
                if count <= 0 { break }
                collected += buffer[0..<count]
            }
            return String(decoding: collected, as: UTF8.self)
        }

        /// Ends the input: the reader sees end of file.
        func closeInput() {
            inputWriteOpen.withLock { open in
                if open { close(inputWrite) }
                open = false
            }
        }

        func closeAll() {
            closeInput()
            for descriptor in [inputRead, outputRead, outputWrite] {
                close(descriptor)
            }
        }
    }

    private static let environment = ["TERM": "xterm", "COLUMNS": "20", "LINES": "3", "LANG": "C.UTF-8"]

    @Test func deliversKeysRefreshesAndDrawsThroughPipes() async throws {
        let pipes = Pipes()
        defer { pipes.closeAll() }
        let terminal = Terminal(input: pipes.inputRead, output: pipes.outputWrite, environment: Self.environment)
        #expect(!terminal.isInteractive)
        #expect(terminal.size() == Size(width: 20, height: 3))
        let app = TerminalApp(terminal: terminal, configuration: .init(escapeTimeout: .milliseconds(20)))
        let (events, continuation) = AsyncStream<TerminalEvent>.makeStream()
        let sizes = Locked<[Size]>([])
        let runTask = Task {
            var keys = 0
            defer { continuation.finish() }
            try await app.run { screen in
                sizes.withLock { $0.append(screen.size) }
                screen.write("keys \(keys)", at: Point(x: 1, y: 1))
            } handle: { event in
                if case .key = event { keys += 1 }
                continuation.yield(event)
            }
        }
        try await withDeadline(.seconds(60), "events from the app loop") {
            var iterator = events.makeAsyncIterator()
            pipes.send("a")
            #expect(await iterator.next() == .key(.character("a")))
            pipes.send("\u{1B}")
            #expect(await iterator.next() == .key(KeyEvent(.escape)))
            pipes.send("\u{1B}[B")
            #expect(await iterator.next() == .key(KeyEvent(.down)))
            app.requestRender()
            #expect(await iterator.next() == .refresh)
            pipes.send("\u{3}")
            #expect(await iterator.next() == nil)
        }
        try await runTask.value
        #expect(sizes.withLock { $0 }.allSatisfy { $0 == Size(width: 20, height: 3) })
        let output = pipes.drainOutput()
        #expect(output.hasPrefix("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[2J\u{1B}[2;2Hkeys 0\u{1B}[?25l"))
        #expect(output.contains("\u{1B}[2;7H1"))
        #expect(output.contains("\u{1B}[2;7H3"))
        #expect(output.hasSuffix("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test func endsWhenInputClosesOrWhenStopped() async throws {
        let pipes = Pipes()
        defer { pipes.closeAll() }
        let terminal = Terminal(input: pipes.inputRead, output: pipes.outputWrite, environment: Self.environment)
        let app = TerminalApp(terminal: terminal)
        let seen = Locked<[TerminalEvent]>([])
        pipes.send("xy")
        pipes.closeInput()
        try await withDeadline(.seconds(60), "the loop ending at end of input") {
            try await app.run { _ in
            } handle: { event in
                seen.withLock { $0.append(event) }
            }
        }
        #expect(seen.withLock { $0 } == [.key(.character("x")), .key(.character("y")), .inputClosed])

        let second = Pipes()
        defer { second.closeAll() }
        second.send("q")
        let stoppable = TerminalApp(
            terminal: Terminal(input: second.inputRead, output: second.outputWrite, environment: Self.environment)
        )
        try await withDeadline(.seconds(60), "the loop ending on stop()") {
            try await stoppable.run { _ in
            } handle: { event in
                if event == .key(.character("q")) { stoppable.stop() }
            }
        }
        _ = second.drainOutput()
    }

    @Test func handlerErrorsEndTheLoopAndRestore() async throws {
        struct Boom: Error {}
        let pipes = Pipes()
        defer { pipes.closeAll() }
        let app = TerminalApp(
            terminal: Terminal(input: pipes.inputRead, output: pipes.outputWrite, environment: Self.environment)
        )
        pipes.send("!")
        await #expect(throws: Boom.self) {
            try await withDeadline(.seconds(60), "the loop ending on an error") {
                try await app.run { _ in
                } handle: { _ in
                    throw Boom()
                }
            }
        }
        #expect(pipes.drainOutput().hasSuffix("\u{1B}[?1049l"))
    }

    @Test func onlyOneTerminalIsActiveAtATime() throws {
        let first = Pipes()
        let second = Pipes()
        defer {
            first.closeAll()
            second.closeAll()
        }
        let terminal = Terminal(input: first.inputRead, output: first.outputWrite, environment: Self.environment)
        try terminal.activate()
        #expect {
            try Terminal(input: second.inputRead, output: second.outputWrite, environment: Self.environment).activate()
        } throws: { error in
            (error as? TerminalError)?.code == .alreadyActive
                && "\(error)" == "terminal activate failed on file descriptor \(second.inputRead): "
                    + "another terminal session is active in this process"
        }
        terminal.restore()
        terminal.restore()
        let other = Terminal(input: second.inputRead, output: second.outputWrite, environment: Self.environment)
        try other.activate(alternateScreen: false)
        other.restore()
        #expect(second.drainOutput() == "\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\r\n")
    }

    @Test func keyEventsStreamReadsUntilTheInputEnds() async throws {
        let pipes = Pipes()
        defer { pipes.closeAll() }
        let terminal = Terminal(input: pipes.inputRead, output: pipes.outputWrite, environment: Self.environment)
        pipes.send("a\u{1B}[A\u{1B}")
        pipes.closeInput()
        let keys = try await withDeadline(.seconds(60), "keys from the stream") {
            var keys: [KeyEvent] = []
            for await key in terminal.keyEvents() {
                keys.append(key)
            }
            return keys
        }
        #expect(keys == [.character("a"), KeyEvent(.up), KeyEvent(.escape)])
    }

    @Test func keyEventsStreamStopsReadingWhenDropped() async throws {
        let pipes = Pipes()
        defer { pipes.closeAll() }
        let terminal = Terminal(input: pipes.inputRead, output: pipes.outputWrite, environment: Self.environment)
        pipes.send("1")
        let first = try await withDeadline(.seconds(60), "the first key") { () async -> KeyEvent? in
            for await key in terminal.keyEvents() {
                return key
            }
            return nil
        }
        #expect(first == .character("1"))
        // The dropped stream's reader has finished: a new stream gets the next byte.
        pipes.send("2")
        let second = try await withDeadline(.seconds(60), "the next key") { () async -> KeyEvent? in
            for await key in terminal.keyEvents() {
                return key
            }
            return nil
        }
        #expect(second == .character("2"))
    }

    @Test func fallbackSizeComesFromTheEnvironment() {
        #expect(Terminal.fallbackSize(environment: [:]) == Size(width: 80, height: 24))
        #expect(Terminal.fallbackSize(environment: ["COLUMNS": "132", "LINES": "50"]) == Size(width: 132, height: 50))
        #expect(Terminal.fallbackSize(environment: ["COLUMNS": "-3", "LINES": "many"]) == Size(width: 80, height: 24))
        #expect(
            Terminal.fallbackSize(environment: ["COLUMNS": "99999999", "LINES": "99999999"]) == Terminal.maximumSize
        )
    }

    @Test func errorsDescribeWhatFailed() {
        #expect(TerminalError.Code.attributes.rawValue == 1)
        #expect(TerminalError.Code.write.rawValue == 2)
        #expect(TerminalError.Code.alreadyActive.rawValue == 3)
        #expect(TerminalError.Code.eventSource.rawValue == 4)
        let bad = Terminal(input: -1, output: -1, environment: [:])
        #expect {
            try bad.write(Array("x".utf8))
        } throws: { error in
            guard let error = error as? TerminalError else { return false }
            return error.code == .write && error.errno == EBADF
                && error.description == "terminal write failed: \(String(cString: strerror(EBADF))) (errno \(EBADF))"
        }
        #expect {
            try Terminal(input: -1, output: -1, environment: [:]).activate()
        } throws: { error in
            (error as? TerminalError)?.code == .write
        }
    }
}
