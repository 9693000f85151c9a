package import CastCore
package import CastNetCore
import CastSync
package import CastTime

/// A link in memory for mDNS queriers and responders on an ``EmbeddedLoop``: every member's
/// multicast reaches every member (itself too, as with multicast loopback on), a unicast
/// reaches the member with that address, each as loop work.
///
/// Messages cross the link as bytes: each is encoded by the sender and decoded by every
/// receiver, which drops what does not decode, as the UDP transport does; so the DNS codec runs
/// on every hop. ``sent`` records the traffic for tests to count.
package final class EmbeddedMDNSNetwork: Sendable {
    /// One message sent on the link.
    package struct Transmission: Sendable {
        /// When it was sent, on the loop's clock.
        package var time: CastInstant
        /// The sender's address.
        package var source: IPAddress
        /// What was sent.
        package var message: DNSMessage
        /// The peer of a unicast; `nil` for a multicast.
        package var destination: UDPEndpoint?
    }

    private final class Member: MDNSDatagramTransport {
        let address: IPAddress
        let network: EmbeddedMDNSNetwork
        let handler: @Sendable (MDNSDatagram) -> Void
        let isClosed = Locked(false)

        init(address: IPAddress, network: EmbeddedMDNSNetwork, handler: @escaping @Sendable (MDNSDatagram) -> Void) {
            self.address = address
            self.network = network
            self.handler = handler
        }

        func sendMulticast(_ message: DNSMessage) {
            guard !isClosed.withLock({ $0 }) else { return }
            network.transmit(message, from: self, to: nil)
        }

        func sendUnicast(_ message: DNSMessage, to destination: UDPEndpoint, interfaceIndex: UInt32) {
            guard !isClosed.withLock({ $0 }) else { return }
            network.transmit(message, from: self, to: destination)
        }

        func close() {
            isClosed.withLock { $0 = true }
            network.remove(self)
        }
    }

    /// The port every member sends from and listens on.
    package static let port: UInt16 = 5353
    /// The interface index the link reports.
    package static let interfaceIndex: UInt32 = 1

    private let loop: EmbeddedLoop
    private let members = Locked<[Member]>([])
    private let transmissions = Locked<[Transmission]>([])

    /// Creates an empty link whose deliveries run on `loop`.
    package init(loop: EmbeddedLoop) {
        self.loop = loop
    }

    /// Everything sent so far, in order.
    package var sent: [Transmission] { transmissions.withLock { $0 } }

    /// Opens a member at `address` whose received datagrams go to `handler`, as loop work:
    /// an ``MDNSTransportOpener`` for a querier or responder of `CastNet`.
    package func opener(address: IPAddress) -> MDNSTransportOpener {
        { [self] handler in
            let member = Member(address: address, network: self, handler: handler)
            members.withLock { $0.append(member) }
            return member
        }
    }

    /// Runs an action after a delay as work of the link's loop: the timers of a querier or
    /// responder on this link.
    package var scheduler: @Sendable (Duration, @escaping @Sendable () -> Void) -> CastTimer {
        { [loop] delay, action in loop.schedule(after: delay, action) }
    }

    private func transmit(_ message: DNSMessage, from sender: Member, to destination: UDPEndpoint?) {
        guard let bytes = try? message.encoded() else { return }
        transmissions.withLock {
            $0.append(
                Transmission(time: loop.clock.now, source: sender.address, message: message, destination: destination)
            )
        }
        let receivers = members.withLock { members in
            members.filter { destination == nil || $0.address == destination?.address }
        }
        let source = UDPEndpoint(address: sender.address, port: Self.port)
        for receiver in receivers {
            loop.execute {
                guard !receiver.isClosed.withLock({ $0 }), let decoded = try? DNSMessage(decoding: bytes) else {
                    return
                }
                receiver.handler(
                    MDNSDatagram(message: decoded, source: source, interfaceIndex: Self.interfaceIndex)
                )
            }
        }
    }

    /// Takes the members at `address` off the link without their knowing, as a device
    /// unplugged: what they send goes nowhere and nothing reaches them.
    package func disconnect(_ address: IPAddress) {
        let gone = members.withLock { members in
            defer { members.removeAll { $0.address == address } }
            return members.filter { $0.address == address }
        }
        for member in gone { member.isClosed.withLock { $0 = true } }
    }

    private func remove(_ member: Member) {
        members.withLock { $0.removeAll { $0 === member } }
    }
}
