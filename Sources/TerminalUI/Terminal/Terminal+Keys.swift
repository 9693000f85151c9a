extension Terminal {
    /// The key presses read from the input, for programs that read keys without
    /// ``TerminalApp``.
    ///
    /// Keys are read on a thread of their own from the first call on; the stream finishes
    /// when the input ends, and reading stops when the stream is dropped or cancelled. Raw
    /// mode is not changed here: call ``activate(alternateScreen:)`` first to get keys one at
    /// a time rather than a line at a time. Do not use it while a ``TerminalApp`` runs on the
    /// same input.
    ///
    /// - Parameter escapeTimeout: How long to wait for the rest of an escape sequence before
    ///   a lone ESC counts as the Escape key.
    public func keyEvents(escapeTimeout: Duration = .milliseconds(50)) -> AsyncStream<KeyEvent> {
        let (stream, continuation) = AsyncStream<KeyEvent>.makeStream()
        let reader = InputReader(input: inputDescriptor, escapeTimeout: escapeTimeout, routesSignals: false) {
            report in
            switch report {
            case .keys(let keys):
                for key in keys {
                    continuation.yield(key)
                }
            case .closed:
                continuation.finish()
            case .resized, .continued:
                break
            }
        }
        do {
            try reader.start()
        } catch {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in
            reader.requestStop()
        }
        return stream
    }
}
