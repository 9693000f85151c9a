import CastSync
import Foundation
import Testing

@testable import CastSenderUI

@Suite struct CastStyleTests {
    static let amber = StyleColor(hex: "#FFB000")!
    static let white = StyleColor(hex: "#FFFFFF")!
    static let navy = StyleColor(hex: "#101820")!
    static let slate = StyleColor(hex: "#202830")!

    @Test func hierarchy() {
        #expect(StyleNode.castViews.children == [.deviceControl, .mediaControl, .instructions])
        #expect(StyleNode.mediaControl.children == [.miniController, .expandedController, .trackSelector])
        #expect(StyleNode.deviceControl.children == [.deviceChooser, .connectionController])
        #expect(StyleNode.expandedController.lineage == [.expandedController, .mediaControl, .castViews])
        #expect(StyleNode.connectionController.lineage == [.connectionController, .deviceControl, .castViews])
    }

    @Test func codelabCascade() {
        let style = CastStyle()
        style.update(.castViews) {
            $0.iconTintColor = Self.amber
            $0.backgroundColor = Self.navy
            $0.headingTextFont = StyleFont(name: "Helvetica", size: 18, weight: .bold)
            $0.images[.play] = .glyph("▶")
        }
        style.update(.expandedController) { $0.iconTintColor = Self.white }
        style.update(.miniController) { $0.backgroundColor = Self.slate }
        style.update(.mediaControl) {
            $0.headingTextFont = StyleFont(size: 14)
            $0.images[.muteOn] = .named("custom-mute")
        }
        style.applyStyle()

        let expanded = style.resolved(for: .expandedController)
        #expect(expanded.iconTintColor == Self.white)
        #expect(expanded.backgroundColor == Self.navy)
        #expect(expanded.headingTextFont == StyleFont(name: "Helvetica", size: 14, weight: .bold))
        #expect(expanded.images == [.play: .glyph("▶"), .muteOn: .named("custom-mute")])

        let mini = style.resolved(for: .miniController)
        #expect(mini.iconTintColor == Self.amber && mini.backgroundColor == Self.slate)

        let chooser = style.resolved(for: .deviceChooser)
        #expect(chooser.iconTintColor == Self.amber)
        #expect(chooser.headingTextFont?.size == 18)
        #expect(chooser.images[.muteOn] == nil)
        #expect(style.resolved(for: .instructions).backgroundColor == Self.navy)
    }

    @Test func valuesAreSeenOnlyAfterApplyAndObserversHearOnce() {
        let style = CastStyle()
        let calls = Locked(0)
        let observation = style.addObserver { _ in calls.withLock { $0 += 1 } }
        style.update(.castViews) { $0.iconTintColor = Self.amber }
        style.update(.mediaControl) { $0.bodyTextColor = Self.white }
        style.update(.miniController) { $0.backgroundColor = Self.slate }
        #expect(style.resolved(for: .miniController).isEmpty)
        #expect(style.attributes(of: .castViews).iconTintColor == Self.amber)
        #expect(calls.withLock { $0 } == 0)
        style.applyStyle()
        #expect(calls.withLock { $0 } == 1)
        #expect(style.generation == 1)
        let mini = style.resolved(for: .miniController)
        #expect(
            mini.iconTintColor == Self.amber && mini.bodyTextColor == Self.white && mini.backgroundColor == Self.slate
        )

