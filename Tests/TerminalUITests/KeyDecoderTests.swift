import CastTestSupport
import Testing

@testable import TerminalUI

@Suite struct KeyDecoderTests {
    static let vectors: [(String, [UInt8], [KeyEvent])] = [
        ("letter", Array("a".utf8), [.character("a")]),
        ("upper case", Array("Q".utf8), [.character("Q")]),
        ("space", [0x20], [.character(" ")]),
        ("carriage return", [0x0D], [KeyEvent(.enter)]),
        ("line feed", [0x0A], [KeyEvent(.enter)]),
        ("tab", [0x09], [KeyEvent(.tab)]),
        ("delete as backspace", [0x7F], [KeyEvent(.backspace)]),
        ("bs as backspace", [0x08], [KeyEvent(.backspace)]),
        ("ctrl-c", [0x03], [.control("c")]),
        ("ctrl-a", [0x01], [.control("a")]),
        ("ctrl-z", [0x1A], [.control("z")]),
        ("ctrl-space", [0x00], [.control(" ")]),
        ("ctrl-backslash", [0x1C], [.control("\\")]),
        ("up", Array("\u{1B}[A".utf8), [KeyEvent(.up)]),
        ("down", Array("\u{1B}[B".utf8), [KeyEvent(.down)]),
        ("right", Array("\u{1B}[C".utf8), [KeyEvent(.right)]),
        ("left", Array("\u{1B}[D".utf8), [KeyEvent(.left)]),
        ("application up", Array("\u{1B}OA".utf8), [KeyEvent(.up)]),
        ("home", Array("\u{1B}[H".utf8), [KeyEvent(.home)]),
        ("end", Array("\u{1B}[F".utf8), [KeyEvent(.end)]),
        ("application home", Array("\u{1B}OH".utf8), [KeyEvent(.home)]),
        ("vt home", Array("\u{1B}[1~".utf8), [KeyEvent(.home)]),
        ("vt end", Array("\u{1B}[4~".utf8), [KeyEvent(.end)]),
        ("rxvt home", Array("\u{1B}[7~".utf8), [KeyEvent(.home)]),
        ("insert", Array("\u{1B}[2~".utf8), [KeyEvent(.insert)]),
        ("delete", Array("\u{1B}[3~".utf8), [KeyEvent(.delete)]),
        ("page up", Array("\u{1B}[5~".utf8), [KeyEvent(.pageUp)]),
        ("page down", Array("\u{1B}[6~".utf8), [KeyEvent(.pageDown)]),
        ("shift-tab", Array("\u{1B}[Z".utf8), [KeyEvent(.tab, modifiers: .shift)]),
        ("ctrl-up", Array("\u{1B}[1;5A".utf8), [KeyEvent(.up, modifiers: .control)]),
        ("alt-right", Array("\u{1B}[1;3C".utf8), [KeyEvent(.right, modifiers: .alt)]),
        ("shift-delete", Array("\u{1B}[3;2~".utf8), [KeyEvent(.delete, modifiers: .shift)]),
        ("ctrl-shift-end", Array("\u{1B}[1;6F".utf8), [KeyEvent(.end, modifiers: [.control, .shift])]),
        ("F1", Array("\u{1B}OP".utf8), [KeyEvent(.function(1))]),
        ("F4", Array("\u{1B}OS".utf8), [KeyEvent(.function(4))]),
        ("F5", Array("\u{1B}[15~".utf8), [KeyEvent(.function(5))]),
        ("F12", Array("\u{1B}[24~".utf8), [KeyEvent(.function(12))]),
        ("linux console F1", Array("\u{1B}[[A".utf8), [KeyEvent(.function(1))]),
        ("two-byte UTF-8", Array("é".utf8), [.character("é")]),
        ("three-byte UTF-8", Array("日".utf8), [.character("日")]),
        ("four-byte UTF-8", Array("🎬".utf8), [.character("🎬")]),
        ("alt-x", Array("\u{1B}x".utf8), [KeyEvent(.character("x"), modifiers: .alt)]),
        ("alt-ctrl-c", [0x1B, 0x03], [KeyEvent(.character("c"), modifiers: [.alt, .control])]),
        ("alt-é", [0x1B] + Array("é".utf8), [KeyEvent(.character("é"), modifiers: .alt)]),
        ("double escape", [0x1B, 0x1B, 0x5B, 0x41], [KeyEvent(.escape), KeyEvent(.up)]),
        (
            "a run of keys", Array("ab\u{1B}[Ac\r".utf8),
            [.character("a"), .character("b"), KeyEvent(.up), .character("c"), KeyEvent(.enter)]
        ),
    ]

