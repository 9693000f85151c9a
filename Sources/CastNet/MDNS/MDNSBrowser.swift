public import CastCore
package import CastNetCore
import CastSync
package import CastTime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds Cast devices on the local network over mDNS/DNS-SD (`_googlecast._tcp`).
///
/// The browser queries continuously on every multicast-capable interface (or only those
/// named in ``Configuration/interfaceNames``), over IPv4 and IPv6, and reports devices appearing, changing
/// and going away through ``events``.
///
/// ```swift
/// let browser = try MDNSBrowser()
/// try browser.start()
/// for await event in browser.events {
///     print(event.kind, event.device.friendlyName ?? "?")
/// }
/// ```
public final class MDNSBrowser: Sendable {
    /// What to browse and where.
    public struct Configuration: Sendable {
        /// A receiver application ID (such as `CC1AD845`): its
        /// `_<APPID>._sub._googlecast._tcp` subtype is asked for besides the plain type, so
        /// devices advertising either are found.
        public var applicationID: String?
        /// Whether only devices advertising the ``applicationID`` subtype are found (a filter
        /// for apps that want it; by default every Cast device is listed, as pychromecast and
        /// catt list them).
        public var requiresApplicationSubtype: Bool
        /// The interfaces to use; `nil` means every multicast-capable interface that is up and
        /// not loopback.
        public var interfaceNames: [String]?
        /// Whether to use IPv4.
        public var usesIPv4: Bool
        /// Whether to use IPv6.
        public var usesIPv6: Bool
        /// Whether a goodbye removes a device at once (`true`) or one second later as RFC 6762 says.
        public var removesDevicesOnGoodbyeAtOnce: Bool

        /// Creates a configuration.
        public init(
            applicationID: String? = nil,
            requiresApplicationSubtype: Bool = false,
            interfaceNames: [String]? = nil,
            usesIPv4: Bool = true,
            usesIPv6: Bool = true,
            removesDevicesOnGoodbyeAtOnce: Bool = true
        ) {
            self.applicationID = applicationID
            self.requiresApplicationSubtype = requiresApplicationSubtype
            self.interfaceNames = interfaceNames
            self.usesIPv4 = usesIPv4
            self.usesIPv6 = usesIPv6
            self.removesDevicesOnGoodbyeAtOnce = removesDevicesOnGoodbyeAtOnce
        }
    }

    /// A change in the list of devices.
    public struct Event: Hashable, Sendable {
        /// What kind of change.
        public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            /// A device appeared.
            public static let inserted = Kind(rawValue: "inserted")
            /// A known device changed.
            public static let updated = Kind(rawValue: "updated")
            /// A device went away.
            public static let removed = Kind(rawValue: "removed")

            public var description: String { rawValue }
        }

        /// What kind of change.
        public let kind: Kind
        /// The device, as it is now (or was, when removed).
        public let device: CastDevice
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// The changes to the device list, in order. Meant for one consumer; it finishes when the
    /// browser is stopped for good (deinitialized).
    public let events: AsyncStream<Event>

    private let continuation: AsyncStream<Event>.Continuation
    private let clock: any CastClock
    private let state: Locked<State>
    private let timer: MDNSTimer
    /// Opens the sockets; received datagrams and the timer run on one loop, one after the other.
    private let openTransport: MDNSTransportOpener

    private struct State: Sendable {
        var machine: MDNSQuerierStateMachine
        var transport: (any MDNSDatagramTransport)?
    }

    /// Creates a stopped browser.
    /// - Throws: ``UDPSocketError`` when the interface list cannot be read or a named
    ///   interface does not exist.
    public convenience init(configuration: Configuration = Configuration()) throws(UDPSocketError) {
        let interfaces = try NetworkInterface.select(names: configuration.interfaceNames, from: NetworkInterface.all())
        self.init(configuration: configuration, interfaces: interfaces, clock: SystemCastClock())
    }

    convenience init(configuration: Configuration, interfaces: [NetworkInterface], clock: any CastClock) {
        // One loop's thread runs the sockets and the timer, one after the other.
        let loop = EventLoopGroup.shared.next()
        self.init(
            configuration: configuration,
            interfaceNames: interfaces.map(\.name),
            clock: clock,
            scheduler: { loop.schedule(after: $0, $1) },
            openTransport: { handler in
                try MDNSTransport(
                    interfaces: interfaces,
                    useIPv4: configuration.usesIPv4,
                    useIPv6: configuration.usesIPv6,
                    loop: loop,
                    handler: handler
                )
            }
        )
    }

