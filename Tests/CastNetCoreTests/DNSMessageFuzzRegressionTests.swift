import CastCore
import Testing

@testable import CastNetCore

/// Inputs found by `Fuzz/Sources/fuzz-dns`, kept so the properties it checks stay true for them.
@Suite struct DNSMessageFuzzRegressionTests {
    /// A TXT record with empty RDATA decoded as no strings, but the encoder writes one empty
    /// string for it, so decode → encode → decode changed the message (minimized input).
    static let emptyTXTRData: [UInt8] = [
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
        0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    @Test func emptyTXTRDataIsOneEmptyString() throws {
        let message = try DNSMessage(decoding: Self.emptyTXTRData)
        #expect(message.authorities.count == 1)
        #expect(message.authorities.first?.data == .txt([[]]))
    }

    @Test func emptyTXTRDataRoundTrips() throws {
        let message = try DNSMessage(decoding: Self.emptyTXTRData)
        let encoded = try message.encoded()
        let again = try DNSMessage(decoding: encoded)
        #expect(again == message)
        #expect(try again.encoded() == encoded)
    }
}
