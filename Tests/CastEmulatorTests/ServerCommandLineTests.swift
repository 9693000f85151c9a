import CastCore
import CastNet
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EmulatorProcessSuites {
    /// The built `cast-emulator` executable, run as a child process.
    @Suite(.serialized) struct ServerCommandLineTests {
        /// The executable beside the test bundle, else in `.build/debug`.
        static var executable: String {
            RepositoryPaths.builtExecutable("cast-emulator")
                ?? RepositoryPaths.root.appendingPathComponent(".build/debug/cast-emulator").path
        }

        /// Starts the emulator on `count` consecutive addresses from a random `127.0.0.x`,
        /// retrying elsewhere while an address is taken; returns it once it printed `ready`.
        static func launch(
            count: Int,
            extra: [String] = [],
            firstAddress: String? = nil
        ) async throws -> (ChildProcess, [String]) {
            try #require(
                FileManager.default.isExecutableFile(atPath: executable),
                "build cast-emulator first (swift build)"
            )
            for _ in 0..<6 {
                let first = Int.random(in: 50...(250 - count))
                let addresses = (0..<count).map { "127.0.0.\(first + $0)" }
                // The chain is kept in a directory of the tests', not in the user's home.
                let state =
                    extra.contains("--state-dir")
                    ? []
                    : [
                        "--state-dir",
                        FileManager.default.temporaryDirectory.appendingPathComponent("cast-emulator-test-state").path,
                    ]
                let child = try ChildProcess(
                    executable,
                    ["--devices", "\(count)", "--address", firstAddress ?? addresses[0], "--media", "simulate"]
                        + state + extra
                )
                if await child.waitForErrorLine("ready", timeout: .seconds(60)) {
                    return (child, addresses)
                }
                child.kill()
                if !child.standardError.contains("in use") {
                    Issue.record("cast-emulator did not start:\n\(child.standardError)")
                    break
                }
            }
            throw DeadlineExceeded()
        }

        @Test func helpDescribesOptionsAndConfigFormat() async throws {
            let result = try await ChildProcess.run(Self.executable, ["--help"], deadline: .seconds(30))
            #expect(result.status == 0)
            for text in [
                "--devices", "--name", "--address", "--config", "--log", "--control", "--status-interval",
                "--media MODE", "CONFIG FILE", "SIGTERM",
            ] {
                #expect(result.standardOutput.contains(text), "help lacks \(text)")
            }
        }

        @Test(arguments: [
            (["--bogus"], "unknown option"),
            (["--devices", "0"], "--devices"),
            (["--devices"], "needs a value"),
            (["--cast-port", "70000"], "--cast-port"),
            (["--status-interval", "0"], "--status-interval"),
            (["--status-interval", "soon"], "--status-interval"),
            (["--media", "stream"], "--media"),
            (["--media"], "needs a value"),
            (["--address", "not-an-ip"], "--address"),
            (["--config", "/nonexistent/fleet.json"], "cannot read"),
            (["--group"], "needs a value"),
            (["--group", "Downstairs"], "--group"),
            (["--group", "Downstairs=Nobody"], "is no device of the fleet"),
            (["--group", "Downstairs=Virtual Cast"], "cannot join speaker groups"),
        ])
        func rejectsBadArgumentsWithUsageStatus(arguments: [String], mention: String) async throws {
            let result = try await ChildProcess.run(Self.executable, arguments, deadline: .seconds(30))
            #expect(result.status == 2)
            #expect(result.standardError.contains(mention), "stderr: \(result.standardError)")
        }

        @Test(.requires(.curl)) func groupOptionStartsAGroupOnTheLeadersAddress() async throws {
            let (child, addresses) = try await Self.launch(
                count: 2,
                extra: ["--model", "Google Nest Mini", "--group", "Downstairs=Virtual Cast,Virtual Cast 2"]
            )
            defer { child.kill() }
            let line = try #require(
                child.standardError.split(separator: "\n").first { $0.hasPrefix("group \"Downstairs\"") },
                "\(child.standardError)"
            )
            #expect(line.contains("address=\(addresses[0]) cast=32101"), "\(line)")
            #expect(line.hasSuffix("members=Virtual Cast,Virtual Cast 2"), "\(line)")
            let curl = try #require(RepositoryPaths.executableOnPath("curl"), "curl is not installed")
            let http = try await ChildProcess.run(
                curl,
                ["-sS", "--max-time", "10", "http://\(addresses[1]):8008/setup/eureka_info?params=multizone"],
                deadline: .seconds(20)
            )
            let info = try JSONValue(parsing: http.standardOutput)
            #expect(info["multizone"]?["groups"]?[0]?["name"] == "Downstairs")
            #expect(info["multizone"]?["groups"]?[0]?["elected_leader"]?.stringValue == "\(addresses[0]):32101")
        }

        /// The device-authentication chain is kept in the state directory: the root a sender
        /// was told to trust is the one a restarted emulator signs with, and the start names it.
        @Test func theAuthChainOutlivesARestart() async throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-state-\(UUID())")
            defer { try? FileManager.default.removeItem(at: state) }
            let rootFile = state.appendingPathComponent("auth-chain/root.pem").path
            let out = state.appendingPathComponent("out.pem").path
            var roots: [String] = []
            for run in 0..<2 {
                let (child, _) = try await Self.launch(
                    count: 1,
                    extra: ["--state-dir", state.path, "--auth-root-out", out]
                )
                child.kill()
                let text = child.standardError
                #expect(
                    text.contains("auth: devices sign with the root in \(rootFile) (cast --trust-root \(rootFile))"),
                    "\(text)"
                )
                #expect(text.contains("made a new device-authentication chain") == (run == 0), "\(text)")
                let kept = try String(contentsOfFile: rootFile, encoding: .utf8)
                #expect(try String(contentsOfFile: out, encoding: .utf8) == kept)
                roots.append(kept)
            }
            #expect(roots[0] == roots[1])
            let key = try FileManager.default.attributesOfItem(
                atPath: state.appendingPathComponent("auth-chain/device-key.pem").path
            )
            #expect((key[.posixPermissions] as? Int) == 0o600)

            // An unreadable chain is replaced, and the start says why.
            try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: rootFile))
            let (child, _) = try await Self.launch(count: 1, extra: ["--state-dir", state.path])
            child.kill()
            #expect(child.standardError.contains("the kept one is unreadable"), "\(child.standardError)")
            #expect(try String(contentsOfFile: rootFile, encoding: .utf8) != roots[0])
        }

        @Test(.requires(.curl, .openssl)) func threeDevicesAnswerOpenSSLAndCurl() async throws {
            let (child, addresses) = try await Self.launch(count: 3, extra: ["--name", "Shelf"])
            defer { child.kill() }
            let curl = try #require(RepositoryPaths.executableOnPath("curl"), "curl is not installed")
            let openssl = try #require(RepositoryPaths.executableOnPath("openssl"), "openssl is not installed")
            for (index, address) in addresses.enumerated() {
                let name = index == 0 ? "Shelf" : "Shelf \(index + 1)"
                #expect(child.standardError.contains("device \"\(name)\""), "\(child.standardError)")
                let http = try await ChildProcess.run(
                    curl,
                    ["-sS", "--max-time", "10", "http://\(address):8008/setup/eureka_info?params=device_info,name"],
                    deadline: .seconds(20)
                )
                #expect(http.status == 0, "\(http.standardError)")
                let info = try JSONValue(parsing: http.standardOutput)
                #expect(info["name"]?.stringValue == name)
                #expect(info["device_info"]?["model_name"]?.stringValue == "Chromecast")
                #expect(info["device_info"]?["capabilities"]?["multizone_supported"]?.boolValue == false)
                let tls = try await ChildProcess.run(
                    openssl,
                    ["s_client", "-connect", "\(address):8009", "-brief"],
                    deadline: .seconds(20)
                )
                let transcript = tls.standardOutput + tls.standardError
                #expect(transcript.contains("CONNECTION ESTABLISHED"), "\(transcript)")
                #expect(transcript.contains("TLSv1.3"), "\(transcript)")
            }
            let https = try await ChildProcess.run(
                curl,
                ["-sSk", "--max-time", "10", "https://\(addresses[2]):8443/setup/eureka_info"],
                deadline: .seconds(20)
            )
            #expect((try? JSONValue(parsing: https.standardOutput))?["name"]?.stringValue == "Shelf 3")
            let icon = try await ChildProcess.run(
                curl,
                [
                    "-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code} %{content_type}",
                    "http://\(addresses[1]):8008/setup/icon.png",
                ],
                deadline: .seconds(20)
            )
            #expect(icon.standardOutput == "200 image/png")
        }

        @Test(.requires(.curl)) func controlEndpointLogAndCleanShutdown() async throws {
            let logFile = FileManager.default.temporaryDirectory.appendingPathComponent(
                "emu-\(UUID().uuidString).jsonl"
            )
            defer { try? FileManager.default.removeItem(at: logFile) }
            let (child, addresses) = try await Self.launch(count: 1, extra: ["--control", "--log=\(logFile.path)"])
            defer { child.kill() }
            let curl = try #require(RepositoryPaths.executableOnPath("curl"), "curl is not installed")
            let control = try await ChildProcess.run(
                curl,
                [
                    "-sS", "--max-time", "10", "-H", "X-Cast-Control: 1", "-X", "POST", "-d",
                    #"{"replyDelayMs": 5, "refuseLaunch": true}"#,
                    "http://\(addresses[0]):8008/control/faults",
                ],
                deadline: .seconds(20)
            )
            let faults = try JSONValue(parsing: control.standardOutput)
            #expect(faults["replyDelayMs"] == 5 && faults["refuseLaunch"] == "NOT_ALLOWED")
            let rejected = try await ChildProcess.run(
                curl,
                [
                    "-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Cast-Control: 1",
                    "-X", "POST", "-d", "{bad",
                    "http://\(addresses[0]):8008/control/faults",
                ],
                deadline: .seconds(20)
            )
            #expect(rejected.standardOutput == "400")

            let sender = try await TestSender(port: 8009, address: addresses[0])
            try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
            try await sender.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":7}"#)
            var reply = try #require(try await sender.receive())
            while reply.namespace != .receiver { reply = try #require(try await sender.receive()) }
            let launch = try JSONValue(parsing: reply.payloadUTF8 ?? "")
            #expect(launch["type"] == "LAUNCH_ERROR" && launch["requestId"] == 7 && launch["reason"] == "NOT_ALLOWED")
            sender.close()

            _ = Glibc.kill(child.process.processIdentifier, SIGTERM)
            let status = await child.wait(deadline: .seconds(30))
            #expect(status == 0)
            #expect(child.standardError.contains("stopping 1 device"))
            let lines = try String(contentsOf: logFile, encoding: .utf8).split(separator: "\n")
            let records = lines.compactMap { try? JSONValue(parsing: String($0)) }
            #expect(records.count == lines.count, "every log line is JSON")
            #expect(
                records.contains { $0["direction"] == "in" && ($0["payload"]?.stringValue ?? "").contains("LAUNCH") }
            )
            #expect(
                records.contains {
                    $0["direction"] == "out" && ($0["payload"]?.stringValue ?? "").contains("LAUNCH_ERROR")
                }
            )
            for key in ["time", "device", "connection", "direction", "namespace", "source", "destination", "payload"] {
                #expect(records.allSatisfy { $0[key] != nil }, "a record lacks \(key)")
            }
        }

        @Test(.requires(.curl)) func configFileNamesDevicesAndAddresses() async throws {
            // The file names the real ports (8008, 8009) on random loopback addresses, which
            // another suite's device may hold at that moment: a clash is retried elsewhere.
            var started: (child: ChildProcess, first: Int)?
            for _ in 0..<6 where started == nil {
                let first = Int.random(in: 50...240)
                let config = """
                    {"apps": [{"appId": "4F8B3483", "displayName": "Hello", "namespaces": ["urn:x-cast:com.example.hello"]}],
                     "devices": [{"name": "Kitchen Speaker", "address": "127.0.0.\(first)", "capabilities": ["audio_out"],
                                  "model": "Google Home"},
                                 {"name": "Hall TV"}]}
                    """
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "fleet-\(UUID().uuidString).json"
                )
                try Data(config.utf8).write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                let child = try ChildProcess(Self.executable, ["--config", file.path, "--media", "simulate"])
                if await child.waitForErrorLine("ready", timeout: .seconds(60)) {
                    started = (child, first)
                    break
                }
                child.kill()
                try #require(
                    child.standardError.contains("in use"),
                    "cast-emulator did not start:\n\(child.standardError)"
                )
            }
            let (child, first) = try #require(started, "every address tried was in use")
            defer { child.kill() }
            let curl = try #require(RepositoryPaths.executableOnPath("curl"))
            let speaker = try await ChildProcess.run(
                curl,
                ["-sS", "--max-time", "10", "http://127.0.0.\(first):8008/setup/eureka_info"],
                deadline: .seconds(20)
            )
            let info = try JSONValue(parsing: speaker.standardOutput)
            #expect(info["name"] == "Kitchen Speaker")
            #expect(info["device_info"]?["capabilities"]?["display_supported"] == false)
            #expect(info["device_info"]?["model_name"] == "Google Home")
            let hall = try await ChildProcess.run(
                curl,
                ["-sS", "--max-time", "10", "http://127.0.0.\(first + 1):8008/setup/eureka_info"],
                deadline: .seconds(20)
            )
            #expect((try? JSONValue(parsing: hall.standardOutput))?["name"] == "Hall TV")
        }
    }
}
