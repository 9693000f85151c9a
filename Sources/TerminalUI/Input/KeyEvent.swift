/// A key press: a key and the modifiers held with it.
public struct KeyEvent: Hashable, Sendable, CustomStringConvertible {
    /// The key.
    public var key: Key
    /// The modifiers held.
    public var modifiers: KeyModifiers

    /// Creates a key press.
    public init(_ key: Key, modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A character typed without modifiers.
    public static func character(_ character: Character) -> KeyEvent {
        KeyEvent(.character(character))
    }

    /// Control with a letter (given in lower case), such as `.control("c")` for Ctrl-C.
    public static func control(_ letter: Character) -> KeyEvent {
        KeyEvent(.character(letter), modifiers: .control)
    }

    public var description: String {
        var parts: [String] = []
        if modifiers.contains(.control) { parts.append("ctrl") }
        if modifiers.contains(.alt) { parts.append("alt") }
        if modifiers.contains(.shift) { parts.append("shift") }
        parts.append(key.description)
        return parts.joined(separator: "+")
    }
}
