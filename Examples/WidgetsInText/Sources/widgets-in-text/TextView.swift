import CastSender
import CastSenderUI
import Dispatch
import Observation
import Synchronization

/// A view of three widget models drawn as lines of text: the Cast button, the device
/// chooser and the mini controller. It reads the models inside `withObservationTracking`, as
/// SwiftUI reads a view's body, and draws again whenever what it read changes.
final class TextView: Sendable {
    let button: CastButtonModel
    let chooser: DeviceChooserModel
    let mini: MiniControllerModel
    /// Draws run one after the other here, as on a UI toolkit's main thread.
    private let queue = DispatchQueue(label: "widgets-in-text.view")
    private let lastFrame = Mutex("")

    init(button: CastButtonModel, chooser: DeviceChooserModel, mini: MiniControllerModel) {
        self.button = button
        self.chooser = chooser
        self.mini = mini
    }

    /// Draws now, and again after every change of what the drawing read.
    func start() {
        queue.async { self.draw() }
    }

    private func draw() {
        let frame = withObservationTracking {
            body()
        } onChange: { [self] in
            // Called as the change happens: draw again once it is done.
            queue.async { self.draw() }
        }
        let changed = lastFrame.withLock { last in
            defer { last = frame }
            return last != frame
        }
        if changed { print(frame + "\n") }
    }

    /// The lines, from the models' states.
    private func body() -> String {
        var lines = ["Cast button: \(button.state.buttonState)"]
        let devices = chooser.state.devices.map(\.name)
        lines.append("Devices: " + (devices.isEmpty ? "searching…" : devices.joined(separator: ", ")))
        let mini = mini.state
        if mini.isVisible {
            let symbol =
                switch mini.playPause.action {
                case .pause: "▶"  // playing: the button would pause
                case .play: "⏸"
                case .none: "…"
                }
            let progress = mini.progress.map { " \(Int($0 * 100))%" } ?? ""
            lines.append("Mini controller: \(symbol) \(mini.title ?? "")\(progress)")
        } else {
            lines.append("Mini controller: hidden")
        }
        return lines.joined(separator: "\n")
    }
}
