import CastCore
import CastTime
import Testing

@testable import CastEmulator

@Suite struct IdentifierGeneratorTests {
    @Test func idsAreUUIDShapedAndReproducible() {
        var first = IdentifierGenerator(seed: 7)
        var second = IdentifierGenerator(seed: 7)
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let id = first.uuidString()
            #expect(id == second.uuidString())
            #expect(id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
            #expect(id.allSatisfy { $0 == "-" || ($0.isHexDigit && !$0.isLowercase) })
            seen.insert(id)
        }
        #expect(seen.count == 1_000)
        var other = IdentifierGenerator(seed: 8)
        var again = IdentifierGenerator(seed: 7)
        #expect(other.uuidString() != again.uuidString())
    }

    @Test func devicesWithoutASeedDiffer() {
        let configuration = VirtualDeviceConfiguration(identity: DeviceIdentity(friendlyName: "TV", deviceID: "0"))
        let first = VirtualDeviceEngine(configuration: configuration, at: .zero)
        let second = VirtualDeviceEngine(configuration: configuration, at: .zero)
        #expect(first.runningApplication?.sessionID != second.runningApplication?.sessionID)
    }
}
