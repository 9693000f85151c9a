import Glibc

extension Terminal {
    /// The size of a character cell in pixels, as the terminal driver reports it
    /// (`TIOCGWINSZ`'s pixel fields), or `nil` when it does not.
    public func cellPixelSize() -> Size? {
        for descriptor in [outputDescriptor, inputDescriptor] {
            var window = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0,
                window.ws_xpixel > 0, window.ws_ypixel > 0
            {
                let width = Int(window.ws_xpixel) / Int(window.ws_col)
                let height = Int(window.ws_ypixel) / Int(window.ws_row)
                if width > 0, height > 0, width <= 256, height <= 512 { return Size(width: width, height: height) }
            }
        }
        return nil
    }

    /// Asks the terminal which graphics protocol it offers (``GraphicsSupport/query``) and
    /// waits for its answers, at most `timeout`; reads the environment for the protocols a
    /// terminal declares there (``GraphicsSupport/decide(environment:answers:cellPixelSize:)``).
    ///
    /// Call it while the terminal is in raw mode and before anything else reads its input. No
    /// query is sent when input or output is not a terminal.
    /// - Returns: what was found, and the bytes read that were no answer (keys typed in the
    ///   meantime), to be handled as input.
    public func queryGraphics(timeout: Duration = .milliseconds(500)) -> (support: GraphicsSupport, typed: [UInt8]) {
        let cell = cellPixelSize()
        guard isatty(inputDescriptor) == 1, isatty(outputDescriptor) == 1 else {
            return (GraphicsSupport.decide(environment: environment, answers: nil, cellPixelSize: cell), [])
        }
        do {
            try write(GraphicsSupport.query)
        } catch {
            return (GraphicsSupport.decide(environment: environment, answers: nil, cellPixelSize: cell), [])
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var received: [UInt8] = []
        var answers = GraphicsSupport.QueryAnswers()
        var buffer = [UInt8](repeating: 0, count: 512)
        // An answer holds a few dozen bytes; more than this is not an answer.
        while !answers.isComplete, received.count < 16 << 10 {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { break }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(inputDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
            answers = GraphicsSupport.parseAnswers(received)
        }
        return (GraphicsSupport.decide(environment: environment, answers: answers, cellPixelSize: cell), answers.other)
    }
}
