import CastCore
import CastSender
import CastSenderUI
import TerminalUI

/// The Cast dialog's device chooser (`DeviceChooserModel`): open while the dialog shows, its
/// updates drawn as they come, the selection, and connecting to the chosen device.
@MainActor
final class DevicePicker {
    unowned let app: AppModel
    /// The chooser while the dialog is open.
    private(set) var chooser: DeviceChooserModel? {
        didSet {
            chooserTask?.cancel()
            chooserTask = nil
            guard let chooser else { return }
            let updates = chooser.updates()
            let render: @Sendable () -> Void = { [terminal = app.terminal] in terminal.requestRender() }
            chooserTask = Task {
                for await _ in updates { render() }
            }
        }
    }
    private var chooserTask: Task<Void, Never>?
    /// The selected device.
    private var listState = ListState()

    init(app: AppModel) {
        self.app = app
    }

    private var styles: AppStyles { app.styles }
    private var glyphs: Glyphs { app.glyphs }

    /// Opens the chooser over the screen.
    func open() {
        let chooser = DeviceChooserModel(context: app.context)
        self.chooser = chooser
        listState = ListState(count: chooser.state.devices.count)
        app.modal = .chooser
    }

    /// Lets the chooser go (the dialog closed or the session connected).
    func close() {
        chooser = nil
    }

    /// The chooser's keys: ⏎ connects to the selected device, `r` searches again.
    func handle(_ event: KeyEvent) {
        guard let chooser else {
            app.modal = nil
            return
        }
        let devices = chooser.state.devices
        listState.setCount(devices.count)
        switch event.key {
        case .escape, .character("c"):
            app.modal = nil
            close()
        case .enter:
            guard let index = listState.selection, devices.indices.contains(index) else { return }
            let device = devices[index]
            // Shown until the session started or failed (withdrawn then), however long that takes.
            app.toast(connectingToast(device.name), seconds: 60)
            // The session listener reports the outcome (didStart / didFailToStart).
            Task { try? await chooser.select(device.id) }
        case .character("r"):
            chooser.retry()
            app.toast("Looking for devices again…")
        default:
            _ = listState.handle(event, visibleRows: 8)
        }
    }

    /// The note shown while a session starts; withdrawn when it started or failed.
    func connectingToast(_ name: String) -> String { "Connecting to \(name)…" }

    /// The chooser, over the screen.
    func draw(into buffer: inout ScreenBuffer, in bounds: Rect) {
        guard let chooser else { return }
        let state = chooser.state
        let width = min(60, bounds.width - 4)
        var body: [String] = []
        switch state.phase {
        case .searching:
            body = ["Looking for devices…"]
        case .noDevices(let guidance):
            body = [guidance.title] + TextLayout.wrap(guidance.message, width: max(1, width - 4))
            body += guidance.reasons.map { "• \($0.title)" }
            body.append("Press r to \(guidance.retryTitle.lowercased()).")
        case .devices:
            body = []
        }
        // Without discovery the chooser says why: the reason discovery could not start.
        let status: String
        if state.isDiscoveryActive {
            status = "Discovery is on"
        } else if let reason = app.discoveryFailure {
            status = "Discovery could not start: \(reason)"
        } else {
            status = "Known devices only (discovery off)"
        }
        let statusLines = Array(TextLayout.wrap(status, width: max(1, width - 4)).prefix(4))
        let rows = state.phase == .devices ? max(1, state.devices.count) : body.count
        let height = min(bounds.height - 2, rows + 4 + statusLines.count + (state.errorMessage == nil ? 0 : 1))
        let rect = bounds.centered(Size(width: width, height: height))
        let inner = buffer.drawModal(rect, title: "Cast to a device", glyphs: glyphs, style: styles.dialog)
        for (index, line) in statusLines.enumerated() {
            buffer.write(
                line,
                at: Point(x: inner.x + 1, y: inner.y + index),
                style: app.discoveryFailure == nil || state.isDiscoveryActive ? styles.dim : styles.error,
                clip: inner
            )
        }
        let listTop = inner.y + statusLines.count + 1
        let listRect = Rect(x: inner.x, y: listTop, width: inner.width, height: max(0, inner.maxY - 1 - listTop))
        if state.phase == .devices {
            let devices = state.devices
            if listState.count != devices.count { listState.setCount(devices.count) }
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
                let device = devices[index]
                var text = "\(selected ? glyphs.selectionMarker : " ") ▭ \(device.name)"
                text += AppModel.groupNote(for: device)
                if device.id == state.connectingDeviceID {
                    text += " — connecting…"
                } else if let status = device.statusText, !status.isEmpty {
                    text += " — \(status)"
                }
                buffer.write(
                    TextLayout.truncate(text, toWidth: row.width, ellipsis: glyphs.ellipsis),
                    at: row.origin,
                    style: selected ? styles.selected : styles.dialog,
                    clip: row
                )
            }
        } else {
            for (index, line) in body.prefix(listRect.height).enumerated() {
                buffer.write(
                    line,
                    at: Point(x: listRect.x + 1, y: listRect.y + index),
                    style: styles.dialog,
                    clip: listRect
                )
            }
        }
        if let error = state.errorMessage {
            buffer.write(error, at: Point(x: inner.x + 1, y: inner.maxY - 2), style: styles.error, clip: inner)
        }
        buffer.write(
            "⏎ connect  r search again  esc close",
            at: Point(x: inner.x + 1, y: inner.maxY - 1),
            style: styles.dim,
            clip: inner
        )
    }
}
