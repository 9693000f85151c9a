/// Modifier keys held with a key.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Shift (reported with special keys only: a shifted letter arrives as its upper case).
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    /// Alt or Meta (the terminal sends ESC before the key).
    public static let alt = KeyModifiers(rawValue: 1 << 1)
    /// Control.
    public static let control = KeyModifiers(rawValue: 1 << 2)
}
