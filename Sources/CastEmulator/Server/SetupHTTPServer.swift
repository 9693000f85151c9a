import CastCore
import CastNet

/// The routes of a virtual device's setup HTTP servers, 8008 (plain) and 8443 (TLS), served
/// by `CastNet`'s ``HTTPServer``:
///
/// | request | answer |
/// |---|---|
/// | `GET /setup/eureka_info` (any `params`) | the device document (``EurekaInfo``) |
/// | `GET /setup/icon.png` | a PNG icon drawn in code |
/// | `GET /control/faults` | the lasting faults, as JSON (control endpoint only) |
/// | `POST /control/faults` | applies a ``FaultControlRequest`` (control endpoint only) |
/// | `POST /control/group` | `{"group": NAME, "member": true\|false}`: joins or leaves a speaker group of the fleet (control endpoint only) |
///
/// The control endpoint exists only on the plain HTTP port of a device bound to a loopback
/// address whose options enable it; elsewhere `/control/…` is 404.
enum SetupHTTPServer {
    /// The routes for one port of `device`.
    static func routes(for device: VirtualDevice, secure: Bool) -> HTTPRoutes {
        let icon = DeviceIcon.png()
        var routes = HTTPRoutes()
        routes.add(.get, "/setup/eureka_info") { [weak device] _ in
            guard let device else { return .status(HTTPStatus(code: 503)) }
            let info = EurekaInfo(
                identity: device.configuration.identity,
                options: device.options,
                uptime: device.uptime,
                profile: device.configuration.profile,
                groups: device.engineSnapshot?.castingGroups ?? []
            )
            return .ok(.bytes(info.bytes), contentType: "application/json")
        }
        routes.add(.get, "/setup/icon.png") { _ in
            .ok(.bytes(icon), contentType: "image/png")
        }
        let options = device.options
        guard !secure, options.controlEndpointEnabled, options.address.hasPrefix("127.") else { return routes }
        routes.add(.get, "/control/faults") { [weak device] _ in
            guard let device else { return .status(HTTPStatus(code: 503)) }
            return json(FaultControlRequest.json(faults: device.faults, replyDelay: device.replyDelay))
        }
        routes.add(.post, "/control/faults") { [weak device] request in
            guard let device else { return .status(HTTPStatus(code: 503)) }
            do {
                device.apply(try FaultControlRequest(json: request.body))
            } catch {
                return HTTPResponse(
                    status: .badRequest,
                    headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: .text("\(error)\n")
                )
            }
            return json(FaultControlRequest.json(faults: device.faults, replyDelay: device.replyDelay))
        }
        routes.add(.post, "/control/group") { [weak device] request in
            guard let device else { return .status(HTTPStatus(code: 503)) }
            guard let body = try? JSONValue(parsing: request.body), let object = body.objectValue,
                Set(object.keys).isSubset(of: ["group", "member"]), let group = object["group"]?.stringValue,
                let member = object["member"]?.boolValue
            else {
                return HTTPResponse(
                    status: .badRequest,
                    headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: .text("expected {\"group\": NAME, \"member\": true|false}\n")
                )
            }
            guard device.controlGroupMembership(group, joins: member) else { return .status(HTTPStatus(code: 404)) }
            let groups = device.engineSnapshot?.castingGroups.map { JSONValue.string($0.name) } ?? []
            return json(["groups": .array(groups)])
        }
        return routes
    }

    private static func json(_ value: JSONValue) -> HTTPResponse {
        .ok(
            .bytes((try? JSONPayloadEncoder().encodeToBytes(value)) ?? Array("{}".utf8)),
            contentType: "application/json"
        )
    }
}
