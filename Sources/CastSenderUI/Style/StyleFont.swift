/// Text attributes as plain values; each unset member comes from the parent node.
public struct StyleFont: Sendable, Hashable {
    /// A font weight.
    public struct Weight: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public static let ultraLight = Weight(rawValue: "ultraLight")
        public static let thin = Weight(rawValue: "thin")
        public static let light = Weight(rawValue: "light")
        public static let regular = Weight(rawValue: "regular")
        public static let medium = Weight(rawValue: "medium")
        public static let semibold = Weight(rawValue: "semibold")
        public static let bold = Weight(rawValue: "bold")
        public static let heavy = Weight(rawValue: "heavy")
        public static let black = Weight(rawValue: "black")

        public static let allCases: [Weight] = [
            .ultraLight, .thin, .light, .regular, .medium, .semibold, .bold, .heavy, .black,
        ]

        public var description: String { rawValue }
    }

    /// The family or font name, e.g. "Helvetica Neue".
    public var name: String?
    /// The size in points.
    public var size: Double?
    /// The weight.
    public var weight: Weight?

    /// Creates text attributes.
    public init(name: String? = nil, size: Double? = nil, weight: Weight? = nil) {
        self.name = name
        self.size = size
        self.weight = weight
    }

    /// These attributes with unset members taken from `parent`.
    public func inheriting(from parent: StyleFont?) -> StyleFont {
        guard let parent else { return self }
        return StyleFont(name: name ?? parent.name, size: size ?? parent.size, weight: weight ?? parent.weight)
    }
}
