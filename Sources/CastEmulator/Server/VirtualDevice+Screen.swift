import CastNet
import CastSync
import CastTime

extension VirtualDevice {
    /// The address of the device's TV screen (`http://ADDRESS:PORT/`) once started, or
    /// `nil` when it serves none (``DeviceServerOptions/servesScreen``).
    public var screenURL: String? {
        guard screen != nil, let port = ports?.http, port > 0 else { return nil }
        return "http://\(options.address):\(port)/"
    }

    /// The screen's state now, or `nil` when the device serves no screen or runs another
    /// engine.
    func screenState() -> ScreenState? {
        guard screen != nil else { return nil }
        let now = clock.now
        return state.withLock { state in
            (state.engine as? VirtualDeviceEngine).map { ScreenState(engine: $0, at: now) }
        }
    }

    /// A new event stream of the screen, starting with its state now (it may take the place of
    /// a browser that stopped reading); `nil` when the device serves no screen or is stopped.
    func openScreenStream() -> HTTPResponseStream? {
        guard let screen else { return nil }
        let now = clock.now
        return state.withLock { state in
            guard !state.stopped, let engine = state.engine as? VirtualDeviceEngine else { return nil }
            return screen.open(engine, at: now)
        }
    }
}
