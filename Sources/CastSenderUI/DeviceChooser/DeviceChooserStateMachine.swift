import CastCore
import CastSender
import Foundation

/// The device chooser's list and phase, free of I/O: discovery events in, the list and
/// whether to show the no-devices guidance out.
struct DeviceChooserStateMachine: Sendable, Hashable {
    private(set) var devices: [CastDevice] = []
    /// Whether the search window since the last (re)start has ended.
    private(set) var searchWindowEnded = false
    private(set) var discoveryActive: Bool
    private(set) var connectingDeviceID: UUID?
    private(set) var errorMessage: String?

    init(devices: [CastDevice], discoveryActive: Bool) {
        self.devices = devices
        self.discoveryActive = discoveryActive
    }

    mutating func apply(_ event: DiscoveryEvent) {
        let device = event.device
        if event.kind == .didRemove {
            devices.removeAll { $0.id == device.id }
        } else if let index = devices.firstIndex(where: { $0.id == device.id }) {
            devices[index] = device
        } else {
            devices.append(device)
        }
    }

    /// Discovery (re)started: a new search window begins.
    mutating func searchStarted(active: Bool) {
        discoveryActive = active
        searchWindowEnded = false
        errorMessage = nil
    }

    mutating func discoveryFailed(_ message: String) {
        discoveryActive = false
        searchWindowEnded = true
        errorMessage = message
    }

    mutating func searchWindowElapsed() { searchWindowEnded = true }

    mutating func connecting(to id: UUID) {
        connectingDeviceID = id
        errorMessage = nil
    }

    mutating func connectFinished(error: String?) {
        connectingDeviceID = nil
        errorMessage = error
    }

    /// Searching while discovery runs and the window is open; guidance once it has passed
    /// (or when discovery is not running) with no device.
    var isSearching: Bool { devices.isEmpty && discoveryActive && !searchWindowEnded }
    var showsGuidance: Bool { devices.isEmpty && !isSearching }
}
