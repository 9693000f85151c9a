import CastNet
import CastNetCore
import Foundation

/// The checks that keep web pages from driving a device's screen and control endpoints.
///
/// A page from any origin can make the browser send simple requests (a `GET`, a `POST` of
/// `text/plain`) to the device's plain HTTP port, and through DNS rebinding a name the
/// attacker controls can point at the device, making those requests same-origin. Two checks
/// close both ways:
///
/// - **Host.** `/`, `/screen/…` and `/control/…` answer only a request whose `Host` names the
///   device: its own address (any IP literal when it listens on every address), or
///   `localhost` when it listens on loopback's 127.0.0.1 or ::1. A rebound name is answered
///   421 Misdirected Request.
/// - **A header a page cannot send.** `/control/…` also needs ``controlHeader``: a field
///   that is not CORS-safelisted, so a cross-origin page gets it sent only after a preflight,
///   which the device never grants (it answers no `OPTIONS` with CORS headers). Without it:
///   403.
enum SetupRequestGuard {
    /// The header every `/control/…` request must carry (any non-empty value):
    /// `curl -H 'X-Cast-Control: 1' …`.
    static let controlHeader = "X-Cast-Control"

    /// The answer to a request the checks refuse, or `nil` when it may go on.
    /// - Parameters:
    ///   - request: the request.
    ///   - address: the address the device listens on.
    ///   - isControl: whether the request is for a `/control/…` endpoint.
    static func refusal(of request: HTTPRequest, deviceAddress address: String, isControl: Bool) -> HTTPResponse? {
        guard let host = request.headers["Host"], hostNamesDevice(host, address: address) else {
            return HTTPResponse(
                status: HTTPStatus(code: 421),
                headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: .text("the Host header does not name this device (\(address))\n")
            )
        }
        if isControl, (request.headers[controlHeader] ?? "").isEmpty {
            return HTTPResponse(
                status: HTTPStatus(code: 403),
                headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: .text("control requests need the \(controlHeader) header (curl -H '\(controlHeader): 1' …)\n")
            )
        }
        return nil
    }

    /// Whether the `Host` field value `host` (`name[:port]`, `[v6]:port`) names the device
    /// listening on `address`.
    static func hostNamesDevice(_ host: String, address: String) -> Bool {
        let name = hostName(host).lowercased()
        guard !name.isEmpty else { return false }
        let wildcard = address == "0.0.0.0" || address == "::"
        if name == address.lowercased() { return true }
        if name == "localhost" { return address == "127.0.0.1" || address == "::1" || wildcard }
        // A device on every address answers to any of them, but never to a name: a name is
        // what a rebinding attack controls.
        return wildcard && (try? SocketAddress(ipAddress: name, port: 0)) != nil
    }

    /// The host part of a `Host` field value, without port or IPv6 brackets.
    static func hostName(_ host: String) -> String {
        let trimmed = host.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return "" }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        }
        if let colon = trimmed.firstIndex(of: ":") {
            // One colon is a port; more is a bare IPv6 address, which a Host field may not be.
            guard trimmed[trimmed.index(after: colon)...].allSatisfy(\.isNumber) else { return "" }
            return String(trimmed[..<colon])
        }
        return trimmed
    }
}
