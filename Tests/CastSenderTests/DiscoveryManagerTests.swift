import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastSender

/// A device source the test scripts: records starts, stops and the pace asked for, and
/// hands events to the manager as the mDNS browser would.
final class ScriptedBrowser: DeviceBrowser {
    private struct State {
        var starts = 0
        var stops = 0
        var passive: [Bool] = []
        var onEvent: (@Sendable (DiscoveryEvent) -> Void)?
    }

    private let state = Locked(State())

    var starts: Int { state.withLock { $0.starts } }
    var stops: Int { state.withLock { $0.stops } }
    var passiveCalls: [Bool] { state.withLock { $0.passive } }

    func start(onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) throws(CastError) {
        state.withLock { state in
            state.starts += 1
            state.onEvent = onEvent
        }
    }

    func stop() {
        state.withLock { state in
            state.stops += 1
            state.onEvent = nil
        }
    }

    func setPassive(_ passive: Bool) { state.withLock { $0.passive.append(passive) } }

    func emit(_ event: DiscoveryEvent) { state.withLock { $0.onEvent }?(event) }

    func announce(_ device: CastDevice) { emit(.didInsert(device)) }
}

/// Records discovery listener calls.
final class DiscoveryRecorder: DiscoveryManagerListener, Sendable {
    private let recorded = Locked<[String]>([])
    var events: [String] { recorded.withLock { $0 } }

    func discoveryManager(_ manager: DiscoveryManager, didInsert device: CastDevice) {
        recorded.withLock { $0.append("insert \(device.friendlyName ?? "?")") }
    }
    func discoveryManager(_ manager: DiscoveryManager, didUpdate device: CastDevice) {
        recorded.withLock { $0.append("update \(device.friendlyName ?? "?")") }
    }
    func discoveryManager(_ manager: DiscoveryManager, didRemove device: CastDevice) {
        recorded.withLock { $0.append("remove \(device.friendlyName ?? "?")") }
    }
}

/// The SDK's discovery glue: the manager between a device source and the app.
@Suite struct DiscoveryManagerTests {
    static let deviceID = "f38e268b2fc3268a56b9fa12e75bbb4a"

    static func device(name: String = "Living Room", statusText: String? = nil, port: UInt16 = 8009) -> CastDevice {
        CastDevice(
            id: CastDevice.parseID(deviceID)!,
            friendlyName: name,
            modelName: "Chromecast",
            statusText: statusText,
            addresses: [IPAddress("127.0.0.2")!],
            port: port
        )
    }

    func context(
        _ harness: Harness,
        _ browser: ScriptedBrowser,
        configure: (inout CastOptions) -> Void = { _ in }
    ) -> CastContext {
        var options = harness.options()
        options.disableDiscoveryAutostart = false
        configure(&options)
        return CastContext(options: options, connector: harness.device, clock: harness.clock, browser: browser)
    }

    @Test func theFirstTapOnTheCastButtonStartsDiscoveryOnce() {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        #expect(context.discoveryManager.discoveryState == .stopped)
        #expect(browser.starts == 0, "startDiscoveryAfterFirstTapOnCastButton defers discovery")
        context.discoveryManager.castButtonTapped()
        #expect(browser.starts == 1)
        #expect(context.discoveryManager.discoveryState == .running)
        #expect(context.discoveryManager.isDiscoveryActive)
        context.discoveryManager.castButtonTapped()
        context.discoveryManager.stopDiscovery()
        context.discoveryManager.castButtonTapped()
        #expect(browser.starts == 1, "only the first tap starts discovery")
        #expect(browser.stops == 1)
        #expect(context.discoveryManager.discoveryState == .stopped)
    }