    /// Creates a stopped browser on the transport `openTransport` opens at each start (UDP
    /// sockets, or a network in memory), whose timer `scheduler` runs on the transport's loop.
    /// - Parameters:
    ///   - configuration: what to browse (its interface and family choices are the opener's).
    ///   - interfaceNames: the names ``interfaceNames`` reports.
    ///   - clock: the clock of the querier's deadlines.
    ///   - scheduler: runs an action after a delay, on the loop the transport delivers on.
    ///   - openTransport: opens the transport when the browser starts.
    ///   - random: the source of the querier's random delays.
    package init(
        configuration: Configuration,
        interfaceNames: [String],
        clock: any CastClock,
        scheduler: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> CastTimer,
        random: MDNSRandom = MDNSRandom(),
        openTransport: @escaping MDNSTransportOpener
    ) {
        self.configuration = configuration
        self.interfaceNames = interfaceNames
        self.clock = clock
        self.openTransport = openTransport
        let machine = MDNSQuerierStateMachine(
            configuration: .init(
                applicationID: configuration.applicationID,
                requiresApplicationSubtype: configuration.requiresApplicationSubtype,
                removesDevicesOnGoodbyeAtOnce: configuration.removesDevicesOnGoodbyeAtOnce
            ),
            random: random
        )
        state = Locked(State(machine: machine))
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        let box = WeakBox<MDNSBrowser>()
        timer = MDNSTimer(scheduler: scheduler, clock: clock) { box.value?.timerFired() }
        box.value = self
    }

    deinit {
        timer.cancel()
        state.withLock { $0.transport?.close() }
        continuation.finish()
    }

    /// The interfaces the browser runs on.
    public let interfaceNames: [String]

    /// The devices known now.
    public var devices: [CastDevice] { state.withLock { $0.machine.knownDevices } }

    /// Whether the browser is running.
    public var isRunning: Bool { state.withLock { $0.transport != nil } }

    /// Whether browse queries go out at the passive pace: after the first query, every 60 s
    /// doubling (instead of 1 s doubling); cached records are still refreshed and
    /// announcements still heard. Takes effect at once, also while running.
    public var passiveScan: Bool {
        get { state.withLock { $0.machine.isPassive } }
        set {
            let now = clock.now
            let deadline = state.withLock { state -> CastInstant? in
                state.machine.setPassive(newValue, now: now)
                return state.machine.nextDeadline
            }
            if isRunning { timer.schedule(at: deadline) }
        }
    }

    /// Opens the sockets and starts querying. Calling it while running does nothing.
    /// - Throws: ``UDPSocketError`` when no socket could be opened.
    public func start() throws(UDPSocketError) {
        guard !isRunning else { return }
        let transport: any MDNSDatagramTransport
        do {
            transport = try openTransport { [weak self] received in self?.handle(received) }
        } catch let error as UDPSocketError {
            throw error
        } catch {
            throw UDPSocketError(.create, errno: 0, detail: "\(error)")
        }
        let now = clock.now
        let (deadline, started) = state.withLock { state -> (CastInstant?, Bool) in
            guard state.transport == nil else { return (nil, false) }
            state.transport = transport
            state.machine.start(now: now)
            return (state.machine.nextDeadline, true)
        }
        guard started else {
            transport.close()
            return
        }
        timer.schedule(at: deadline)
    }

    /// Stops querying, closes the sockets and reports every known device as removed.
    public func stop() {
        let (actions, transport) = state.withLock { state in
            defer { state.transport = nil }
            return (state.machine.stop(), state.transport)
        }
        timer.schedule(at: nil)
        transport?.close()
        perform(actions, transport: nil)
    }

    // MARK: - Private

    private func handle(_ received: MDNSDatagram) {
        let now = clock.now
        let (actions, deadline, transport) = state.withLock { state in
            (state.machine.receive(received.message, now: now), state.machine.nextDeadline, state.transport)
        }
        timer.schedule(at: deadline)
        perform(actions, transport: transport)
    }

    private func timerFired() {
        let now = clock.now
        let (actions, deadline, transport) = state.withLock { state in
            (state.machine.tick(now: now), state.machine.nextDeadline, state.transport)
        }
        timer.schedule(at: deadline)
        perform(actions, transport: transport)
    }

    private func perform(_ actions: [MDNSQuerierStateMachine.Action], transport: (any MDNSDatagramTransport)?) {
        for action in actions {
            switch action {
            case .send(let message): transport?.sendMulticast(message)
            case .inserted(let device): continuation.yield(Event(kind: .inserted, device: device))
            case .updated(let device): continuation.yield(Event(kind: .updated, device: device))
            case .removed(let device): continuation.yield(Event(kind: .removed, device: device))
            }
        }
    }
}

/// A weak reference that can be captured in a `@Sendable` closure before `self` exists.
final class WeakBox<T: AnyObject & Sendable>: Sendable {
    private let storage = Locked<Weak>(Weak())
    private struct Weak: @unchecked Sendable {
        // Only read and written under the mutex; T is Sendable.
        weak var value: T?
    }

    var value: T? {
        get { storage.withLock { $0.value } }
        set { storage.withLock { $0.value = newValue } }
    }
}
