import CastCore
import CastNet
import CastSender
import CastSenderTestSupport
import CastTime
import Foundation
import Testing

@testable import CastSenderUI

@Suite struct DeviceChooserTests {
    static func device(_ name: String, busy: Bool = false) -> CastDevice {
        CastDevice(
            id: UUID(),
            friendlyName: name,
            status: busy ? .busy : .idle,
            statusText: busy ? "YouTube" : nil,
            addresses: [IPAddress("127.0.0.1")!],
            port: 8009
        )
    }

    @Test func machineListsDevicesInOrderAndReplacesUpdates() {
        var machine = DeviceChooserStateMachine(devices: [], discoveryActive: true)
        #expect(machine.isSearching)
        let kitchen = Self.device("Kitchen")
        var tv = Self.device("TV")
        machine.apply(.didInsert(kitchen))
        machine.apply(.didInsert(tv))
        tv.friendlyName = "Living Room TV"
        machine.apply(.didUpdate(tv))
        #expect(machine.devices.map(\.friendlyName) == ["Kitchen", "Living Room TV"])
        machine.apply(.didRemove(kitchen))
        #expect(machine.devices.map(\.friendlyName) == ["Living Room TV"])
        #expect(!machine.isSearching && !machine.showsGuidance)
    }

    @Test func rowsMarkSpeakerGroups() {
        var group = Self.device("Downstairs")
        group.modelName = "Google Cast Group"
        group.capabilities = [.audioOut, .multizoneGroup]
        group.port = 32_101
        #expect(DeviceChooserModel.Device(device: group).isGroup)
        #expect(!DeviceChooserModel.Device(device: Self.device("Kitchen")).isGroup)
        var byModel = Self.device("Upstairs")
        byModel.modelName = "Google Cast Group"
        #expect(DeviceChooserModel.Device(device: byModel).isGroup)
    }

    @Test func guidanceAfterTheSearchWindowOrWithoutDiscovery() {
        var machine = DeviceChooserStateMachine(devices: [], discoveryActive: true)
        machine.searchWindowElapsed()
        #expect(machine.showsGuidance)
        machine.searchStarted(active: true)
        #expect(machine.isSearching)
        #expect(DeviceChooserStateMachine(devices: [], discoveryActive: false).showsGuidance)
    }

    @Test func liveListSearchWindowGuidanceAndRetry() async {
        let discovery = FakeDiscovery()
        _ = try? discovery.control.start()
        let clock = ManualCastClock()
        let chooser = DeviceChooserModel(
            discovery: discovery.control,
            startSession: { _ in },
            searchTimeout: .seconds(5),
            clock: clock
        )
        #expect(chooser.state.phase == .searching)
        clock.advance(by: .seconds(5))
        #expect(chooser.state.phase == .noDevices(.standard))
        let reasons = NoDevicesGuidance.standard.reasons.map(\.title).joined(separator: " ")
        for topic in ["Wi-Fi", "powered on", "VPN", "firewall", "Multicast", "Local network permission"] {
            #expect(reasons.contains(topic))
        }

        chooser.retry()
        #expect(discovery.stops == 1 && discovery.starts == 2)
        #expect(chooser.state.phase == .searching)
        discovery.emit(.didInsert(Self.device("Bedroom", busy: true)))
        #expect(await Harness.waitUntil { chooser.state.devices.count == 1 })
        #expect(chooser.state.phase == .devices)
        let row = chooser.state.devices[0]
        #expect(row.name == "Bedroom" && row.isBusy && row.statusText == "YouTube")
        clock.advance(by: .seconds(10))
        #expect(chooser.state.phase == .devices)
        discovery.emit(.didRemove(discovery.control.devices()[0]))
        #expect(await Harness.waitUntil { chooser.state.phase == .noDevices(.standard) })
    }

    @Test func retryThatFailsExplains() {
        let discovery = FakeDiscovery()
        discovery.setFailing(true)
        let chooser = DeviceChooserModel(
            discovery: discovery.control,
            startSession: { _ in },
            searchTimeout: .seconds(5),
            clock: ManualCastClock()
        )
        #expect(chooser.state.phase == .noDevices(.standard))
        chooser.retry()
        #expect(chooser.state.errorMessage?.contains("mDNS") == true)
        #expect(!chooser.state.isDiscoveryActive)
    }

    @Test func selectingStartsASessionOnTheDevice() async throws {
        let harness = Harness()
        let context = harness.context()
        let chooser = DeviceChooserModel(context: context, clock: harness.clock)
        let added = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009, friendlyName: "Den")
        #expect(await harness.waitUntil { chooser.state.devices.map(\.id) == [added.id] })
        try await chooser.select(added.id)
        #expect(context.sessionManager.hasConnectedSession)
        #expect(context.sessionManager.currentSession?.device.id == added.id)
        #expect(chooser.state.connectingDeviceID == nil && chooser.state.errorMessage == nil)

        await #expect(throws: CastError(.invalidState, "")) { try await chooser.select(added.id) }
        #expect(chooser.state.errorMessage?.contains("already exists") == true)
        await #expect(throws: CastError(.invalidRequest, "")) { try await chooser.select(UUID()) }
        await context.sessionManager.endSession()
    }
}