        style.update(.castViews) { $0.iconTintColor = Self.white }
        #expect(style.resolved(for: .miniController).iconTintColor == Self.amber)
        observation.cancel()
        style.applyStyle()
        #expect(calls.withLock { $0 } == 1)
        #expect(style.resolved(for: .miniController).iconTintColor == Self.white)
    }

    @Test func releasedObservationStopsNotifications() {
        let style = CastStyle()
        let calls = Locked(0)
        do {
            let observation = style.addObserver { _ in calls.withLock { $0 += 1 } }
            style.applyStyle()
            _ = observation
        }
        style.applyStyle()
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func applyPublishesTheGeneration() async {
        let style = CastStyle()
        var updates = style.updates().makeAsyncIterator()
        style.applyStyle()
        #expect(await updates.next() == 1)
    }

    @Test(arguments: [
        ("#FFB000", StyleColor(red: 255, green: 176, blue: 0)),
        ("#ffb00080", StyleColor(red: 255, green: 176, blue: 0, alpha: 128)),
    ])
    func colourParsing(text: String, color: StyleColor) {
        #expect(StyleColor(hex: text) == color)
        #expect(StyleColor(hex: color.hex) == color)
    }

    @Test(arguments: ["", "#", "FFB000", "#FFB00", "#FFB0000", "#GGGGGG", "#FFB000FF00", "#ＦＦＦＦＦＦ"])
    func malformedColours(text: String) {
        #expect(StyleColor(hex: text) == nil)
    }

    // MARK: Themes

    static let theme = """
        {
          "version": 1,
          "castViews": {
            "iconTintColor": "#FFB000",
            "backgroundColor": "#101820",
            "headingTextFont": {"name": "Helvetica", "size": 18, "weight": "bold"},
            "images": {"muteOn": {"named": "custom-mute"}, "play": {"glyph": "▶"}},
            "deviceControl": {"deviceChooser": {"bodyTextColor": "#CCCCCC"}, "connectionController": {}},
            "mediaControl": {
              "headingTextFont": {"size": 14},
              "miniController": {"backgroundColor": "#202830"},
              "expandedController": {"iconTintColor": "#FFFFFF", "sliderProgressColor": "#FF000080"},
              "trackSelector": {}
            },
            "instructions": {"captionTextFont": {"weight": "light"}}
          }
        }
        """

    @Test func themeFileIsAppliedAtOnce() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("theme.json")
        try Data(Self.theme.utf8).write(to: file)
        let style = CastStyle()
        let calls = Locked(0)
        let observation = style.addObserver { _ in calls.withLock { $0 += 1 } }
        try style.loadTheme(from: file)
        #expect(calls.withLock { $0 } == 1)
        let expanded = style.resolved(for: .expandedController)
        #expect(expanded.iconTintColor == Self.white)
        #expect(expanded.sliderProgressColor == StyleColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(expanded.headingTextFont == StyleFont(name: "Helvetica", size: 14, weight: .bold))
        #expect(expanded.images[.muteOn] == .named("custom-mute"))
        #expect(style.resolved(for: .miniController).backgroundColor == Self.slate)
        #expect(style.resolved(for: .deviceChooser).bodyTextColor == StyleColor(hex: "#CCCCCC"))
        #expect(style.resolved(for: .instructions).captionTextFont == StyleFont(weight: .light))
        observation.cancel()
    }

    @Test(arguments: [
        ("{\"castViews\": {\"iconTintColor\": \"#FFB000\"", ThemeError.Kind.invalidJSON, ""),
        ("[]", .wrongType, ""),
        ("{}", .wrongType, ""),
        ("{\"version\": 2, \"castViews\": {}}", .invalidValue, "version"),
        ("{\"castviews\": {}}", .unknownKey, "castviews"),
        ("{\"castViews\": []}", .wrongType, "castViews"),
        ("{\"castViews\": {\"iconTint\": \"#FFFFFF\"}}", .unknownKey, "castViews.iconTint"),
        ("{\"castViews\": {\"iconTintColor\": 12}}", .wrongType, "castViews.iconTintColor"),
        (
            "{\"castViews\": {\"mediaControl\": {\"iconTintColor\": \"blue\"}}}", .invalidValue,
            "castViews.mediaControl.iconTintColor"
        ),
        ("{\"castViews\": {\"miniController\": {}}}", .unknownKey, "castViews.miniController"),
        ("{\"castViews\": {\"bodyTextFont\": {\"size\": -3}}}", .invalidValue, "castViews.bodyTextFont.size"),
        ("{\"castViews\": {\"bodyTextFont\": {\"size\": \"big\"}}}", .wrongType, "castViews.bodyTextFont.size"),
        ("{\"castViews\": {\"bodyTextFont\": {\"weight\": \"fat\"}}}", .invalidValue, "castViews.bodyTextFont.weight"),
        ("{\"castViews\": {\"bodyTextFont\": {\"style\": \"italic\"}}}", .unknownKey, "castViews.bodyTextFont.style"),
        ("{\"castViews\": {\"bodyTextFont\": \"Helvetica\"}}", .wrongType, "castViews.bodyTextFont"),
        ("{\"castViews\": {\"images\": {\"play\": \"▶\"}}}", .wrongType, "castViews.images.play"),
        ("{\"castViews\": {\"images\": {\"play\": {\"emoji\": \"▶\"}}}}", .unknownKey, "castViews.images.play.emoji"),
        ("{\"castViews\": {\"images\": []}}", .wrongType, "castViews.images"),
    ])
    func malformedThemesNameTheProblem(json: String, kind: ThemeError.Kind, path: String) {
        let style = CastStyle()
        style.update(.castViews) { $0.iconTintColor = Self.amber }
        style.applyStyle()
        #expect {
            try style.loadTheme(json: Array(json.utf8))
        } throws: { error in
            guard let error = error as? ThemeError else { return false }
            return error.kind == kind && error.path == path && !error.description.isEmpty
        }
        #expect(style.generation == 1)
        #expect(style.resolved(for: .castViews).iconTintColor == Self.amber)
    }

    @Test func syntaxErrorsCarryTheByteOffset() throws {
        do {
            try CastStyle().loadTheme(json: Array("{\"castViews\": {,}}".utf8))
            Issue.record("a malformed theme was accepted")
        } catch {
            #expect(error.kind == .invalidJSON)
            #expect(error.byteOffset == 15)
            #expect(error.description.contains("byte 15"))
        }
    }

    @Test func fileProblems() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: ThemeError(.unreadableFile, "")) {
            try CastStyle().loadTheme(from: directory.url.appendingPathComponent("missing.json"))
        }
        let big = directory.url.appendingPathComponent("big.json")
        try Data(count: CastStyle.maximumThemeSize + 1).write(to: big)
        #expect(throws: ThemeError(.fileTooLarge, "")) { try CastStyle().loadTheme(from: big) }
        #expect(ThemeError.Kind.invalidJSON.rawValue == 3)
    }

    @Test func deeplyNestedJSONIsRejected() {
        let json = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: ThemeError.self) { try CastStyle.parseTheme(Array(json.utf8)) }
    }
}
