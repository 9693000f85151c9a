import CastSenderUI
import TerminalUI

extension AppStyles {
    /// Takes the Cast views' colours, fonts and button glyphs from the widget style (as
    /// resolved through its cascade: all Cast views → media controls → mini / expanded).
    mutating func apply(_ style: CastStyle) {
        let root = style.resolved(for: .castViews)
        if let tint = root.iconTintColor.map(Color.init) {
            iconTint = tint
            castButton = castButton.foreground(tint)
        }
        if let background = root.backgroundColor.map(Color.init) {
            castButton = castButton.background(background)
        }
        castHeading = Self.text(base: castHeading, color: root.headingTextColor, font: root.headingTextFont)

        let chooser = style.resolved(for: .deviceChooser)
        dialog = Self.text(base: dialog, color: chooser.bodyTextColor, font: nil).background(
            chooser.backgroundColor.map(Color.init)
        )

        let mediaControl = style.resolved(for: .mediaControl)
        mediaControlHeading = Self.text(
            base: mediaControlHeading,
            color: mediaControl.headingTextColor,
            font: mediaControl.headingTextFont
        )

        let mini = style.resolved(for: .miniController)
        if let background = mini.backgroundColor.map(Color.init) {
            miniController = miniController.background(background)
        }
        if let text = mini.bodyTextColor.map(Color.init) {
            miniController = miniController.foreground(text)
        }

        let expanded = style.resolved(for: .expandedController)
        expandedController = Self.text(base: .plain, color: expanded.bodyTextColor, font: nil)
            .background(expanded.backgroundColor.map(Color.init))
        if let tint = expanded.iconTintColor.map(Color.init), tint != iconTint {
            expandedIconTint = tint
        }
        for button in [StyleButton.play, .pause, .stop, .skipNext, .skipPrevious, .forward30Seconds, .rewind30Seconds] {
            if case .glyph(let glyph)? = expanded.images[button] { buttonGlyphs[button.rawValue] = glyph }
        }
    }

    private static func text(base: TextStyle, color: StyleColor?, font: StyleFont?) -> TextStyle {
        var style = base
        if let color { style = style.foreground(Color(color)) }
        if let weight = font?.weight {
            let bold: Set<StyleFont.Weight> = [.semibold, .bold, .heavy, .black]
            if bold.contains(weight) {
                style = style.adding(.bold)
            } else {
                style.attributes.remove(.bold)
            }
        }
        return style
    }

    /// The glyph of a media button: the style's, else `fallback`.
    func glyph(_ button: StyleButton, _ fallback: String) -> String {
        buttonGlyphs[button.rawValue] ?? fallback
    }
}

extension Color {
    init(_ color: StyleColor) {
        self = .rgb(color.red, color.green, color.blue)
    }
}
