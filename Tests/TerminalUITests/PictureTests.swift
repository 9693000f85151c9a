import CastSenderUI
import Foundation
import Testing

@testable import TerminalUI

/// Pictures in the terminal: drawn into cells (half blocks, shades without colour), and shown
/// in pixels by the renderer with kitty graphics, iTerm2 inline images or sixel, whose output
/// is decoded back here and compared with the picture.
@Suite struct PictureTests {
    /// A picture of four quadrants: red, green / blue, white.
    static func quadrants(width: Int = 8, height: Int = 8, identity: UInt64 = 7) -> Picture {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let top = y < height / 2
                let left = x < width / 2
                let color: [UInt8] =
                    top ? (left ? [255, 0, 0] : [0, 255, 0]) : (left ? [0, 0, 255] : [255, 255, 255])
                pixels += color + [255]
            }
        }
        return Picture(width: width, height: height, pixels: pixels, identity: identity)!
    }

    @Test func halfBlocksShowTwoPixelsACellInTheirColours() {
        var buffer = ScreenBuffer(size: Size(width: 20, height: 10))
        let covered = buffer.drawPicture(Self.quadrants(), in: Rect(x: 0, y: 0, width: 8, height: 4))
        #expect(covered == Rect(x: 0, y: 0, width: 8, height: 4))
        #expect(buffer[0, 0].character == "▀")
        #expect(buffer[0, 0].style.foreground == .rgb(255, 0, 0))
        #expect(buffer[7, 0].style.foreground == .rgb(0, 255, 0))
        #expect(buffer[0, 3].style.background == .rgb(0, 0, 255))
        #expect(buffer[7, 3].style.background == .rgb(255, 255, 255))
        #expect(buffer.pictures.count == 1 && buffer.pictures[0].isCovered == false)
    }

    @Test func aPictureIsFittedAndCentred() {
        var buffer = ScreenBuffer(size: Size(width: 40, height: 20))
        // 16:9 in 20 columns × 10 rows (20 × 20 pixels): 20 × 11 pixels, 6 rows, centred.
        let wide = Self.quadrants(width: 160, height: 90)
        let covered = buffer.drawPicture(wide, in: Rect(x: 10, y: 2, width: 20, height: 10))
        #expect(covered.width == 20 && covered.height == 6)
        #expect(covered.y == 2 + (10 - 6) / 2)
    }

    @Test func withoutColourPicturesAreShades() {
        var buffer = ScreenBuffer(size: Size(width: 8, height: 4))
        buffer.drawPicture(Self.quadrants(), in: Rect(x: 0, y: 0, width: 8, height: 4), cells: .shades(unicode: true))
        // Red is dark, white is full.
        #expect(buffer[0, 0].character == "░")
        #expect(buffer[7, 3].character == "█")
        #expect(buffer[0, 0].style == .plain, "no colour at all")
        var ascii = ScreenBuffer(size: Size(width: 8, height: 4))
        ascii.drawPicture(Self.quadrants(), in: Rect(x: 0, y: 0, width: 8, height: 4), cells: .shades(unicode: false))
        #expect(ascii[7, 3].character == "@")
        let capabilities = TerminalCapabilities(colors: .none, unicode: true)
        #expect(ScreenBuffer.PictureCells.for(capabilities) == .shades(unicode: true))
        #expect(ScreenBuffer.PictureCells.for(TerminalCapabilities(colors: .palette256, unicode: true)) == .halfBlocks)
    }

    @Test func writingOverAPictureCoversIt() {
        var buffer = ScreenBuffer(size: Size(width: 20, height: 10))
        buffer.drawPicture(Self.quadrants(), in: Rect(x: 0, y: 0, width: 8, height: 4))
        buffer.write("dialog", at: Point(x: 10, y: 1))
        #expect(!buffer.pictures[0].isCovered, "text beside it")
        buffer.write("dialog", at: Point(x: 5, y: 1))
        #expect(buffer.pictures[0].isCovered, "text over it")
        buffer.clear()
        #expect(buffer.pictures.isEmpty)
    }

    // MARK: Protocols

    static func frame(with picture: Picture?, size: Size = Size(width: 30, height: 12)) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        buffer.write("title", at: Point(x: 0, y: 0))
        if let picture { buffer.drawPicture(picture, in: Rect(x: 2, y: 2, width: 8, height: 4)) }
        return buffer
    }

    static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func kittyTransmitsOnceAndDeletesWhenThePictureGoes() throws {
        var renderer = FrameRenderer(colors: .trueColor)
        renderer.graphics = .kitty
        renderer.cellPixelSize = Size(width: 2, height: 4)
        let first = Self.string(renderer.render(Self.frame(with: Self.quadrants())))
        #expect(first.contains("\u{1B}_Ga=T,f=24,s=16,v=16,i=1,q=2,C=1,m=0;"))
        #expect(!first.contains("▀"), "the cells under the picture are blank")
        // The picture's RGB, base64 in the command: decoded, its corners are the quadrants.
        let payload = try #require(first.split(separator: ";").last?.split(separator: "\u{1B}").first)
        let rgb = try #require(Data(base64Encoded: String(payload)))
        #expect(rgb.count == 16 * 16 * 3)
        #expect(Array(rgb.prefix(3)) == [255, 0, 0])
        #expect(Array(rgb.suffix(3)) == [255, 255, 255])
        #expect(renderer.render(Self.frame(with: Self.quadrants())).isEmpty, "nothing changed, nothing sent")
        let gone = Self.string(renderer.render(Self.frame(with: nil)))
        #expect(gone.contains("\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\"))
        #expect(Self.string(renderer.finish()).isEmpty, "nothing left to delete")
    }

    @Test func aCoveredPictureFallsBackToItsCells() {
        var renderer = FrameRenderer(colors: .trueColor)
        renderer.graphics = .kitty
        var frame = Self.frame(with: Self.quadrants())
        frame.write("over", at: Point(x: 3, y: 3))
        let output = Self.string(renderer.render(frame))
        #expect(!output.contains("\u{1B}_G"), "no picture sent")
        #expect(output.contains("▀") && output.contains("over"))
    }

    @Test func iTerm2SendsAPNGTheDecoderReads() throws {
        var renderer = FrameRenderer(colors: .trueColor)
        renderer.graphics = .iTerm2
        renderer.cellPixelSize = Size(width: 3, height: 6)
        let output = Self.string(renderer.render(Self.frame(with: Self.quadrants())))
        let start = try #require(output.range(of: "\u{1B}]1337;File=inline=1;"))
        let body = output[start.upperBound...]
        #expect(body.hasPrefix("size="))
        #expect(body.contains("width=24px;height=24px"))
        let colon = try #require(body.firstIndex(of: ":"))
        let bell = try #require(body.firstIndex(of: "\u{07}"))
        let png = try #require(Data(base64Encoded: String(body[body.index(after: colon)..<bell])))
        let image = try PNGDecoder().decode(Array(png))
        #expect(image.width == 24 && image.height == 24)
        #expect(image.pixel(x: 0, y: 0) == (255, 0, 0, 255))
        #expect(image.pixel(x: 23, y: 23) == (255, 255, 255, 255))
        // Written over later (a dialog came and went), the picture is sent again.
        var covered = Self.frame(with: Self.quadrants())
        covered.write("dialog", at: Point(x: 3, y: 3))
        _ = renderer.render(covered)
        let back = Self.string(renderer.render(Self.frame(with: Self.quadrants())))
        #expect(back.contains("\u{1B}]1337;File="))
    }

    @Test func sixelDecodesBackToThePicture() throws {
        var renderer = FrameRenderer(colors: .trueColor)
        renderer.graphics = .sixel
        renderer.cellPixelSize = Size(width: 2, height: 3)
        let output = Self.string(renderer.render(Self.frame(with: Self.quadrants())))
        let start = try #require(output.range(of: "\u{1B}P0;1;0q"))
        let end = try #require(output.range(of: "\u{1B}\\", range: start.upperBound..<output.endIndex))
        let image = try #require(Self.decodeSixel(String(output[start.upperBound..<end.lowerBound])))
        #expect(image.width == 12 && image.height == 12)
        // Colours are quantized to 5-6-5 and to percent: within a few steps of the picture's.
        func near(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 8 } }
        #expect(near(image.pixel(0, 0), [255, 0, 0]))
        #expect(near(image.pixel(11, 0), [0, 255, 0]))
        #expect(near(image.pixel(0, 11), [0, 0, 255]))
        #expect(near(image.pixel(11, 11), [255, 255, 255]))
        // A picture on the last row is never sixel: the terminal would scroll.
        var bottom = ScreenBuffer(size: Size(width: 20, height: 4))
        bottom.drawPicture(Self.quadrants(), in: Rect(x: 0, y: 0, width: 8, height: 4))
        var second = FrameRenderer(colors: .trueColor)
        second.graphics = .sixel
        #expect(!Self.string(second.render(bottom)).contains("\u{1B}P"))
    }

    /// A sixel picture that goes stays on a terminal until its cells are written: they are.
    @Test func aSixelPictureThatGoesHasItsCellsWrittenAgain() {
        var renderer = FrameRenderer(colors: .trueColor)
        renderer.graphics = .sixel
        _ = renderer.render(Self.frame(with: Self.quadrants()))
        // The same blank cells with the picture gone: they are written over its pixels.
        let gone = Self.string(renderer.render(Self.frame(with: nil)))
        #expect(
            gone.contains("\u{1B}[3;3H        "),
            "the picture's first row of cells rewritten: \(gone.debugDescription)"
        )
        #expect(!gone.contains("\u{1B}P"))
        #expect(Self.string(renderer.render(Self.frame(with: nil))).isEmpty)
    }

    /// A small sixel reader: colour definitions (`#i;2;r;g;b` in percent), colour choice,
    /// repeats (`!n`), `$` and `-`.
    static func decodeSixel(_ text: String) -> (width: Int, height: Int, pixel: (Int, Int) -> [Int])? {
        var colors: [Int: [Int]] = [:]
        var pixels: [[Int]: [Int]] = [:]
        var current = 0
        var x = 0
        var band = 0
        var width = 0
        var height = 0
        let characters = Array(text.unicodeScalars)
        var index = 0
        func number() -> Int {
            var value = 0
            while index < characters.count, let digit = Int(String(characters[index])) {
                value = value * 10 + digit
                index += 1
            }
            return value
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\"":
                index += 1
                _ = number()
                index += 1
                _ = number()
                index += 1
                width = number()
                index += 1
                height = number()
            case "#":
                index += 1
                let color = number()
                if index < characters.count, characters[index] == ";" {
                    index += 1
                    _ = number()
                    var components: [Int] = []
                    for _ in 0..<3 {
                        index += 1
                        components.append(number() * 255 / 100)
                    }
                    colors[color] = components
                }
                current = color
            case "$":
                x = 0
                index += 1
            case "-":
                x = 0
                band += 6
                index += 1
            case "!":
                index += 1
                let count = number()
                let bits = Int(characters[index].value) - 0x3F
                for _ in 0..<count {
                    for row in 0..<6 where bits & (1 << row) != 0 { pixels[[x, band + row]] = colors[current] }
                    x += 1
                }
                index += 1
            default:
                let bits = Int(character.value) - 0x3F
                guard (0..<64).contains(bits) else { return nil }
                for row in 0..<6 where bits & (1 << row) != 0 { pixels[[x, band + row]] = colors[current] }
                x += 1
                index += 1
            }
        }
        return (width, height, { pixels[[$0, $1]] ?? [-100, -100, -100] })
    }

    // MARK: Detection

    @Test func answersAreReadFromWhatTheTerminalSends() {
        let kitty = GraphicsSupport.parseAnswers(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c".utf8))
        #expect(kitty.kittyOK && kitty.isComplete && kitty.other.isEmpty)
        let refused = GraphicsSupport.parseAnswers(Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62c".utf8))
        #expect(refused.kittyAnswered && !refused.kittyOK)
        let sixel = GraphicsSupport.parseAnswers(Array("x\u{1B}[?63;1;2;4;6;9;15;22cy".utf8))
        #expect(sixel.deviceAttributes == [63, 1, 2, 4, 6, 9, 15, 22])
        #expect(sixel.other == Array("xy".utf8), "keys typed meanwhile are kept")
        #expect(!GraphicsSupport.parseAnswers(Array("\u{1B}[?6".utf8)).isComplete)
    }

    @Test func theProtocolIsWhatTheTerminalDeclares() {
        let none: [String: String] = ["TERM": "xterm-kitty"]
        var answers = GraphicsSupport.QueryAnswers()
        answers.deviceAttributes = [62, 22]
        #expect(
            GraphicsSupport.decide(environment: none, answers: answers).graphicsProtocol == nil,
            "TERM alone decides nothing"
        )
        answers.kittyOK = true
        #expect(GraphicsSupport.decide(environment: none, answers: answers).graphicsProtocol == .kitty)
        answers.kittyOK = false
        answers.deviceAttributes = [63, 1, 4]
        #expect(GraphicsSupport.decide(environment: none, answers: answers).graphicsProtocol == .sixel)
        #expect(
            GraphicsSupport.decide(environment: ["TERM_PROGRAM": "iTerm.app"], answers: nil).graphicsProtocol == .iTerm2
        )
        #expect(
            GraphicsSupport.decide(environment: ["LC_TERMINAL": "iTerm2"], answers: nil).graphicsProtocol == .iTerm2
        )
        #expect(
            GraphicsSupport.decide(
                environment: ["LC_TERMINAL": "iTerm2", "TMUX": "/tmp/tmux-0/default,1,0"],
                answers: nil
            )
            .graphicsProtocol == nil,
            "inside tmux the outer terminal's images do not pass"
        )
        #expect(
            GraphicsSupport.decide(environment: [:], answers: GraphicsSupport.QueryAnswers()).reason.contains(
                "did not answer"
            )
        )
    }
}
