import CastCore
public import CastNet
import CastNetCore
import CastSync
import CastTime
import Foundation

/// Advertises virtual devices over mDNS/DNS-SD (`_googlecast._tcp`) through one shared
/// `MDNSResponder`, so any number of devices use one pair of sockets per interface.
///
/// Each device gets its own service instance (``DeviceAdvertisement/instanceName``), an SRV
/// record pointing at its own host name and Cast port, an A record for its address, the
/// TXT keys of a Cast device, and a `_<APPID>._sub._googlecast._tcp` subtype for every app it
/// hosts. The responder probes each name first and renames the instance on a conflict
/// (`Name (2)`). When a device's status changes its TXT record is announced again; when it
/// stops, a goodbye is sent.
///
/// ```swift
/// let advertiser = try MDNSDeviceAdvertiser()          // loopback only
/// let fleet = DeviceFleet(advertiser: advertiser)
/// try await fleet.start(.generated(count: 3))
/// …
/// await fleet.stop()                                   // goodbyes
/// advertiser.shutdown()
/// ```
public final class MDNSDeviceAdvertiser: DeviceAdvertiser {
    /// The DNS-SD service type of Cast devices.
    public static let serviceType = "_googlecast._tcp"

    /// The names of the interfaces the advertisements go out on.
    public var interfaceNames: [String] { responder.interfaceNames }

    private let responder: MDNSResponder
    private let registrations = Locked<[String: MDNSResponder.Registration]>([:])

    /// Opens the mDNS sockets.
    /// - Parameters:
    ///   - interfaceNames: the interfaces to advertise on; `nil` means the loopback interface
    ///     only, which suits devices bound to `127.0.0.x` and keeps every packet on the machine.
    ///   - usesIPv6: whether to advertise over IPv6 too (on interfaces that have an IPv6 address).
    /// - Throws: `UDPSocketError` when an interface does not exist or no socket can be opened.
    public convenience init(interfaceNames: [String]? = nil, usesIPv6: Bool = false) throws(UDPSocketError) {
        let names: [String]
        if let interfaceNames { names = interfaceNames } else { names = try Self.loopbackInterfaceNames() }
        let responder = try MDNSResponder(interfaceNames: names, usesIPv4: true, usesIPv6: usesIPv6)
        self.init(responder: responder)
    }

    /// Advertises through an existing responder (which keeps serving its other services).
    public init(responder: MDNSResponder) {
        self.responder = responder
    }

    /// The instance name a device is advertised under now, which differs from its
    /// ``DeviceAdvertisement/instanceName`` after a name conflict; `nil` when not advertised.
    public func advertisedName(of advertisement: DeviceAdvertisement) -> String? {
        registrations.withLock { $0[advertisement.instanceName] }.flatMap { responder.name(of: $0) }
    }

    /// Registration and rename events of the responder, in order; meant for one consumer.
    public var events: AsyncStream<MDNSResponder.Event> { responder.events }

    public func deviceDidStart(_ advertisement: DeviceAdvertisement) {
        let service = Self.service(for: advertisement)
        let key = advertisement.instanceName
        registrations.withLock { registrations in
            if let existing = registrations[key] {
                responder.update(existing, to: service)
            } else {
                registrations[key] = responder.register(service)
            }
        }
    }

    public func deviceDidUpdate(_ advertisement: DeviceAdvertisement) {
        guard let registration = registrations.withLock({ $0[advertisement.instanceName] }) else { return }
        responder.update(registration, to: Self.service(for: advertisement))
    }

    public func deviceWillStop(_ advertisement: DeviceAdvertisement) {
        guard let registration = registrations.withLock({ $0.removeValue(forKey: advertisement.instanceName) }) else {
            return
        }
        responder.unregister(registration)
    }

    /// Sends goodbyes for every device still advertised (and for any other service of the
    /// responder) and closes the responder's sockets. The advertiser cannot be used afterwards.
    public func shutdown() {
        registrations.withLock { $0 = [:] }
        responder.shutdown()
    }

    /// The DNS-SD service that carries `advertisement`.
    ///
    /// The host name is the device ID in UUID form (`01234567-89ab-….local`), as real devices
    /// use; an unspecified address (`0.0.0.0`, `::`) or one that does not parse leaves the
    /// address list empty, so the responder advertises its interfaces' addresses instead.
    static func service(for advertisement: DeviceAdvertisement) -> MDNSService {
        var txt = TXTRecord()
        for (key, value) in advertisement.txt { txt[key] = value }
        let id = advertisement["id"] ?? ""
        let hostName = CastDevice.parseID(id).map { $0.uuidString.lowercased() } ?? advertisement.instanceName
        let address = IPAddress(advertisement.address).flatMap { $0.isUnspecified ? nil : $0 }
        var subtypes: [String] = []
        for id in advertisement.applicationIDs where !id.isEmpty && !subtypes.contains(id) { subtypes.append(id) }
        return MDNSService(
            instanceName: advertisement.instanceName,
            serviceType: serviceType,
            subtypes: subtypes,
            hostName: hostName,
            port: UInt16(clamping: advertisement.port),
            txt: txt,
            addresses: address.map { [$0] } ?? []
        )
    }

    private static func loopbackInterfaceNames() throws(UDPSocketError) -> [String] {
        let loopback = try NetworkInterface.all().filter { $0.isLoopback && $0.isUp && !$0.ipv4Addresses.isEmpty }
        guard !loopback.isEmpty else {
            throw UDPSocketError(.interfaces, errno: 0, detail: "no loopback interface with an IPv4 address")
        }
        return loopback.map(\.name)
    }
}

extension IPAddress {
    fileprivate var isUnspecified: Bool {
        switch self {
        case .v4(let address): address.bytes.allSatisfy { $0 == 0 }
        case .v6(let address): address.bytes.allSatisfy { $0 == 0 }
        }
    }
}
