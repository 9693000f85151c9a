/// A modal dialog: a title, a message and a row of buttons, centred over the screen.
///
/// The dialog is a value the screen keeps while it is shown. Keys move between buttons
/// (left/right, Tab, Shift-Tab); Enter chooses the selected button and Escape cancels.
public struct Dialog: Hashable, Sendable {
    /// What a key did to the dialog.
    public enum Outcome: Hashable, Sendable {
        /// The button at this index was chosen.
        case chose(Int)
        /// The dialog was dismissed with Escape.
        case cancelled
    }

    /// The title shown in the border.
    public var title: String
    /// The message, wrapped to the dialog's width.
    public var message: String
    /// The button labels, left to right.
    public var buttons: [String]
    /// The index of the focused button.
    public var selectedButton: Int

    /// Creates a dialog.
    public init(title: String, message: String, buttons: [String] = ["OK"], selectedButton: Int = 0) {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.selectedButton = buttons.isEmpty ? 0 : min(max(0, selectedButton), buttons.count - 1)
    }

    /// Applies a key: returns an outcome for Enter and Escape, `nil` otherwise.
    public mutating func handle(_ event: KeyEvent) -> Outcome? {
        switch event.key {
        case .escape:
            return .cancelled
        case .enter:
            return buttons.isEmpty ? .cancelled : .chose(selectedButton)
        case .left:
            selectedButton = max(0, selectedButton - 1)
        case .right:
            selectedButton = min(max(0, buttons.count - 1), selectedButton + 1)
        case .tab:
            guard !buttons.isEmpty else { return nil }
            let step = event.modifiers.contains(.shift) ? buttons.count - 1 : 1
            selectedButton = (selectedButton + step) % buttons.count
        default:
            break
        }
        return nil
    }

    /// The labels as drawn: `[ OK ]`.
    private var buttonLabels: [String] { buttons.map { "[ \($0) ]" } }

    /// The dialog's rectangle on a screen: wide enough for the title and buttons, at most
    /// `maxWidth` columns and never wider than the screen less two columns each side.
    public func frame(in screen: Rect, maxWidth: Int = 60) -> Rect {
        let buttonsWidth = buttonLabels.reduce(0) { $0 + TextLayout.width(of: $1) } + max(0, buttons.count - 1) * 2
        let longestLine = message.split(separator: "\n").map { TextLayout.width(of: $0) }.max() ?? 0
        let wanted = max(TextLayout.width(of: title) + 6, buttonsWidth + 4, longestLine + 4, 20)
        let width = min(wanted, maxWidth, max(0, screen.width - 4))
        let lines = TextLayout.wrap(message, width: max(1, width - 4)).count
        let height = min(lines + (buttons.isEmpty ? 2 : 4), screen.height)
        return screen.centered(Size(width: width, height: height))
    }

    /// Draws the dialog centred in `screen` and returns its rectangle.
    @discardableResult
    public func draw(
        into buffer: inout ScreenBuffer,
        in screen: Rect,
        glyphs: Glyphs = .unicode,
        style: TextStyle = .plain,
        buttonStyle: TextStyle = .plain,
        selectedButtonStyle: TextStyle = .reverse
    ) -> Rect {
        let rect = frame(in: screen)
        let inner = buffer.drawModal(rect, title: title, glyphs: glyphs, style: style)
        let textArea = inner.inset(left: 1, right: 1)
        let maxLines = max(0, inner.height - (buttons.isEmpty ? 0 : 2))
        let lines = TextLayout.wrap(
            message,
            width: max(1, textArea.width),
            maxLines: maxLines,
            ellipsis: glyphs.ellipsis
        )
        for (index, line) in lines.enumerated() {
            buffer.write(line, at: Point(x: textArea.x, y: textArea.y + index), style: style, clip: textArea)
        }
        guard !buttons.isEmpty, inner.height >= 1 else { return rect }
        let labels = buttonLabels
        let total = labels.reduce(0) { $0 + TextLayout.width(of: $1) } + (labels.count - 1) * 2
        var x = inner.x + max(0, (inner.width - total) / 2)
        let y = inner.maxY - 1
        for (index, label) in labels.enumerated() {
            let labelStyle = index == selectedButton ? selectedButtonStyle : buttonStyle
            x += buffer.write(label, at: Point(x: x, y: y), style: labelStyle, clip: inner) + 2
        }
        return rect
    }
}
