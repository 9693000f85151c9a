/// A key on the keyboard, as decoded from the bytes a terminal sends.
///
/// `Key` is a struct with static members rather than an enum so that keys can be added
/// without breaking code that switches over them; match with `case .enter:` or
/// `case .character("q"):` and keep a `default:` branch. A character key's text is in
/// ``character``.
public struct Key: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case character(Character)
        case named(Named)
        case function(Int)
        case unknown([UInt8])
    }

    enum Named: Int, Hashable, Sendable {
        case enter, escape, backspace, tab, up, down, left, right, home, end, pageUp, pageDown, insert, delete
    }

    let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    /// A key that types a character (letters are reported in the case typed; with the Control
    /// modifier, in lower case).
    public static func character(_ character: Character) -> Key { Key(.character(character)) }
    /// A function key, F1 = 1.
    public static func function(_ number: Int) -> Key { Key(.function(number)) }
    /// A sequence the decoder did not recognise, with its bytes. Ignore it, or log it.
    public static func unknown(_ bytes: [UInt8]) -> Key { Key(.unknown(bytes)) }

    /// Enter or Return (CR, and LF).
    public static let enter = Key(.named(.enter))
    /// Escape, alone (after the escape timeout) or followed by another Escape.
    public static let escape = Key(.named(.escape))
    /// Backspace (DEL or BS).
    public static let backspace = Key(.named(.backspace))
    /// Tab; Shift-Tab is `.tab` with the ``KeyModifiers/shift`` modifier.
    public static let tab = Key(.named(.tab))
    /// The up arrow.
    public static let up = Key(.named(.up))
    /// The down arrow.
    public static let down = Key(.named(.down))
    /// The left arrow.
    public static let left = Key(.named(.left))
    /// The right arrow.
    public static let right = Key(.named(.right))
    /// Home.
    public static let home = Key(.named(.home))
    /// End.
    public static let end = Key(.named(.end))
    /// Page Up.
    public static let pageUp = Key(.named(.pageUp))
    /// Page Down.
    public static let pageDown = Key(.named(.pageDown))
    /// Insert.
    public static let insert = Key(.named(.insert))
    /// Delete (forward delete).
    public static let delete = Key(.named(.delete))

    /// The character typed, or `nil` for other keys.
    public var character: Character? {
        if case .character(let character) = storage { return character }
        return nil
    }

    /// Whether the decoder did not recognise the sequence.
    public var isUnknown: Bool {
        if case .unknown = storage { return true }
        return false
    }

    public var description: String {
        switch storage {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .function(let number): "F\(number)"
        case .unknown(let bytes): "unknown(\(bytes.map { String($0, radix: 16) }.joined(separator: " ")))"
        case .named(let named):
            switch named {
            case .enter: "enter"
            case .escape: "escape"
            case .backspace: "backspace"
            case .tab: "tab"
            case .up: "up"
            case .down: "down"
            case .left: "left"
            case .right: "right"
            case .home: "home"
            case .end: "end"
            case .pageUp: "pageup"
            case .pageDown: "pagedown"
            case .insert: "insert"
            case .delete: "delete"
            }
        }
    }
}
