import Testing

@testable import CastCore

@Suite struct CastColorTests {
    @Test func parsesAndFormatsCSSColors() throws {
        #expect(CastColor(cssString: "#FFFFFF00") == CastColor(red: 255, green: 255, blue: 255, alpha: 0))
        #expect(CastColor(cssString: "#0a1B2c") == CastColor(red: 10, green: 27, blue: 44, alpha: 255))
        #expect(CastColor(red: 1, green: 2, blue: 255, alpha: 128).cssString == "#0102FF80")
        #expect(CastColor.black.cssString == "#000000FF")
        #expect(CastColor.transparent.description == "#00000000")
    }

    @Test(arguments: ["", "#", "red", "#FFF", "#FFFFFFF", "#GGGGGGGG", "FFFFFFFF", "#FFFFFFFFFF", "#FF FF FF"])
    func rejectsOtherForms(text: String) {
        #expect(CastColor(cssString: text) == nil)
    }

    @Test func codesAsAString() throws {
        let style = TextTrackStyle(foregroundColor: .white, edgeColor: CastColor(cssString: "#00000080"))
        let text = try JSONPayloadEncoder().encode(style)
        #expect(text == ##"{"foregroundColor":"#FFFFFFFF","edgeColor":"#00000080"}"##)
        #expect(try JSONPayloadDecoder().decode(TextTrackStyle.self, from: text) == style)
        for usesTokenDecodable in [true, false] {
            var decoder = JSONPayloadDecoder()
            decoder.usesTokenDecodable = usesTokenDecodable
            let error = try #require(
                decodingError { _ = try decoder.decode(TextTrackStyle.self, from: #"{"windowColor":"blue"}"#) }
            )
            #expect(error.code == .invalidValue)
            #expect(error.path == "windowColor")
        }
    }
}
