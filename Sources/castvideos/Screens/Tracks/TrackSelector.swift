import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

/// The track selector over the expanded controller (`t`): the audio and text tracks of the
/// media playing and the subtitle styles, chosen through the widget's track selection.
@MainActor
final class TrackSelector {
    unowned let app: AppModel
    /// The selected row.
    private var listState = ListState()

    init(app: AppModel) {
        self.app = app
    }

    /// The track selection of the expanded controller.
    private var selection: TrackSelectionModel { app.container.expandedController.trackSelection }

    private var styles: AppStyles { app.styles }
    private var glyphs: Glyphs { app.glyphs }

    /// One row of the track selector.
    enum TrackRow: Equatable {
        case textOff
        case text(Int)
        case audio(Int)
        case style(TextTrackStylePreset)
    }

    /// The rows: subtitles off and each text track, each audio track, then the subtitle styles.
    var rows: [TrackRow] {
        let state = selection.state
        /// The rows: subtitles off and each text track, each audio track, then the subtitle styles.
        var rows: [TrackRow] = []
        if !state.textTracks.isEmpty {
            rows.append(.textOff)
            rows += state.textTracks.map { .text($0.id) }
        }
        rows += state.audioTracks.map { .audio($0.id) }
        if !state.textTracks.isEmpty { rows += state.stylePresets.map { .style($0) } }
        return rows
    }

    /// `t` in the expanded controller: the track selector.
    func open() {
        let state = selection.state
        guard state.hasTracks else {
            app.flash("This video has no audio or text tracks to choose")
            return
        }
        listState = ListState(count: rows.count)
        app.modal = .tracks
    }

    /// The track selector's keys.
    func handle(_ event: KeyEvent) {
        let rows = self.rows
        listState.setCount(rows.count)
        switch event.key {
        case .escape, .character("t"):
            app.modal = nil
        case .enter:
            guard let index = listState.selection, rows.indices.contains(index) else { return }
            apply(rows[index])
        default:
            _ = listState.handle(event, visibleRows: 12)
        }
    }

    private func apply(_ row: TrackRow) {
        let state = selection.state
        let request: CastRequest?
        let message: String
        switch row {
        case .textOff:
            request = selection.selectTextTrack(nil)
            message = "Subtitles off"
        case .text(let id):
            request = selection.selectTextTrack(id)
            message = "Subtitles: \(state.textTracks.first { $0.id == id }?.title ?? "track \(id)")"
        case .audio(let id):
            request = selection.selectAudioTrack(id)
            message = "Audio: \(state.audioTracks.first { $0.id == id }?.title ?? "track \(id)")"
        case .style(let preset):
            request = selection.setTextTrackStyle(preset)
            message = "Subtitle style: \(preset.name)"
        }
        guard let request else {
            app.flash(state.inputEnabled ? "Already selected" : "Tracks cannot be changed now")
            return
        }
        app.report(request, failure: "Tracks failed")
        app.flash(message)
    }

    /// The selector, over the screen.
    func draw(into buffer: inout ScreenBuffer, in bounds: Rect) {
        let state = selection.state
        let rows = self.rows
        if listState.count != rows.count { listState.setCount(rows.count) }
        let width = min(56, bounds.width - 4)
        let rect = bounds.centered(Size(width: width, height: min(bounds.height - 2, rows.count + 5)))
        let inner = buffer.drawModal(rect, title: "Tracks", glyphs: glyphs, style: styles.dialog)
        let listRect = Rect(x: inner.x, y: inner.y, width: inner.width, height: max(0, inner.height - 1))
        buffer.drawList(
            in: listRect,
            state: &listState,
            style: styles.dialog,
            selectedStyle: styles.selected,
            glyphs: glyphs
        ) {
            buffer,
            index,
            row,
            selected in
            let text: String
            let active: Bool
            switch rows[index] {
            case .textOff:
                text = "Subtitles: Off"
                active = state.selectedTextTrackID == nil
            case .text(let id):
                text = "Subtitles: " + (state.textTracks.first { $0.id == id }?.title ?? "track \(id)")
                active = state.selectedTextTrackID == id
            case .audio(let id):
                text = "Audio: " + (state.audioTracks.first { $0.id == id }?.title ?? "track \(id)")
                active = state.selectedAudioTrackID == id
            case .style(let preset):
                text = "Subtitle style: \(preset.name)"
                active = state.selectedStylePresetID == preset.id
            }
            let line = "\(selected ? glyphs.selectionMarker : " ") \(active ? "●" : "○") \(text)"
            buffer.write(
                TextLayout.truncate(line, toWidth: row.width, ellipsis: glyphs.ellipsis),
                at: row.origin,
                style: selected ? styles.selected : styles.dialog,
                clip: row
            )
        }
        buffer.write(
            "⏎ choose  esc close",
            at: Point(x: inner.x + 1, y: inner.maxY - 1),
            style: styles.dim,
            clip: inner
        )
    }
}
