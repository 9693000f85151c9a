import Foundation
import Testing

@testable import CastCommandLine

/// The command line percent-encodes and decodes without Foundation; these tests hold its code to
/// what Foundation's `addingPercentEncoding` and `removingPercentEncoding` did before.
@Suite struct PercentEncodingTests {
    /// What `cast play` used for a served file's name before.
    private static let foundationPathSet = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#;"))

    static let names = [
        "clip.mp4", "my clip (1).mp4", "a;b?c#d.mkv", "100%.webm", "héllo wörld.mp3", "日本語.mp4", "emoji 🎬.mp4",
        "tab\there", "quote\"s'and<angle>", "a+b=c&d@e:f,g!h$i*j~k_l-m.n", "back\\slash", "",
    ]

    @Test(arguments: names)
    func aFileNameIsEncodedAsFoundationEncodedIt(_ name: String) {
        #expect(PlayCommand.escape(name) == name.addingPercentEncoding(withAllowedCharacters: Self.foundationPathSet))
    }

    @Test func everyASCIIByteIsEncodedAsFoundationEncodedIt() {
        for byte in UInt8(0)...0x7F {
            let text = String(decoding: [byte], as: UTF8.self)
            #expect(
                PercentEncoding.encodingPath(text)
                    == text.addingPercentEncoding(withAllowedCharacters: Self.foundationPathSet),
                "byte \(byte)"
            )
        }
    }

    @Test(arguments: [
        "plain", "a%20b", "%E6%97%A5%E6%9C%AC", "%e6%97%a5", "100%25", "%", "%2", "%zz", "%FF", "%C3", "a%20%",
        "%%20", "%00", "",
    ])
    func decodingMatchesFoundationOnGoodAndMalformedInput(_ text: String) {
        #expect(PercentEncoding.decoding(text) == text.removingPercentEncoding, "\(text)")
    }

    @Test func aRemoteSourcesTitleIsItsDecodedLastPathComponent() {
        #expect(PlayCommand.defaultTitle("https://example.com/media/My%20Clip.mp4") == "My Clip.mp4")
        #expect(PlayCommand.defaultTitle("/home/user/Videos/clip one.mp4") == "clip one.mp4")
    }
}
