// Fuzzes the DNS message codec with the input as a received mDNS datagram, and feeds every
// message that decodes to an mDNS querier.
//
// Properties: a decoded message encodes (or fails only for exceeding the DNS size limit), and
// its encoding decodes to an equal message that encodes to the same bytes; the querier accepts
// any decoded message without trapping and reports every device it knows as removed on stop.
//
// The codec is `package` API of CastNet, out of reach of another package except through a
// testable import: scripts/fuzz.sh builds the fuzzers with -enable-testing.

import CastTime
import FuzzSupport

@testable import CastNetCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNS(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.run(start, count) { bytes in
        let message: DNSMessage
        do throws(DNSError) {
            message = try DNSMessage(decoding: bytes)
        } catch {
            FuzzProperty.require(
                error.offset >= 0 && error.offset <= bytes.count,
                "error offset out of range: \(error)"
            )
            return
        }
        let encoded: [UInt8]
        do throws(DNSError) {
            encoded = try message.encoded()
        } catch {
            FuzzProperty.require(error.code == .messageTooLarge, "a decoded message does not encode: \(error)")
            return
        }
        do throws(DNSError) {
            let again = try DNSMessage(decoding: encoded)
            FuzzProperty.require(again == message, "decode(encode(m)) != m")
            let reencoded = try again.encoded()
            FuzzProperty.require(reencoded == encoded, "the encoding is not stable")
        } catch {
            FuzzProperty.fail("an encoded message does not decode: \(error)")
        }

        var querier = MDNSQuerierStateMachine()
        querier.start(now: .zero)
        _ = querier.receive(message, now: CastInstant(offset: .seconds(1)))
        _ = querier.tick(now: CastInstant(offset: .seconds(3_600)))
        let known = querier.knownDevices.count
        FuzzProperty.require(querier.stop().count >= known, "stopping did not report every known device removed")
    }
}
