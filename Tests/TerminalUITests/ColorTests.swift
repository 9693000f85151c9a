import TerminalUI
import Testing

@Suite struct ColorTests {
    @Test(arguments: [
        ([String: String](), ColorCapability.none),
        (["TERM": "dumb", "COLORTERM": "truecolor"], .none),
        (["TERM": "xterm"], .basic16),
        (["TERM": "screen"], .basic16),
        (["TERM": "xterm-256color"], .palette256),
        (["TERM": "tmux-256color"], .palette256),
        (["TERM": "xterm-direct"], .trueColor),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .trueColor),
        (["TERM": "xterm", "COLORTERM": "24bit"], .trueColor),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"], .none),
        (["TERM": "xterm-256color", "NO_COLOR": ""], .palette256),
    ])
    func detectsCapability(environment: [String: String], expected: ColorCapability) {
        #expect(ColorCapability.detect(environment: environment) == expected)
    }

    @Test(arguments: [
        (["LANG": "C.UTF-8"], true),
        (["LANG": "en_US.utf8"], true),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], false),
        (["LC_ALL": "", "LC_CTYPE": "de_DE.UTF-8"], true),
        (["LANG": "C"], false),
        ([:], false),
    ])
    func detectsUnicode(environment: [String: String], expected: Bool) {
        #expect(TerminalCapabilities.detect(environment: environment).unicode == expected)
        #expect(Glyphs.for(TerminalCapabilities.detect(environment: environment)) == (expected ? .unicode : .ascii))
    }

    @Test func rgbDowngradesToNearestPaletteEntry() {
        #expect(Color.rgb(255, 0, 0).downgraded(to: .palette256) == .palette(196))
        #expect(Color.rgb(128, 128, 128).downgraded(to: .palette256) == .palette(244))
        #expect(Color.rgb(0, 0, 128).downgraded(to: .palette256) == .palette(18))
        #expect(Color.rgb(255, 255, 255).downgraded(to: .palette256) == .palette(231))
        #expect(Color.rgb(8, 8, 8).downgraded(to: .palette256) == .palette(232))
    }

    @Test func rgbDowngradesToNearestBasicColour() {
        #expect(Color.rgb(255, 0, 0).downgraded(to: .basic16) == .brightRed)
        #expect(Color.rgb(200, 10, 10).downgraded(to: .basic16) == .red)
        #expect(Color.rgb(0, 0, 128).downgraded(to: .basic16) == .blue)
        #expect(Color.rgb(250, 250, 250).downgraded(to: .basic16) == .brightWhite)
        #expect(Color.palette(196).downgraded(to: .basic16) == .brightRed)
        #expect(Color.palette(236).downgraded(to: .basic16) == .black)
    }

    @Test func colourIsKeptWhenTheTerminalCanShowIt() {
        #expect(Color.rgb(1, 2, 3).downgraded(to: .trueColor) == .rgb(1, 2, 3))
        #expect(Color.palette(100).downgraded(to: .palette256) == .palette(100))
        #expect(Color.green.downgraded(to: .basic16) == .green)
        #expect(Color.green.downgraded(to: .none) == nil)
        #expect(Color.rgb(1, 2, 3).downgraded(to: .none) == nil)
    }

    @Test func parsesHex() {
        #expect(Color(hex: "#FF8000") == .rgb(255, 128, 0))
        #expect(Color(hex: "00ff7f") == .rgb(0, 255, 127))
        #expect(Color(hex: "#FF80") == nil)
        #expect(Color(hex: "#GG0000") == nil)
        #expect(Color(hex: "+12345") == nil)
        #expect(Color(hex: "１２３４５６") == nil)
    }

    @Test func paletteComponentsFollowXterm() {
        #expect(Color.palette(16).components == (0, 0, 0))
        #expect(Color.palette(231).components == (255, 255, 255))
        #expect(Color.palette(232).components == (8, 8, 8))
        #expect(Color.palette(255).components == (238, 238, 238))
        #expect(Color.red.components == (205, 0, 0))
    }
}
