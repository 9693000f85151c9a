import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

/// The settings: the values in force, where they are saved, the settings screen and the
/// editing of one field (a modal).
@MainActor
final class SettingsScreen {
    unowned let app: AppModel
    /// Where the settings are saved.
    let store: SettingsStore
    private(set) var settings: AppSettings
    /// The selected field.
    private var listState = ListState(count: AppSettings.Field.allCases.count)

    init(app: AppModel, store: SettingsStore, settings: AppSettings) {
        self.app = app
        self.store = store
        self.settings = settings
    }

    private var styles: AppStyles { app.styles }
    private var glyphs: Glyphs { app.glyphs }

    /// The settings screen's keys: ⏎ edits the selected field.
    func handle(_ event: KeyEvent) {
        switch event.key {
        case .escape, .backspace, .left:
            app.pop()
        case .enter:
            guard let index = listState.selection, let field = AppSettings.Field(rawValue: index) else { return }
            app.modal = .edit(field, text: settings.text(field), problem: nil)
        default:
            _ = listState.handle(event, visibleRows: 10)
        }
    }

    /// The keys of the modal that edits `field` (`text` typed so far): ⏎ saves a valid value,
    /// esc cancels.
    func handleEdit(_ event: KeyEvent, field: AppSettings.Field, text: String) {
        var text = text
        switch event.key {
        case .escape:
            app.modal = nil
        case .enter:
            if let problem = AppSettings.validate(field, text) {
                app.modal = .edit(field, text: text, problem: problem)
            } else {
                settings.set(field, text)
                save()
                app.modal = nil
                app.toast("\(field.title): \(settings.text(field))")
            }
        case .backspace:
            if !text.isEmpty { text.removeLast() }
            app.modal = .edit(field, text: text, problem: nil)
        default:
            if let character = event.key.character, event.modifiers.isDisjoint(with: [.control, .alt]),
                text.count < 64
            {
                text.append(character)
                app.modal = .edit(field, text: text, problem: nil)
            }
        }
    }

    /// Saves the settings and applies those the context reads.
    func save() {
        do {
            try store.save(settings)
        } catch {
            app.toast("Could not save settings: \(error.localizedDescription)")
        }
        app.context.options.logger.filter = settings.logFilter
        // Every widget and screen reads the context's picker each time: the choice holds at once.
        app.context.imagePicker = settings.imagePickerChoice.picker
    }

    /// The settings screen: the fields, then how pictures are drawn and chosen.
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) {
        let area = rect.inset(left: 2, right: 2)
        buffer.write("Settings", at: area.origin, style: styles.heading)
        buffer.write(
            "Saved in \(store.url.path)",
            at: Point(x: area.x, y: area.y + 1),
            style: styles.dim,
            clip: area
        )
        let fields = AppSettings.Field.allCases
        let listRect = Rect(
            x: area.x,
            y: area.y + 3,
            width: area.width,
            height: max(0, min(fields.count, area.height - 3))
        )
        let settings = self.settings
        buffer.drawList(in: listRect, state: &listState, selectedStyle: styles.selected, glyphs: glyphs) {
            buffer,
            index,
            row,
            selected in
            let field = fields[index]
            let value = settings.text(field)
            let text =
                TextLayout.pad(field.title, toWidth: 24) + TextLayout.pad(value.isEmpty ? "(all)" : value, toWidth: 16)
                + "  " + field.note
            buffer.write(
                TextLayout.truncate(
                    (selected ? glyphs.selectionMarker : " ") + " " + text,
                    toWidth: row.width,
                    ellipsis: glyphs.ellipsis
                ),
                at: row.origin,
                style: selected ? styles.selected : styles.body,
                clip: row
            )
        }
        var y = listRect.maxY + 1
        for line in settingsInformation(width: area.width) where y < area.maxY {
            buffer.write(
                TextLayout.truncate(line.text, toWidth: area.width, ellipsis: glyphs.ellipsis),
                at: Point(x: area.x, y: y),
                style: line.heading ? styles.heading : styles.dim,
                clip: area
            )
            y += 1
        }
    }

    /// What the settings screen tells beyond the fields: how pictures are drawn, the built-in
    /// media, and the image the picker chooses in each place for the selected video.
    private func settingsInformation(width: Int) -> [(text: String, heading: Bool)] {
        var lines: [(String, Bool)] = []
        let graphics = app.terminal.graphics
        let cells =
            app.terminal.capabilities.colors == .none
            ? "shades (no colour)" : "half blocks in \(app.terminal.capabilities.colors)"
        let drawing = graphics.graphicsProtocol.map { "\($0) (\(graphics.reason))" } ?? "\(cells) (\(graphics.reason))"
        lines.append(("Pictures: " + drawing, false))
        if let builtInMediaStatus = app.catalogScreen.builtInMediaStatus {
            lines.append(("Built-in media: " + builtInMediaStatus, false))
        }
        guard let item = app.catalogScreen.selectedItem else { return lines }
        lines.append(("", false))
        lines.append(("Image picker (\(settings.imagePickerChoice.rawValue)), by place, for “\(item.title)”:", true))
        for place in PicturePlace.allCases {
            let wanted = place.hints.preferredSize.map { "\($0)" } ?? "any size"
            let chosen: String
            if let metadata = item.mediaInformation.metadata,
                let image = place.image(from: metadata, picker: app.context.imagePicker)
            {
                let size = image.width.flatMap { width in image.height.map { "\(width)×\($0)" } } ?? "size unknown"
                chosen = "\(size)  \(image.url.split(separator: "/").suffix(2).joined(separator: "/"))"
            } else {
                chosen = "no image"
            }
            lines.append(
                (
                    "  " + TextLayout.pad(place.name, toWidth: 20)
                        + TextLayout.pad("\(place.hints.use) \(wanted)", toWidth: 30) + "→ " + chosen,
                    false
                )
            )
        }
        return lines
    }

    /// The modal that edits `field`, with `text` typed so far and the problem of the last try.
    func drawEdit(
        _ field: AppSettings.Field,
        text: String,
        problem: String?,
        into buffer: inout ScreenBuffer,
        in bounds: Rect
    ) {
        let width = min(bounds.width - 4, 60)
        let rect = bounds.centered(Size(width: width, height: problem == nil ? 6 : 7))
        let inner = buffer.drawModal(rect, title: field.title, glyphs: glyphs, style: styles.dialog)
        buffer.write(field.note, at: Point(x: inner.x + 1, y: inner.y), style: styles.dim, clip: inner)
        let shown = TextLayout.truncate(text, toWidth: max(0, inner.width - 4), ellipsis: glyphs.ellipsis)
        buffer.write("> " + shown, at: Point(x: inner.x + 1, y: inner.y + 2), style: styles.heading, clip: inner)
        buffer.cursor = Point(x: inner.x + 3 + TextLayout.width(of: shown), y: inner.y + 2)
        if let problem {
            buffer.write(problem, at: Point(x: inner.x + 1, y: inner.y + 3), style: styles.error, clip: inner)
        }
        buffer.write(
            "⏎ save  esc cancel",
            at: Point(x: inner.x + 1, y: inner.maxY - 1),
            style: styles.dim,
            clip: inner
        )
    }
}
