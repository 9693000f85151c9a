/// The image of a button: a named image of the front end's asset set, or a glyph string
/// (text front ends draw it as is).
public enum StyleImage: Sendable, Hashable {
    /// An image the front end looks up by name.
    case named(String)
    /// A string to draw, e.g. "▶" or "⏸".
    case glyph(String)
}
