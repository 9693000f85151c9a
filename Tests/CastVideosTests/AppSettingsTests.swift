import CastSender
import CastSenderUI
import Foundation
import Testing

@testable import castvideos

struct AppSettingsTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func savedSettingsComeBack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = SettingsStore(directory: directory)
        #expect(store.load().settings == AppSettings())
        #expect(store.load().problem == nil)
        var settings = AppSettings()
        settings.set(.receiverApplicationID, "abcd1234")
        settings.set(.preloadTime, "7.5")
        settings.set(.discoveryInterfaces, "lo, eth0")
        settings.set(.logLevel, "DEBUG")
        try store.save(settings)
        let loaded = store.load()
        #expect(loaded.settings == settings)
        #expect(loaded.settings.receiverApplicationID == "ABCD1234")
        #expect(loaded.settings.preloadTime == 7.5)
        #expect(loaded.settings.interfaceNames == ["lo", "eth0"])
        #expect(loaded.settings.castLogLevel == .debug)
    }

    @Test func damagedOrPartialFilesFallBackToDefaults() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = SettingsStore(directory: directory)
        try Data("{not json".utf8).write(to: store.url)
        let damaged = store.load()
        #expect(damaged.settings == AppSettings())
        #expect(damaged.problem?.contains("damaged") == true)
        try Data(#"{"preloadTime": 5}"#.utf8).write(to: store.url)
        let partial = store.load()
        #expect(partial.settings.preloadTime == 5)
        #expect(partial.settings.receiverApplicationID == "CC1AD845")
        #expect(partial.problem == nil)
        try Data(#"{"preloadTime": "soon"}"#.utf8).write(to: store.url)
        #expect(store.load().problem != nil)
    }

    @Test(arguments: [
        (AppSettings.Field.receiverApplicationID, "CC1AD845", true),
        (.receiverApplicationID, "", false),
        (.receiverApplicationID, "CC1A-D845", false),
        (.preloadTime, "0", true),
        (.preloadTime, "600", true),
        (.preloadTime, "601", false),
        (.preloadTime, "-1", false),
        (.preloadTime, "x", false),
        (.discoveryInterfaces, "", true),
        (.discoveryInterfaces, "lo,eth0", true),
        (.discoveryInterfaces, "lo;rm", false),
        (.logLevel, "verbose", true),
        (.logLevel, "loud", false),
        (.imagePicker, "first", true),
        (.imagePicker, "Best-Fit", true),
        (.imagePicker, "random", false),
    ])
    func validation(_ field: AppSettings.Field, _ text: String, valid: Bool) {
        #expect((AppSettings.validate(field, text) == nil) == valid)
    }

    @Test func defaultsAreTheCodelabs() {
        let settings = AppSettings()
        #expect(settings.receiverApplicationID == DiscoveryCriteria.defaultMediaReceiverApplicationID)
        #expect(settings.interfaceNames == nil)
        #expect(settings.castLogLevel == .warning)
        #expect(AppSettings.Field.allCases.map(\.title).count == 5)
        #expect(settings.imagePickerChoice == .bestFit)
        #expect(settings.imagePickerChoice.picker is BestFitImagePicker)
        var first = settings
        first.set(.imagePicker, "First")
        #expect(first.imagePickerChoice == .first && first.text(.imagePicker) == "first")
    }
}
