/// How text tracks are drawn (`textTrackStyle`).
public struct TextTrackStyle: Codable, Sendable, Hashable {
    /// The font size scale; 1 is the default size.
    public var fontScale: Double?
    /// The text colour.
    public var foregroundColor: CastColor?
    /// The colour behind the text.
    public var backgroundColor: CastColor?
    /// The edge style of the characters.
    public var edgeType: TextTrackEdgeType?
    /// The edge colour.
    public var edgeColor: CastColor?
    /// The window shape.
    public var windowType: TextTrackWindowType?
    /// The window colour.
    public var windowColor: CastColor?
    /// The window corner radius in pixels, for rounded windows.
    public var windowRoundedCornerRadius: Double?
    /// A font family name.
    public var fontFamily: String?
    /// The generic font family.
    public var fontGenericFamily: TextTrackFontGenericFamily?
    /// The font style.
    public var fontStyle: TextTrackFontStyle?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        fontScale: Double? = nil,
        foregroundColor: CastColor? = nil,
        backgroundColor: CastColor? = nil,
        edgeType: TextTrackEdgeType? = nil,
        edgeColor: CastColor? = nil,
        windowType: TextTrackWindowType? = nil,
        windowColor: CastColor? = nil,
        windowRoundedCornerRadius: Double? = nil,
        fontFamily: String? = nil,
        fontGenericFamily: TextTrackFontGenericFamily? = nil,
        fontStyle: TextTrackFontStyle? = nil,
        customData: JSONValue? = nil
    ) {
        self.fontScale = fontScale
        self.foregroundColor = foregroundColor
        self.backgroundColor = backgroundColor
        self.edgeType = edgeType
        self.edgeColor = edgeColor
        self.windowType = windowType
        self.windowColor = windowColor
        self.windowRoundedCornerRadius = windowRoundedCornerRadius
        self.fontFamily = fontFamily
        self.fontGenericFamily = fontGenericFamily
        self.fontStyle = fontStyle
        self.customData = customData
    }
}

extension TextTrackStyle: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            fontScale: try object.decodeIfPresent("fontScale"),
            foregroundColor: try object.decodeIfPresent("foregroundColor"),
            backgroundColor: try object.decodeIfPresent("backgroundColor"),
            edgeType: try object.decodeIfPresent("edgeType"),
            edgeColor: try object.decodeIfPresent("edgeColor"),
            windowType: try object.decodeIfPresent("windowType"),
            windowColor: try object.decodeIfPresent("windowColor"),
            windowRoundedCornerRadius: try object.decodeIfPresent("windowRoundedCornerRadius"),
            fontFamily: try object.decodeIfPresent("fontFamily"),
            fontGenericFamily: try object.decodeIfPresent("fontGenericFamily"),
            fontStyle: try object.decodeIfPresent("fontStyle"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension TextTrackStyle: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("fontScale", fontScale)
        try writer.member("foregroundColor", foregroundColor)
        try writer.member("backgroundColor", backgroundColor)
        try writer.member("edgeType", edgeType)
        try writer.member("edgeColor", edgeColor)
        try writer.member("windowType", windowType)
        try writer.member("windowColor", windowColor)
        try writer.member("windowRoundedCornerRadius", windowRoundedCornerRadius)
        try writer.member("fontFamily", fontFamily)
        try writer.member("fontGenericFamily", fontGenericFamily)
        try writer.member("fontStyle", fontStyle)
        try writer.member("customData", customData)
    }
}
