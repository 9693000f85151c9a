import TerminalUI

/// The colours and attributes the app draws with. The Cast widgets' part (Cast button, mini
/// and expanded controllers, dialogs) can be changed by a theme file.
struct AppStyles: Sendable {
    var header = TextStyle(foreground: .brightWhite, background: .blue, attributes: .bold)
    var footer = TextStyle.reverse
    var body = TextStyle.plain
    var dim = TextStyle.dim
    var heading = TextStyle.bold
    var selected = TextStyle.reverse
    var error = TextStyle(foreground: .brightRed, attributes: .bold)
    var toast = TextStyle(foreground: .black, background: .yellow)
    /// The Cast button in the header.
    var castButton = TextStyle(foreground: .brightWhite, background: .blue, attributes: .bold)
    /// Icons (▶ ⏸ ■) in every Cast view.
    var iconTint: Color? = .brightCyan
    /// The docked mini controller.
    var miniController = TextStyle(foreground: .brightWhite, background: .brightBlack)
    /// The expanded controller's background and text.
    var expandedController = TextStyle.plain
    /// Icons in the expanded controller only (overrides ``iconTint``).
    var expandedIconTint: Color?
    /// Titles in the Cast views.
    var castHeading = TextStyle.bold
    /// Smaller headings in the media controls.
    var mediaControlHeading = TextStyle.bold
    /// Dialogs and the device chooser.
    var dialog = TextStyle.plain
    /// Glyphs of media buttons set by the theme, by button name.
    var buttonGlyphs: [String: String] = [:]
}
