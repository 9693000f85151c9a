import CastNet
import CastSync
import CastTime

/// A device's TV screen: the browsers following it (``ScreenHub``) and the timer that
/// publishes it again while captions play.
///
/// The device calls it under its engine's lock after every engine step, so every browser
/// sees the screen's changes in the order the engine made them; the screen's own lock is
/// taken second.
final class DeviceScreen: Sendable {
    /// The browsers following the screen.
    let hub: ScreenHub
    private let clock: any CastClock
    /// Publishes the screen again while captions play (their window moves).
    private let refreshTimer = Locked<CastTimer?>(nil)

    init(limit: Int, bufferLimit: Int, clock: any CastClock) {
        self.hub = ScreenHub(limit: limit, bufferLimit: bufferLimit)
        self.clock = clock
    }

    /// The number of browsers following the screen now.
    var clientCount: Int { hub.clientCount }

    /// Publishes the screen of `engine` to the browsers following it, if any. While captions
    /// play, `refresh` is called after ``ScreenState/captionRefreshInterval`` (from the
    /// clock's timer, without any lock held), so that the device publishes again and the
    /// window of cues the page holds follows the position.
    func engineStepped(_ engine: VirtualDeviceEngine, at now: DeviceInstant, refresh: @escaping @Sendable () -> Void) {
        guard hub.hasClients else { return }
        let screen = ScreenState(engine: engine, at: now)
        hub.publish(screen)
        guard screen.needsRefresh else { return }
        refreshTimer.withLock { timer in
            guard timer == nil else { return }
            timer = clock.schedule(after: ScreenState.captionRefreshInterval) { [weak self] in
                self?.refreshTimer.withLock { $0 = nil }
                refresh()
            }
        }
    }

    /// A new event stream of the screen, starting with the screen of `engine`; call under the
    /// device's lock, so no change is published between the state taken and the stream joining.
    func open(_ engine: VirtualDeviceEngine, at now: DeviceInstant) -> HTTPResponseStream {
        hub.open(current: ScreenState(engine: engine, at: now))
    }

    /// Stops the refresh timer and ends every browser's stream.
    func close() {
        let timer = refreshTimer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        timer?.cancel()
        hub.closeAll()
    }
}
