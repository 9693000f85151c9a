import Foundation
import Testing

@testable import CastSenderUI

@Suite struct CastUIStateStoreTests {
    @Test func flagsSurviveANewStoreOnTheSameDirectory() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = CastUIStateStore(directory: directory.url.appendingPathComponent("nested"))
        #expect(first.current == CastUIStateStore.Flags())
        first.update { $0.localNetworkAccepted = true }
        let second = CastUIStateStore(directory: directory.url.appendingPathComponent("nested"))
        #expect(second.current == CastUIStateStore.Flags(localNetworkAccepted: true, instructionsShown: false))
        second.update { $0.instructionsShown = true }
        #expect(CastUIStateStore(directory: directory.url.appendingPathComponent("nested")).current.instructionsShown)
    }

    @Test(arguments: [
        "", "{", "not json", "[true]", "{\"localNetworkAccepted\": \"yes\"}", "{\"localNetworkAccepted\": 1}",
        "\u{FF}\u{FE}",
    ])
    func malformedFileMeansNothingRemembered(text: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent(CastUIStateStore.fileName)
        try Data(text.utf8).write(to: file)
        let store = CastUIStateStore(directory: directory.url)
        #expect(store.current == CastUIStateStore.Flags())
        store.update { $0.instructionsShown = true }
        #expect(CastUIStateStore(directory: directory.url).current.instructionsShown)
    }

    @Test func oversizedFileIsIgnored() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let padding = String(repeating: " ", count: 70_000)
        let text = "{\"localNetworkAccepted\": true\(padding)}"
        try Data(text.utf8).write(to: directory.url.appendingPathComponent(CastUIStateStore.fileName))
        #expect(!CastUIStateStore(directory: directory.url).current.localNetworkAccepted)
    }

    @Test func inMemoryStoreKeepsNothingOnDisk() {
        let store = CastUIStateStore()
        store.update { $0.localNetworkAccepted = true }
        #expect(store.current.localNetworkAccepted)
        #expect(store.fileURL == nil)
    }
}
