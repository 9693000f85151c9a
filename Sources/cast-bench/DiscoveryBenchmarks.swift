import CastCore
import CastEmulator
import CastNet
import Foundation

/// Discovery over real mDNS sockets: N virtual devices advertised through one
/// ``MDNSDeviceAdvertiser``, found by an ``MDNSBrowser``. Multicast never leaves a private
/// network namespace: the group re-executes `cast-bench` under `unshare -n` with only a
/// loopback interface, runs there, and reads the rows back.
let discoveryBenchmarks = BenchmarkGroup(
    name: "discovery",
    summary: "time until a browser finds all N advertised devices (private network namespace)"
) {
    if ProcessInfo.processInfo.environment[DiscoveryBenchmark.insideMarker] == "1" {
        // Inside the namespace: print the rows (or the failure) for the parent and return none.
        let rows: [BenchmarkRow]
        do {
            rows = try await DiscoveryBenchmark.measure()
        } catch {
            rows = [BenchmarkRow(name: "discovery", value: "failed", note: "\(error)")]
        }
        for row in rows {
            print(["row", row.name, row.value, row.median, row.p99, row.note].joined(separator: "\t"))
        }
        return []
    }
    return try await DiscoveryBenchmark.runInPrivateNamespace()
}

enum DiscoveryBenchmark {
    static let insideMarker = "CAST_BENCH_PRIVATE_NETNS"
    static let deviceCounts = [50, 200, 1000]
    static let runs = 5

    /// Runs this executable's `discovery` group under `unshare -n` with `lo` up.
    static func runInPrivateNamespace() async throws -> [BenchmarkRow] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = [
            "-n", "--", "/bin/sh", "-c", #"ip link set lo up && exec "$0" discovery"#,
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[insideMarker] = "1"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let reader = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }
        let errorReader = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }
        let text = String(decoding: await reader.value, as: UTF8.self)
        let errorText = String(decoding: await errorReader.value, as: UTF8.self)
        process.waitUntilExit()
        let rows = text.split(separator: "\n").compactMap { line -> BenchmarkRow? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6, fields[0] == "row" else { return nil }
            return BenchmarkRow(name: fields[1], value: fields[2], median: fields[3], p99: fields[4], note: fields[5])
        }
        guard process.terminationStatus == 0, !rows.isEmpty else {
            throw BenchmarkFailure(
                "unshare -n exited \(process.terminationStatus): \(errorText.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        return rows
    }

    /// Measures every device count, `runs` times each; call only inside a private namespace.
    static func measure() async throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for count in deviceCounts {
            var cold: [Double] = []
            var warm: [Double] = []
            for _ in 0..<runs {
                let (together, late) = try await run(count: count)
                cold.append(together)
                warm.append(late)
            }
            cold.sort()
            warm.sort()
            rows.append(
                BenchmarkRow(
                    name: "discover \(count) devices, all starting",
                    value: "\(runs) runs",
                    median: Format.time(seconds: Measure.percentile(cold, 0.5)),
                    p99: Format.time(seconds: Measure.percentile(cold, 0.99)),
                    note: "advertiser and browser start together; includes 3 probes (≥ 750 ms)"
                )
            )
            rows.append(
                BenchmarkRow(
                    name: "discover \(count) devices, browser joins",
                    value: "\(runs) runs",
                    median: Format.time(seconds: Measure.percentile(warm, 0.5)),
                    p99: Format.time(seconds: Measure.percentile(warm, 0.99)),
                    note: "devices announced and quiet; a new browser finds them all"
                )
            )
        }
        return rows
    }

    /// One run: the time until a browser started with the devices finds all of them, then the
    /// time a second browser, started once they are announced and quiet, takes to find them all.
    static func run(count: Int) async throws -> (together: Double, late: Double) {
        let clock = ContinuousClock()
        let advertiser = try MDNSDeviceAdvertiser(interfaceNames: ["lo"])
        defer { advertiser.shutdown() }
        let advertisements = (0..<count).map { advertisement(index: $0) }
        let start = clock.now
        let first = try MDNSBrowser(configuration: .init(interfaceNames: ["lo"], usesIPv6: false))
        try first.start()
        for advertisement in advertisements { advertiser.deviceDidStart(advertisement) }
        try await waitForAll(count, in: first)
        let together = (clock.now - start).seconds
        first.stop()
        // Past the second announcement and the one-second limit on multicasting a record
        // again, so the new browser's query is answered at once.
        try await Task.sleep(for: .milliseconds(2500))

        let second = try MDNSBrowser(configuration: .init(interfaceNames: ["lo"], usesIPv6: false))
        let lateStart = clock.now
        try second.start()
        try await waitForAll(count, in: second)
        let late = (clock.now - lateStart).seconds
        second.stop()
        for advertisement in advertisements { advertiser.deviceWillStop(advertisement) }
        return (together, late)
    }

    /// Waits until `browser` knows `count` devices, for at most a minute.
    static func waitForAll(_ count: Int, in browser: MDNSBrowser) async throws {
        let events = browser.events
        let found = await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                var found = Set<UUID>()
                for await event in events {
                    if event.kind == .removed { found.remove(event.device.id) } else { found.insert(event.device.id) }
                    if found.count >= count { return found.count }
                }
                return found.count
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let found, found >= count else {
            throw BenchmarkFailure("the browser found \(browser.devices.count) of \(count) devices within a minute")
        }
    }

    /// A device advertisement with a fresh id on `127.0.x.y`.
    static func advertisement(index: Int) -> DeviceAdvertisement {
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return DeviceAdvertisement(
            instanceName: "Chromecast-\(id)",
            address: "127.0.\(1 + index / 250).\(2 + index % 250)",
            port: 8009,
            txt: [
                ("id", id), ("cd", id.uppercased()), ("rm", ""), ("ve", "05"), ("md", "Chromecast"),
                ("ic", "/setup/icon.png"), ("fn", "Bench \(index + 1)"), ("ca", "4101"), ("st", "0"),
                ("bs", String(id.prefix(12)).uppercased()), ("nf", "1"), ("rs", ""),
            ],
            applicationIDs: ["CC1AD845", "E8C28D3C"]
        )
    }
}
