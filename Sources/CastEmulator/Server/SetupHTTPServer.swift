import CastCore
import CastNet
import CastNetCore

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
/// On the plain HTTP port of a device that serves its screen (``DeviceServerOptions/servesScreen``):
///
/// | request | answer |
/// |---|---|
/// | `GET /` | the TV screen, a self-contained HTML page (``ScreenPage``) |
/// | `GET /screen/events` | the screen's changes as server-sent events (`event: state`); past the client limit a new one takes the place of the one furthest behind |
/// | `GET /screen/state` | the screen's state now, as JSON |
///
/// The control endpoint exists only on the plain HTTP port of a device bound to a loopback
/// address whose options enable it; elsewhere `/control/…` is 404. The screen and control
/// endpoints answer only requests whose `Host` names the device, and control requests must
/// carry `X-Cast-Control` (``SetupRequestGuard``): a web page can drive neither.
enum SetupHTTPServer {
    /// The routes for one port of `device`.
    static func routes(for device: VirtualDevice, secure: Bool) -> HTTPRoutes {
        let icon = DeviceIcon.standardPNG
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
        if !secure, options.servesScreen { addScreen(to: &routes, device: device) }
        guard !secure, options.controlEndpointEnabled, options.address.hasPrefix("127.") else { return routes }
        let address = options.address
        routes.add(.get, "/control/faults") { [weak device] request in
            if let refusal = SetupRequestGuard.refusal(of: request, deviceAddress: address, isControl: true) {
                return refusal
            }
            guard let device else { return .status(HTTPStatus(code: 503)) }
            return json(FaultControlRequest.json(faults: device.faults, replyDelay: device.replyDelay))
        }
        routes.add(.post, "/control/faults") { [weak device] request in
            if let refusal = SetupRequestGuard.refusal(of: request, deviceAddress: address, isControl: true) {
                return refusal
            }
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
            if let refusal = SetupRequestGuard.refusal(of: request, deviceAddress: address, isControl: true) {
                return refusal
            }
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

    /// The screen page's bytes, the same for every device, so made once per process.
    private static let screenPage = Array(ScreenPage.html.utf8)

    private static func addScreen(to routes: inout HTTPRoutes, device: VirtualDevice) {
        let page = screenPage
        let address = device.options.address
        routes.add(.get, "/") { request in
            if let refusal = SetupRequestGuard.refusal(of: request, deviceAddress: address, isControl: false) {
                return refusal
            }
            return HTTPResponse(
                status: .ok,
                headers: [
                    "Content-Type": "text/html; charset=utf-8",
                    "Content-Security-Policy": ScreenPage.contentSecurityPolicy,
                    "Cache-Control": "no-store",
                    "X-Content-Type-Options": "nosniff",
                ],
                body: .bytes(page)
            )
        }
        routes.add(.get, "/screen/state") { [weak device] request in
            if let refusal = SetupRequestGuard.refusal(of: request, deviceAddress: address, isControl: false) {
                return refusal
            }
            guard let state = device?.screenState() else { return .status(HTTPStatus(code: 503)) }
            var response = json(state.json)
            response.headers.add(name: "Cache-Control", value: "no-store")
            return response
        }
        routes.add(.get, "/screen/events") { [weak device] request in
            if let refusal = SetupRequestGuard.refusal(of: request, deviceAddress: address, isControl: false) {
                return refusal
            }
            guard let stream = device?.openScreenStream() else {
                return HTTPResponse(
                    status: HTTPStatus(code: 503),
                    headers: ["Content-Type": "text/plain; charset=utf-8", "Retry-After": "5"],
                    body: .text("the device is stopping\n")
                )
            }
            return HTTPResponse(
                status: .ok,
                headers: [
                    "Content-Type": "text/event-stream; charset=utf-8",
                    "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",
                ],
                body: .stream(stream)
            )
        }
    }

    private static func json(_ value: JSONValue) -> HTTPResponse {
        .ok(
            .bytes((try? JSONPayloadEncoder().encodeToBytes(value)) ?? Array("{}".utf8)),
            contentType: "application/json"
        )
    }
}