    @Test(arguments: [(false, false, 1), (true, true, 0), (true, false, 0)])
    func autostartOptions(disableAutostart: Bool, afterFirstTap: Bool, startsAtLaunch: Int) {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser) { options in
            options.disableDiscoveryAutostart = disableAutostart
            options.startDiscoveryAfterFirstTapOnCastButton = afterFirstTap
        }
        #expect(browser.starts == startsAtLaunch)
        context.discoveryManager.castButtonTapped()
        #expect(browser.starts == startsAtLaunch, "a tap starts nothing unless discovery waits for it")
    }

    @Test func updatesAreReportedOnlyWhenTheDeviceChanges() async throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        let recorder = DiscoveryRecorder()
        context.discoveryManager.add(recorder)
        try context.discoveryManager.startDiscovery()

        browser.emit(.didInsert(Self.device()))
        // A re-announcement with the same records changes nothing.
        browser.emit(.didUpdate(Self.device()))
        browser.emit(.didInsert(Self.device()))
        // A new friendly name (TXT fn), then a new status text (TXT rs), then a new port (SRV).
        browser.emit(.didUpdate(Self.device(name: "Kitchen")))
        browser.emit(.didUpdate(Self.device(name: "Kitchen", statusText: "Casting")))
        browser.emit(.didUpdate(Self.device(name: "Kitchen", statusText: "Casting", port: 8010)))
        browser.emit(.didRemove(Self.device(name: "Kitchen")))
        browser.emit(.didRemove(Self.device(name: "Kitchen")))
        // The browser's events reach the manager at once; its listeners hear of them on the
        // callback queue.
        await harness.drain()
        #expect(
            recorder.events == [
                "insert Living Room", "update Kitchen", "update Kitchen", "update Kitchen", "remove Kitchen",
            ],
            "\(recorder.events)"
        )
        #expect(context.discoveryManager.devices.isEmpty)
        #expect(context.castState == .noDevicesAvailable)
    }

    @Test func theDeviceListShowsWhatDiscoveryNowKnows() async throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        try context.discoveryManager.startDiscovery()
        browser.emit(.didInsert(Self.device()))
        browser.emit(.didUpdate(Self.device(name: "Kitchen")))
        #expect(context.discoveryManager.devices.map(\.friendlyName) == ["Kitchen"])
        #expect(context.discoveryManager.device(withUniqueID: Self.deviceID)?.friendlyName == "Kitchen")
        #expect(context.discoveryManager.device(withUniqueID: "F38E268B-2FC3-268A-56B9-FA12E75BBB4A") != nil)
        #expect(context.discoveryManager.device(withUniqueID: "not-an-id") == nil)
        #expect(context.castState == .notConnected)
    }

    @Test func passiveScanReachesTheBrowserAtStartAndWhileRunning() throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        #expect(!context.discoveryManager.passiveScan)
        context.discoveryManager.passiveScan = true
        try context.discoveryManager.startDiscovery()
        context.discoveryManager.passiveScan = true
        context.discoveryManager.passiveScan = false
        #expect(browser.passiveCalls == [true, true, false], "set, then again at start, then changed while running")
        #expect(!context.discoveryManager.passiveScan)
    }

    @Test func findDeviceReturnsAKnownDeviceAtOnce() async throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        try context.discoveryManager.startDiscovery()
        browser.emit(.didInsert(Self.device()))
        let found = await context.discoveryManager.findDevice(uniqueID: Self.deviceID, timeout: .seconds(5))
        #expect(found?.friendlyName == "Living Room")
    }

    @Test func findDeviceWaitsForTheDeviceToAppear() async throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        try context.discoveryManager.startDiscovery()
        let finding = Task { await context.discoveryManager.findDevice(uniqueID: Self.deviceID, timeout: .seconds(5)) }
        await harness.clock.waitForScheduledTimers(count: 1)
        browser.emit(.didInsert(Self.device()))
        #expect(await finding.value?.id == Self.device().id)
        #expect(harness.clock.scheduledTimerCount == 0, "the timeout is cancelled")
    }

    @Test func findDeviceGivesUpAfterTheTimeoutOnTheContextClock() async throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        try context.discoveryManager.startDiscovery()
        let finding = Task { await context.discoveryManager.findDevice(uniqueID: Self.deviceID, timeout: .seconds(5)) }
        await harness.clock.waitForScheduledTimers(count: 1)
        harness.clock.advance(by: .seconds(4))
        browser.emit(.didInsert(Self.device(name: "Other").with(id: UUID())))
        harness.clock.advance(by: .seconds(1))
        #expect(await finding.value == nil)
    }

    @Test func cancellingFindDeviceReturnsNil() async throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        let finding = Task { await context.discoveryManager.findDevice(uniqueID: Self.deviceID, timeout: .seconds(60)) }
        await harness.clock.waitForScheduledTimers(count: 1)
        finding.cancel()
        #expect(await finding.value == nil)
        #expect(harness.clock.scheduledTimerCount == 0)
        #expect(await context.discoveryManager.findDevice(uniqueID: "zz", timeout: .seconds(1)) == nil)
    }

    @Test func addingTheDeviceByAddressEndsAFindToo() async throws {
        let harness = Harness()
        let browser = ScriptedBrowser()
        let context = context(harness, browser)
        let id = DiscoveryManager.stableID(host: "127.0.0.1", port: 8009)
        let idText = id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let finding = Task { await context.discoveryManager.findDevice(uniqueID: idText, timeout: .seconds(60)) }
        await harness.clock.waitForScheduledTimers(count: 1)
        _ = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009, friendlyName: "Fake")
        #expect(await finding.value?.friendlyName == "Fake")
    }

    @Test func criteriaWithSeveralApplicationIDsOrNamespaces() {
        let one = DiscoveryCriteria(applicationID: "4F8B3483")
        #expect(one.applicationIDs == ["4F8B3483"])
        #expect(one.browsedApplicationID == "4F8B3483")
        #expect(one.allSubtypes == ["_4F8B3483._sub._googlecast._tcp.local"])

        let several = DiscoveryCriteria(applicationIDs: ["4F8B3483", "CC1AD845", "4F8B3483", ""])
        #expect(several.applicationIDs == ["4F8B3483", "CC1AD845"])
        #expect(several.applicationID == "4F8B3483", "the first is launched")
        #expect(several.browsedApplicationID == nil, "several apps: every Cast device is browsed")
        #expect(several.allSubtypes.count == 2)
        #expect(several.hasApplicationIDs && !several.hasNamespaces)

        let namespaces = DiscoveryCriteria(namespaces: ["urn:x-cast:com.example.game"])
        #expect(namespaces.applicationID == DiscoveryCriteria.defaultMediaReceiverApplicationID)
        #expect(namespaces.hasNamespaces && !namespaces.hasApplicationIDs)
        #expect(namespaces.allSubtypes.isEmpty)
        #expect(namespaces.browsedApplicationID == nil)
    }

    @Test func joiningFollowsTheCriteria() {
        func app(_ id: String, universal: String? = nil, namespaces: [String] = []) -> ReceiverApplication {
            ReceiverApplication(
                appID: id,
                universalAppID: universal,
                namespaces: namespaces.map { ApplicationNamespace(name: $0) },
                sessionID: "S",
                transportID: "T"
            )
        }
        let several = DiscoveryCriteria(applicationIDs: ["4F8B3483", "CC1AD845"])
        #expect(several.allowsJoining(app("CC1AD845")))
        #expect(several.allowsJoining(app("12345678", universal: "4F8B3483")))
        #expect(!several.allowsJoining(app("ABCDEF01")))

        let namespaces = DiscoveryCriteria(namespaces: ["urn:x-cast:com.example.game", "urn:x-cast:com.example.chat"])
        #expect(
            namespaces.allowsJoining(
                app("ABCDEF01", namespaces: ["urn:x-cast:com.example.game", "urn:x-cast:com.example.chat"])
            )
        )
        #expect(!namespaces.allowsJoining(app("ABCDEF01", namespaces: ["urn:x-cast:com.example.game"])))
        #expect(!namespaces.allowsJoining(app("CC1AD845")))
    }
}

extension CastDevice {
    func with(id: UUID) -> CastDevice {
        var copy = self
        copy.id = id
        return copy
    }
}
