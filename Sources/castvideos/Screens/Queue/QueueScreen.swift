import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

/// The queue screen: the device's queue, its selection, and the keys that jump to, remove and
/// move items.
@MainActor
final class QueueScreen {
    unowned let app: AppModel
    /// The selection and scroll position.
    private var state = ListState()

    init(app: AppModel) {
        self.app = app
    }

    private var styles: AppStyles { app.styles }
    private var glyphs: Glyphs { app.glyphs }

    /// Opens the queue screen on the item playing (the queue is the device's: connected only).
    func open() {
        guard let client = app.remoteClient else {
            app.toast("The queue is on the Cast device: connect first")
            return
        }
        state = ListState(count: client.mediaQueue.itemCount)
        if let current = client.mediaStatus?.currentItemID, let index = client.mediaQueue.index(ofItemID: current) {
            state.select(index)
        }
        app.push(.queue)
    }

    /// The queue screen's keys.
    func handle(_ event: KeyEvent) {
        guard let client = app.remoteClient else {
            app.pop()
            return
        }
        let ids = client.mediaQueue.itemIDs
        state.setCount(ids.count)
        let selected = state.selection.flatMap { ids.indices.contains($0) ? ids[$0] : nil }
        switch event.key {
        case .escape, .backspace:
            app.pop()
        case .enter:
            if let selected { app.report(client.queueJumpToItem(withID: selected), failure: "Jump failed") }
        case .character("d"), .delete:
            if let selected { app.report(client.queueRemoveItems(withIDs: [selected]), failure: "Remove failed") }
        case .character("["), .character("K"):
            guard let selected, let index = state.selection, index > 0 else { return }
            app.report(
                client.queueReorderItems(withIDs: [selected], insertBeforeItemID: ids[index - 1]),
                failure: "Move failed"
            )
            state.select(index - 1)
        case .character("]"), .character("J"):
            guard let selected, let index = state.selection, index + 1 < ids.count else { return }
            let before = index + 2 < ids.count ? ids[index + 2] : MediaQueueItemID.invalid
            app.report(
                client.queueReorderItems(withIDs: [selected], insertBeforeItemID: before),
                failure: "Move failed"
            )
            state.select(index + 1)
        case .character(" "):
            app.expandedControls.togglePlayPause()
        default:
            _ = state.handle(event, visibleRows: 10)
        }
    }

    /// The queue on the device, the item playing marked.
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) {
        let area = rect.inset(left: 2, right: 2)
        guard let client = app.remoteClient else {
            buffer.write("Not connected.", at: area.origin, style: styles.dim)
            return
        }
        let queue = client.mediaQueue
        let count = queue.itemCount
        buffer.write(
            "Queue on \(app.session?.device.friendlyName ?? "device") — \(count) item\(count == 1 ? "" : "s")",
            at: area.origin,
            style: styles.heading,
            clip: area
        )
        if state.count != count { state.setCount(count) }
        let listRect = Rect(x: area.x, y: area.y + 2, width: area.width, height: max(0, area.height - 2))
        guard count > 0 else {
            buffer.write("The queue is empty.", at: listRect.origin, style: styles.dim, clip: listRect)
            return
        }
        let current = client.mediaStatus?.currentItemID
        buffer.drawList(in: listRect, state: &state, selectedStyle: styles.selected, glyphs: glyphs) {
            buffer,
            index,
            row,
            selected in
            let item = queue.item(at: index)
            let id = queue.itemID(at: index)
            let playing = id != nil && id == current
            let title = item?.media?.metadata?.title ?? "Loading…"
            let duration = item?.media?.duration.map { TimeFormat.string(seconds: $0) } ?? ""
            let marker = playing ? "▶" : " "
            let text = "\(selected ? glyphs.selectionMarker : " ") \(marker) \(index + 1). \(title)"
            buffer.write(
                TextLayout.truncate(text, toWidth: max(0, row.width - 8), ellipsis: glyphs.ellipsis),
                at: row.origin,
                style: selected ? styles.selected : styles.body,
                clip: row
            )
            buffer.write(
                duration,
                at: Point(x: row.maxX - TextLayout.width(of: duration) - 1, y: row.y),
                style: selected ? styles.selected : styles.dim,
                clip: row
            )
        }
    }
}
