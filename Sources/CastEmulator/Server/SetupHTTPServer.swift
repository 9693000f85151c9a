import CastCore
import CastNet

/// The setup HTTP endpoints of a virtual device, served on 8008 (plain) and 8443 (TLS):
///
/// | request | answer |
/// |---|---|
/// | `GET /setup/eureka_info` (any `params`) | the device document (``EurekaInfo``) |
/// | `GET /setup/icon.png` | a PNG icon |
/// | `GET /control/faults` | the lasting faults, as JSON (control endpoint only) |
/// | `POST /control/faults` | applies a ``FaultControlRequest`` (control endpoint only) |
///
/// The control endpoint answers only on the plain HTTP port of a device bound to a loopback
/// address whose configuration enables it; elsewhere `/control/…` is 404.
/// One request per connection; a client that sends nothing for 10 s is disconnected.
struct SetupHTTPServer: Sendable {
    private weak let device: VirtualDevice?
    private let clock: any CastClock
    private let icon: [UInt8]

    init(device: VirtualDevice, clock: any CastClock) {
        self.device = device
        self.clock = clock
        self.icon = DeviceIcon.png()
    }

    /// Serves one connection in a task of its own.
    func serve(_ connection: TCPConnection, secure: Bool) {
        let timer = clock.schedule(after: .seconds(10)) { connection.close() }
        Task {
            defer { timer.cancel() }
            var parser = HTTPRequestParser()
            let response: HTTPResponse
            var isHead = false
            do {
                while true {
                    if let request = try parser.nextRequest() {
                        isHead = request.method == "HEAD"
                        response = respond(to: request, secure: secure)
                        break
                    }
                    guard let bytes = try await connection.receive() else {
                        connection.close()
                        return
                    }
                    parser.append(bytes)
                }
            } catch let error as SetupHTTPError {
                let status = error.code == .bodyTooLarge ? 413 : error.code == .headTooLarge ? 431 : 400
                let reason = status == 413 ? "Payload Too Large" : status == 431 ? "Header Too Large" : "Bad Request"
                try? await connection.send(HTTPResponse.error(status, reason, detail: error.description).serialized())
                connection.close()
                return
            } catch {
                connection.close()
                return
            }
            try? await connection.send(response.serialized(includeBody: !isHead))
            connection.close()
        }
    }

    /// The response to `request`.
    func respond(to request: HTTPRequest, secure: Bool) -> HTTPResponse {
        guard let device else { return .error(503, "Service Unavailable") }
        let path = request.path
        if path.hasPrefix("/control/") {
            guard !secure, device.options.controlEndpointEnabled, device.options.address.hasPrefix("127.")
            else { return .error(404, "Not Found") }
            return control(request, device: device)
        }
        switch path {
        case "/setup/eureka_info":
            guard request.method == "GET" || request.method == "HEAD" else {
                return .error(405, "Method Not Allowed")
            }
            return .json(
                EurekaInfo(identity: device.configuration.identity, options: device.options, uptime: device.uptime)
                    .bytes
            )
        case "/setup/icon.png":
            guard request.method == "GET" || request.method == "HEAD" else {
                return .error(405, "Method Not Allowed")
            }
            return HTTPResponse(status: 200, reason: "OK", contentType: "image/png", body: icon)
        default:
            return .error(404, "Not Found")
        }
    }

    private func control(_ request: HTTPRequest, device: VirtualDevice) -> HTTPResponse {
        guard request.path == "/control/faults" else { return .error(404, "Not Found") }
        switch request.method {
        case "GET":
            return .json(Self.encode(FaultControlRequest.json(faults: device.faults, replyDelay: device.replyDelay)))
        case "POST":
            do {
                let control = try FaultControlRequest(json: request.body)
                device.apply(control)
                return .json(
                    Self.encode(FaultControlRequest.json(faults: device.faults, replyDelay: device.replyDelay))
                )
            } catch {
                return .error(400, "Bad Request", detail: error.description)
            }
        default:
            return .error(405, "Method Not Allowed")
        }
    }

    private static func encode(_ value: JSONValue) -> [UInt8] {
        (try? JSONPayloadEncoder().encodeToBytes(value)) ?? Array("{}".utf8)
    }
}