    @Test(arguments: vectors)
    func decodesWholeSequence(name: String, bytes: [UInt8], expected: [KeyEvent]) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(bytes) == expected, "\(name)")
        #expect(!decoder.hasPendingInput, "\(name)")
    }

    @Test(arguments: vectors)
    func decodesSequenceSplitAtEveryPoint(name: String, bytes: [UInt8], expected: [KeyEvent]) {
        for split in 1..<max(1, bytes.count) {
            var decoder = KeyDecoder()
            let events = decoder.decode(bytes[..<split]) + decoder.decode(bytes[split...])
            #expect(events == expected, "\(name) split at \(split)")
        }
        var decoder = KeyDecoder()
        var dripped: [KeyEvent] = []
        for byte in bytes {
            dripped += decoder.decode([byte])
        }
        #expect(dripped == expected, "\(name) byte by byte")
    }

    @Test func loneEscapeWaitsForTheTimeout() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flush() == [KeyEvent(.escape)])
        #expect(!decoder.hasPendingInput)
        #expect(decoder.flush().isEmpty)
    }

    @Test func incompleteSequenceAtTimeoutIsEscapeThenText() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[1;".utf8)).isEmpty)
        #expect(decoder.flush() == [KeyEvent(.escape), .character("["), .character("1"), .character(";")])
        #expect(decoder.decode(Array("\u{1B}O".utf8)).isEmpty)
        #expect(decoder.flush() == [KeyEvent(.escape), .character("O")])
    }

    @Test func escapeFollowedByArrowInALaterRead() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.decode(Array("[B".utf8)) == [KeyEvent(.down)])
    }

    static func unknown(_ text: String) -> ([UInt8], [KeyEvent]) {
        (Array(text.utf8), [KeyEvent(.unknown(Array(text.utf8)))])
    }

    static let malformed: [([UInt8], [KeyEvent])] = [
        unknown("\u{1B}[1;2;3A"),
        unknown("\u{1B}[99999A"),
        unknown("\u{1B}[?1049h"),
        unknown("\u{1B}[99~"),
        unknown("\u{1B}[1;99A"),
        unknown("\u{1B}[2A"),
        unknown("\u{1B}Oz"),
        unknown("\u{1B}[[Z"),
        ([0x1B, 0x5B, 0x31, 0x07], [KeyEvent(.unknown([0x1B, 0x5B, 0x31])), .control("g")]),
        ([0xFF], [KeyEvent(.unknown([0xFF]))]),
        ([0x80], [KeyEvent(.unknown([0x80]))]),
        ([0xC0, 0xAF], [KeyEvent(.unknown([0xC0])), KeyEvent(.unknown([0xAF]))]),
        ([0xC3, 0x28], [KeyEvent(.unknown([0xC3])), .character("(")]),
        ([0xED, 0xA0, 0x80], [KeyEvent(.unknown([0xED, 0xA0, 0x80]))]),
        ([0xF4, 0x90, 0x80, 0x80], [KeyEvent(.unknown([0xF4, 0x90, 0x80, 0x80]))]),
    ]

    @Test(arguments: malformed)
    func malformedSequencesBecomeUnknownKeys(bytes: [UInt8], expected: [KeyEvent]) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(bytes) == expected)
        #expect(!decoder.hasPendingInput)
    }

    @Test func truncatedUTF8AtTimeoutIsUnknown() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0xE6, 0x97]).isEmpty)
        #expect(decoder.flush() == [KeyEvent(.unknown([0xE6, 0x97]))])
    }

    @Test func runawayControlSequenceIsCutAtTheLimit() {
        var decoder = KeyDecoder()
        let bytes = [0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 100) + [0x41]
        let events = decoder.decode(bytes)
        #expect(events.first == KeyEvent(.unknown(Array(bytes[0..<KeyDecoder.maximumSequenceLength]))))
        #expect(events.last == .character("A"))
        #expect(!decoder.hasPendingInput)
    }

    @Test func randomInputNeverCrashesAndHoldsLittle() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet: [UInt8] = [
            0x1B, 0x5B, 0x4F, 0x31, 0x3B, 0x7E, 0x41, 0x5A, 0xC3, 0xE6, 0xF0, 0x80, 0x97, 0xFF, 0x00, 0x61,
        ]
        var decoder = KeyDecoder()
        var events = 0
        for _ in 0..<5_000 {
            let length = Int(generator.next() % 12)
            var chunk: [UInt8] = []
            for _ in 0..<length {
                let value = generator.next()
                chunk.append(
                    value % 3 == 0 ? UInt8(truncatingIfNeeded: value >> 8) : alphabet[Int(value >> 8) % alphabet.count]
                )
            }
            events += decoder.decode(chunk).count
            #expect(decoder.pendingCount <= KeyDecoder.maximumSequenceLength)
            if generator.next() % 7 == 0 {
                events += decoder.flush().count
                #expect(!decoder.hasPendingInput)
            }
        }
        #expect(events > 1_000)
    }
}
