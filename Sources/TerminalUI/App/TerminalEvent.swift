/// Something the app loop hands to the app.
public enum TerminalEvent: Hashable, Sendable {
    /// A key was pressed.
    case key(KeyEvent)
    /// The terminal changed size; the screen buffer already has the new size.
    case resize(Size)
    /// The app asked for a new frame with ``TerminalApp/requestRender()``.
    case refresh
    /// The input reached its end (or failed): no more keys will come.
    case inputClosed
}
