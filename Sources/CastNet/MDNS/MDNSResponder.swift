package import CastCore
public import CastNetCore
import CastSync
package import CastTime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Advertises DNS-SD services over mDNS on chosen interfaces: probes for each name, renames
/// on a conflict, announces, answers queries and says goodbye when a service or the
/// responder goes away. One responder serves any number of services.
///
/// ```swift
/// let responder = try MDNSResponder(interfaceNames: ["lo"])
/// let registration = responder.register(MDNSService(castDevice: device, applicationIDs: ["CC1AD845"]))
/// …
/// responder.shutdown()  // goodbyes
/// ```
public final class MDNSResponder: Sendable {
    /// A registered service.
    public struct Registration: Hashable, Sendable {
        let id: MDNSResponderStateMachine.ServiceID
    }

    /// Something that happened to a registered service.
    public struct Event: Hashable, Sendable {
        /// What happened.
        public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            /// Probing succeeded; the service is announced under ``Event/name``.
            public static let registered = Kind(rawValue: "registered")
            /// Another host holds the name; the service now probes as ``Event/name``.
            public static let renamed = Kind(rawValue: "renamed")

            public var description: String { rawValue }
        }

        /// What happened.
        public let kind: Kind
        /// The service concerned.
        public let registration: Registration
        /// The service's instance name after the event.
        public let name: String
    }

    /// Registration and rename events, in order; meant for one consumer.
    public let events: AsyncStream<Event>
    /// The names of the interfaces the responder runs on.
    public let interfaceNames: [String]

    private let continuation: AsyncStream<Event>.Continuation
    private let clock: any CastClock
    private let state: Locked<State>
    private let timer: MDNSTimer
    private let interfaceAddresses: [IPAddress]

    private struct State: Sendable {
        var machine: MDNSResponderStateMachine
        var transport: (any MDNSDatagramTransport)?
    }

    /// Opens the mDNS sockets on the given interfaces.
    ///
    /// - Parameters:
    ///   - interfaceNames: the interfaces to advertise on; `nil` means every multicast-capable
    ///     interface that is up and not loopback.
    ///   - usesIPv4: whether to use IPv4.
    ///   - usesIPv6: whether to use IPv6.
    /// - Throws: ``UDPSocketError`` when an interface does not exist or no socket can be opened.
    public convenience init(
        interfaceNames: [String]? = nil,
        usesIPv4: Bool = true,
        usesIPv6: Bool = true
    ) throws(UDPSocketError) {
        let interfaces = try NetworkInterface.select(names: interfaceNames, from: NetworkInterface.all())
        try self.init(interfaces: interfaces, usesIPv4: usesIPv4, usesIPv6: usesIPv6, clock: SystemCastClock())
    }

    convenience init(
        interfaces: [NetworkInterface],
        usesIPv4: Bool = true,
        usesIPv6: Bool,
        clock: any CastClock
    ) throws(UDPSocketError) {
        // One loop's thread runs the sockets and the timer, one after the other.
        let loop = EventLoopGroup.shared.next()
        try self.init(
            interfaceNames: interfaces.map(\.name),
            interfaceAddresses: interfaces.flatMap { interface in
                (usesIPv4 ? interface.ipv4Addresses.map(IPAddress.v4) : [])
                    + (usesIPv6 ? interface.ipv6Addresses.filter { !$0.isLoopback }.map(IPAddress.v6) : [])
            },
            clock: clock,
            scheduler: { loop.schedule(after: $0, $1) },
            openTransport: { handler in
                try MDNSTransport(
                    interfaces: interfaces,
                    useIPv4: usesIPv4,
                    useIPv6: usesIPv6,
                    loop: loop,
                    handler: handler
                )
            }
        )
    }

    /// Creates a responder on the transport `openTransport` opens (UDP sockets, or a network
    /// in memory), whose timer `scheduler` runs on the transport's loop.
    /// - Parameters:
    ///   - interfaceNames: the names ``interfaceNames`` reports.
    ///   - interfaceAddresses: the addresses a service registered without any is given.
    ///   - clock: the clock of the responder's deadlines.
    ///   - scheduler: runs an action after a delay, on the loop the transport delivers on.
    ///   - random: the source of the responder's random delays.
    ///   - openTransport: opens the transport, once.
    /// - Throws: ``UDPSocketError`` when the transport cannot be opened.
    package init(
        interfaceNames: [String],
        interfaceAddresses: [IPAddress],
        clock: any CastClock,
        scheduler: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> CastTimer,
        random: MDNSRandom = MDNSRandom(),
        openTransport: MDNSTransportOpener
    ) throws(UDPSocketError) {
        self.clock = clock
        self.interfaceNames = interfaceNames
        self.interfaceAddresses = interfaceAddresses
        state = Locked(State(machine: MDNSResponderStateMachine(random: random)))
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        let box = WeakBox<MDNSResponder>()
        timer = MDNSTimer(scheduler: scheduler, clock: clock) { box.value?.timerFired() }
        let transport: any MDNSDatagramTransport
        do {
            transport = try openTransport { received in box.value?.handle(received) }
        } catch let error as UDPSocketError {
            throw error
        } catch {
            throw UDPSocketError(.create, errno: 0, detail: "\(error)")
        }
        state.withLock { $0.transport = transport }
        box.value = self
    }

    deinit {
        timer.cancel()
        state.withLock { $0.transport?.close() }
        continuation.finish()
    }

    /// Starts advertising a service. When ``MDNSService/addresses`` is empty, the addresses
    /// of the responder's interfaces are advertised.
    public func register(_ service: MDNSService) -> Registration {
        let service = withAddresses(service)
        let now = clock.now
        let (id, deadline) = state.withLock { state in
            (state.machine.register(service, now: now), state.machine.nextDeadline)
        }
        timer.schedule(at: deadline)
        return Registration(id: id)
    }

    /// Changes a service's TXT record, subtypes, port or addresses and announces the change.
    public func update(_ registration: Registration, to service: MDNSService) {
        let service = withAddresses(service)
        run { machine, now in machine.update(registration.id, to: service, now: now) }
    }

    /// Stops advertising a service and sends its goodbye.
    public func unregister(_ registration: Registration) {
        run { machine, _ in machine.unregister(registration.id) }
    }

    /// The instance name a service is advertised under now (it changes on a conflict).
    public func name(of registration: Registration) -> String? {
        state.withLock { $0.machine.instanceName(of: registration.id) }
    }

    /// Sends goodbyes for every service and closes the sockets. The responder cannot be used afterwards.
    public func shutdown() {
        let (actions, transport) = state.withLock { state in
            defer { state.transport = nil }
            return (state.machine.shutdown(), state.transport)
        }
        timer.cancel()
        perform(actions, transport: transport, interfaceIndex: 0)
        transport?.close()
        continuation.finish()
    }

    // MARK: - Private

    private func withAddresses(_ service: MDNSService) -> MDNSService {
        var service = service
        if service.addresses.isEmpty { service.addresses = interfaceAddresses }
        return service
    }

    private func run(_ body: (inout MDNSResponderStateMachine, CastInstant) -> [MDNSResponderStateMachine.Action]) {
        let now = clock.now
        let (actions, deadline, transport) = state.withLock { state in
            (body(&state.machine, now), state.machine.nextDeadline, state.transport)
        }
        timer.schedule(at: deadline)
        perform(actions, transport: transport, interfaceIndex: 0)
    }

    private func handle(_ received: MDNSDatagram) {
        let now = clock.now
        let (actions, deadline, transport) = state.withLock { state in
            (
                state.machine.receive(received.message, from: received.source, now: now), state.machine.nextDeadline,
                state.transport
            )
        }
        timer.schedule(at: deadline)
        perform(actions, transport: transport, interfaceIndex: received.interfaceIndex)
    }

    private func timerFired() {
        run { machine, now in machine.tick(now: now) }
    }

    private func perform(
        _ actions: [MDNSResponderStateMachine.Action],
        transport: (any MDNSDatagramTransport)?,
        interfaceIndex: UInt32
    ) {
        for action in actions {
            switch action {
            case .send(let message, .multicast):
                transport?.sendMulticast(message)
            case .send(let message, .unicast(let destination)):
                transport?.sendUnicast(message, to: destination, interfaceIndex: interfaceIndex)
            case .registered(let id, let name):
                continuation.yield(Event(kind: .registered, registration: Registration(id: id), name: name))
            case .renamed(let id, _, let name):
                continuation.yield(Event(kind: .renamed, registration: Registration(id: id), name: name))
            }
        }
    }
}
