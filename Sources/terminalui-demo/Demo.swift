import Glibc
import TerminalUI

/// A small full-screen program that shows the toolkit's widgets and reacts to keys.
///
/// Keys: arrows, Page Up/Down, Home/End move in the list; Enter shows a toast; `d` opens a
/// dialog; `+`/`-` move the seek bar; `x` crashes on purpose (to check that the terminal is
/// restored); `q` or Ctrl-C quits.
@main
struct Demo {
    static func main() async {
        // Let the signals that restore the terminal through, whatever mask the parent left.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            sigaddset(&signals, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)

        let app = TerminalApp()
        let glyphs = Glyphs.for(app.capabilities)
        let items = (1...40).map { "Item \($0)" } + ["Wide: 日本語のテキスト", "Emoji: 🎬 film"]
        var list = ListState(count: items.count)
        var toasts = ToastQueue<ContinuousClock.Instant>()
        var dialog: Dialog?
        var lastKey = "none"
        var position = 83.0
        var keyCount = 0

        do {
            try await app.run { screen in
                let rows = screen.bounds.stackVertically([.fixed(1), .flexible, .fixed(1), .fixed(1), .fixed(1)])
                screen.drawStatusBar(in: rows[0], leading: "TerminalUI demo", trailing: "keys: \(keyCount)")
                let columns = rows[1].stackHorizontally([.flexible(weight: 2), .flexible(weight: 3)], spacing: 1)
                let listArea = screen.drawBox(columns[0], border: glyphs.box, title: "Items", ellipsis: glyphs.ellipsis)
                screen.drawList(items, in: listArea, state: &list, glyphs: glyphs)
                let info = screen.drawBox(columns[1], border: glyphs.box, title: "Details", ellipsis: glyphs.ellipsis)
                let text = "Selected: \(items[list.selection ?? 0]). Last key: \(lastKey)."
                for (index, line) in TextLayout.wrap(text, width: info.width, maxLines: info.height).enumerated() {
                    screen.write(line, at: Point(x: info.x, y: info.y + index), clip: info)
                }
                screen.write(
                    SeekBar(position: position, duration: 600, style: glyphs.bar).render(width: rows[2].width),
                    at: rows[2].origin
                )
                if let message = toasts.message(at: .now) {
                    screen.drawToast(message, in: rows[3], ellipsis: glyphs.ellipsis)
                }
                screen.drawStatusBar(
                    in: rows[4],
                    leading: "q quit  d dialog  enter toast",
                    trailing: "\(screen.size)",
                    style: .dim
                )
                dialog?.draw(into: &screen, in: screen.bounds, glyphs: glyphs)
            } handle: { event in
                guard case .key(let key) = event else { return }
                keyCount += 1
                lastKey = key.description
                if var shown = dialog {
                    if let outcome = shown.handle(key) {
                        dialog = nil
                        toasts.post(outcome == .chose(0) ? "Confirmed" : "Cancelled", now: .now)
                    } else {
                        dialog = shown
                    }
                    return
                }
                if list.handle(key, visibleRows: 10) { return }
                switch key.key {
                case .character("q"):
                    app.stop()
                case .character("d"):
                    dialog = Dialog(title: "Confirm", message: "Do the thing?", buttons: ["Yes", "No"])
                case .enter:
                    toasts.post("Toast for \(items[list.selection ?? 0])", duration: .seconds(2), now: .now)
                    Task {
                        try? await Task.sleep(for: .seconds(2.1))
                        app.requestRender()
                    }
                case .character("+"):
                    position = min(600, position + 30)
                case .character("-"):
                    position = max(0, position - 30)
                case .character("x"):
                    fatalError("crash requested with the x key")
                default:
                    break
                }
            }
            print("terminalui-demo: exited after \(keyCount) keys")
        } catch {
            print("terminalui-demo: \(error)")
            exit(1)
        }
    }
}
