import CastEmulator
import Testing

@Suite struct DeviceIdentityTests {
    @Test(arguments: [
        ("0123456789abcdef0123456789ABCDEF", "01234567-89ab-cdef-0123-456789abcdef" as String?),
        ("01234567-89ab-cdef-0123-456789abcdef", "01234567-89ab-cdef-0123-456789abcdef"),
        ("0123", nil),
        ("0123456789abcdef0123456789abcdeg", nil),
    ])
    func udn(deviceID: String, expected: String?) {
        #expect(DeviceIdentity(friendlyName: "TV", deviceID: deviceID).udn == expected)
    }

    @Test func defaultsDescribeAChromecast() {
        let identity = DeviceIdentity(friendlyName: "TV", deviceID: "0")
        #expect(identity.modelName == "Chromecast")
        #expect(identity.manufacturer == "Google Inc.")
        #expect(identity.capabilities == [.videoOut, .audioOut])
        #expect(identity.capabilities.rawValue == 5)
    }
}
