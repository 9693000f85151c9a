package import CastCore

/// An address and port a datagram comes from or goes to.
package struct UDPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The IP address.
    package var address: IPAddress
    /// The UDP port.
    package var port: UInt16
    /// The interface index of an IPv6 link-local address, or 0.
    package var scopeID: UInt32

    package init(address: IPAddress, port: UInt16, scopeID: UInt32 = 0) {
        self.address = address
        self.port = port
        self.scopeID = scopeID
    }

    package var description: String {
        switch address {
        case .v4(let v4): "\(v4):\(port)"
        case .v6(let v6): "[\(v6)\(scopeID == 0 ? "" : "%\(scopeID)")]:\(port)"
        }
    }
}
