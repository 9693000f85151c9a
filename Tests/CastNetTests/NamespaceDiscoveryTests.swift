import CastTestSupport
import Foundation
import Glibc
import Testing

/// Two network namespaces joined by a veth pair, made and removed by the test. Needs root;
/// a failure to create them fails the test.
final class NamespacePair: Sendable {
    let namespaces: (String, String)
    let links: (String, String)

    init() async throws {
        let tag = "\(getpid() % 100_000)-\(Int.random(in: 100...999))"
        namespaces = ("castA-\(tag)", "castB-\(tag)")
        links = ("cA\(tag)", "cB\(tag)")
        let (a, b) = namespaces
        let (linkA, linkB) = links
        var commands: [[String]] = [["netns", "add", a], ["netns", "add", b]]
        for ns in [a, b] {
            commands += [
                ["netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.default.accept_dad=0"],
                ["netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.accept_dad=0"],
            ]
        }
        commands += [
            ["-n", a, "link", "add", linkA, "type", "veth", "peer", "name", linkB, "netns", b],
            ["-n", a, "addr", "add", "169.254.77.1/24", "dev", linkA],
            ["-n", b, "addr", "add", "169.254.77.2/24", "dev", linkB],
        ]
        for (ns, link) in [(a, linkA), (b, linkB)] {
            commands += [
                ["-n", ns, "link", "set", "lo", "up"], ["-n", ns, "link", "set", link, "up"],
                ["-n", ns, "route", "add", "224.0.0.0/4", "dev", link],
            ]
        }
        do {
            for command in commands {
                let process = try TestProcess("/usr/sbin/ip", command)
                let status = await process.waitForExit(timeout: TestTiming.scaled(.seconds(60)))
                guard status == 0 else {
                    throw TestSetupError(
                        "ip \(command.joined(separator: " ")) failed (\(String(describing: status))): \(process.standardError)"
                    )
                }
            }
        } catch {
            destroy()
            throw error
        }
    }

    /// Deletes both namespaces (the veth pair goes with them).
    func destroy() {
        for ns in [namespaces.0, namespaces.1] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            process.arguments = ["netns", "del", ns]
            process.standardError = FileHandle.nullDevice
            // Called from synchronous teardown: block on the exit itself, not on a poll.
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            guard (try? process.run()) != nil else { continue }
            if exited.wait(timeout: .now() + TestTiming.scaled(5.0)) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
            }
        }
    }

    /// Runs `mdns-tool` inside a namespace.
    func tool(in namespace: String, _ arguments: [String]) throws -> TestProcess {
        try TestProcess(
            "/usr/sbin/ip",
            ["netns", "exec", namespace, try TestEnvironment.productExecutable("mdns-tool")] + arguments
        )
    }
}

@Suite(.serialized, .requires(.networkNamespaces, .iproute2)) struct NamespaceDiscoveryTests {
    @Test(arguments: ["--ipv4-only", "--ipv6-only"])
    func querierFindsResponderAcrossVethPair(family: String) async throws {
        let pair = try await NamespacePair()
        defer { pair.destroy() }
        let id = "0123456789abcdef0123456789abcdef"
        let responder = try pair.tool(
            in: pair.namespaces.0,
            [
                "advertise", "--interface", pair.links.0, family, "--id", id, "--name", "Namespace Room",
                "--model", "Chromecast Ultra", "--app-id", "CC1AD845", "--seconds", "40",
            ]
        )
        defer { responder.kill() }
        let browser = try pair.tool(
            in: pair.namespaces.1,
            ["browse", "--interface", pair.links.1, family, "--app-id", "CC1AD845", "--seconds", "40"]
        )
        defer { browser.kill() }
        let insertedLine = await browser.waitForLine(timeout: TestTiming.scaled(.seconds(15))) {
            $0.contains("\"inserted\"")
        }
        let line = try #require(
            insertedLine,
            "browser: \(browser.lines) \(browser.standardError) responder: \(responder.lines) \(responder.standardError)"
        )
        let inserted = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(inserted["id"] as? String == id)
        #expect(inserted["fn"] as? String == "Namespace Room")
        #expect(inserted["md"] as? String == "Chromecast Ultra")
        #expect(inserted["port"] as? Int == 8009)
        let addresses = inserted["addresses"] as? [String] ?? []
        if family == "--ipv4-only" {
            #expect(addresses == ["169.254.77.1"])
        } else {
            #expect(addresses.count == 1 && addresses.allSatisfy { $0.hasPrefix("fe80:") })
        }
        responder.send("quit")
        let removed = await browser.waitForLine(timeout: TestTiming.patience) { $0.contains("\"removed\"") }
        #expect(removed != nil, "no removal after goodbye: \(browser.lines)")
        #expect(await responder.waitForExit(timeout: TestTiming.patience) == 0)
    }
}
