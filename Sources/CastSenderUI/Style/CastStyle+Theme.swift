import CastCore
import CastNet
public import Foundation

/// Theme files: the style as JSON, loaded with ``CastStyle/loadTheme(from:)``.
///
/// The file is one object whose only required member is `castViews`. Each node object holds
/// attributes and its child nodes, nested as in ``StyleNode``:
///
/// ```json
/// {
///   "version": 1,
///   "castViews": {
///     "iconTintColor": "#FFB000",
///     "backgroundColor": "#101820",
///     "headingTextFont": {"name": "Helvetica", "size": 18, "weight": "bold"},
///     "images": {"muteOn": {"named": "custom-mute"}, "play": {"glyph": "▶"}},
///     "deviceControl": {"deviceChooser": {}, "connectionController": {}},
///     "mediaControl": {
///       "headingTextFont": {"size": 14},
///       "miniController": {"backgroundColor": "#202830"},
///       "expandedController": {"iconTintColor": "#FFFFFF"},
///       "trackSelector": {}
///     },
///     "instructions": {}
///   }
/// }
/// ```
///
/// - Colours (`backgroundColor`, `iconTintColor`, `headingTextColor`, `bodyTextColor`,
///   `buttonTextColor`, `captionTextColor`, `sliderProgressColor`,
///   `sliderSecondaryProgressColor`, `sliderUnseekableProgressColor`,
///   `sliderTooltipBackgroundColor`, `liveIndicatorColor`): `"#RRGGBB"` or `"#RRGGBBAA"`.
/// - Text (`headingTextFont`, `bodyTextFont`, `buttonTextFont`, `captionTextFont`): an object
///   with any of `name` (string), `size` (number, 1–200 points) and `weight` (one of
///   ``StyleFont/Weight``'s names).
/// - `images`: button name (``StyleButton``: `play`, `pause`, `stop`, `muteOn`, `muteOff`,
///   `skipNext`, `skipPrevious`, `forward30Seconds`, `rewind30Seconds`, `closedCaptions`,
///   or an app's own) → `{"named": "..."}` or `{"glyph": "..."}`.
///
/// Unknown keys are errors, so that a misspelt attribute does not pass silently.
extension CastStyle {
    /// The largest theme file read.
    public static let maximumThemeSize = 1 << 20

    /// Loads a theme file and applies it at once, replacing every value set before.
    /// - Throws: ``ThemeError`` naming the file problem, the JSON syntax error's byte offset,
    ///   or the path of the offending value. Nothing changes when it throws.
    public func loadTheme(from url: URL) throws(ThemeError) {
        let data: [UInt8]
        do {
            // Opened non-blocking and checked to be a regular file: a FIFO is refused at once.
            data = try LocalFile.read(path: url.path, limit: Self.maximumThemeSize)
        } catch {
            if case .tooLarge = error.kind {
                throw ThemeError(.fileTooLarge, "\(url.path) is larger than 1 MiB; themes are limited to 1 MiB")
            }
            throw ThemeError(.unreadableFile, "cannot read \(error)")
        }
        try loadTheme(json: data)
    }

    /// Parses theme JSON (see the format above) and applies it at once.
    /// - Throws: ``ThemeError``; nothing changes when it throws.
    public func loadTheme(json: [UInt8]) throws(ThemeError) {
        setAll(try Self.parseTheme(json))
        applyStyle()
    }

    /// Parses theme JSON into attributes per node without applying them.
    /// - Throws: ``ThemeError``.
    public static func parseTheme(_ json: [UInt8]) throws(ThemeError) -> [StyleNode: StyleAttributes] {
        guard json.count <= maximumThemeSize else {
            throw ThemeError(.fileTooLarge, "the theme has \(json.count) bytes; themes are limited to 1 MiB")
        }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: json, maximumDepth: 16)
        } catch {
            throw ThemeError(.invalidJSON, byteOffset: error.byteOffset, "not valid JSON: \(error.detail)")
        }
        guard case .object(let members) = root else {
            throw ThemeError(.wrongType, "expected an object with a 'castViews' member, got \(kind(of: root))")
        }
        var nodes: [StyleNode: StyleAttributes] = [:]
        for (key, value) in members {
            switch key {
            case "version":
                guard value.intValue == 1 else {
                    throw ThemeError(.invalidValue, path: key, "only version 1 is known, got \(value)")
                }
            case StyleNode.castViews.rawValue:
                try parseNode(.castViews, value, path: key, into: &nodes)
            default:
                throw ThemeError(.unknownKey, path: key, "unknown key '\(key)'; expected 'castViews' or 'version'")
            }
        }
        guard members[StyleNode.castViews.rawValue] != nil else {
            throw ThemeError(.wrongType, "the theme has no 'castViews' object")
        }
        return nodes
    }

    private static func parseNode(
        _ node: StyleNode,
        _ value: JSONValue,
        path: String,
        into nodes: inout [StyleNode: StyleAttributes]
    ) throws(ThemeError) {
        guard case .object(let members) = value else {
            throw ThemeError(.wrongType, path: path, "expected an object of attributes, got \(kind(of: value))")
        }
        var attributes = StyleAttributes()
        for key in members.keys.sorted() {
            let member = members[key]!
            let memberPath = "\(path).\(key)"
            if let child = node.children.first(where: { $0.rawValue == key }) {
                try parseNode(child, member, path: memberPath, into: &nodes)
            } else if let color = StyleAttributes.colors.first(where: { $0.name == key }) {
                attributes[keyPath: color.path] = try parseColor(member, path: memberPath)
            } else if let font = StyleAttributes.fonts.first(where: { $0.name == key }) {
                attributes[keyPath: font.path] = try parseFont(member, path: memberPath)
            } else if key == "images" {
                attributes.images = try parseImages(member, path: memberPath)
            } else {
                let children = node.children.map(\.rawValue).joined(separator: ", ")
                throw ThemeError(
                    .unknownKey,
                    path: memberPath,
                    "'\(key)' is no attribute\(children.isEmpty ? "" : " and no child node (\(children))") of \(node)"
                )
            }
        }
        nodes[node] = attributes
    }

    private static func parseColor(_ value: JSONValue, path: String) throws(ThemeError) -> StyleColor {
        guard case .string(let text) = value else {
            throw ThemeError(.wrongType, path: path, "expected a colour string \"#RRGGBB\", got \(kind(of: value))")
        }
        guard let color = StyleColor(hex: text) else {
            throw ThemeError(.invalidValue, path: path, "expected \"#RRGGBB\" or \"#RRGGBBAA\", got \"\(text)\"")
        }
        return color
    }

    private static func parseFont(_ value: JSONValue, path: String) throws(ThemeError) -> StyleFont {
        guard case .object(let members) = value else {
            throw ThemeError(
                .wrongType,
                path: path,
                "expected an object with name, size or weight, got \(kind(of: value))"
            )
        }
        var font = StyleFont()
        for (key, member) in members {
            let memberPath = "\(path).\(key)"
            switch key {
            case "name":
                guard case .string(let name) = member, !name.isEmpty else {
                    throw ThemeError(
                        .wrongType,
                        path: memberPath,
                        "expected a non-empty string, got \(kind(of: member))"
                    )
                }
                font.name = name
            case "size":
                guard let size = member.doubleValue else {
                    throw ThemeError(
                        .wrongType,
                        path: memberPath,
                        "expected a number of points, got \(kind(of: member))"
                    )
                }
                guard size >= 1, size <= 200 else {
                    throw ThemeError(.invalidValue, path: memberPath, "a size must lie in 1...200 points, got \(size)")
                }
                font.size = size
            case "weight":
                guard case .string(let name) = member else {
                    throw ThemeError(.wrongType, path: memberPath, "expected a weight name, got \(kind(of: member))")
                }
                guard let weight = StyleFont.Weight.allCases.first(where: { $0.rawValue == name }) else {
                    let names = StyleFont.Weight.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ThemeError(
                        .invalidValue,
                        path: memberPath,
                        "unknown weight \"\(name)\"; expected one of \(names)"
                    )
                }
                font.weight = weight
            default:
                throw ThemeError(.unknownKey, path: memberPath, "unknown key '\(key)'; expected name, size or weight")
            }
        }
        return font
    }

    private static func parseImages(_ value: JSONValue, path: String) throws(ThemeError) -> [StyleButton: StyleImage] {
        guard case .object(let members) = value else {
            throw ThemeError(.wrongType, path: path, "expected an object of button images, got \(kind(of: value))")
        }
        var images: [StyleButton: StyleImage] = [:]
        for (key, member) in members {
            let memberPath = "\(path).\(key)"
            guard !key.isEmpty else { throw ThemeError(.invalidValue, path: memberPath, "a button name is empty") }
            guard case .object(let image) = member, image.count == 1, let (kind, text) = image.first,
                case .string(let name) = text, !name.isEmpty
            else {
                throw ThemeError(
                    .wrongType,
                    path: memberPath,
                    "expected {\"named\": \"...\"} or {\"glyph\": \"...\"}, got \(member)"
                )
            }
            switch kind {
            case "named": images[StyleButton(rawValue: key)] = .named(name)
            case "glyph": images[StyleButton(rawValue: key)] = .glyph(name)
            default:
                throw ThemeError(
                    .unknownKey,
                    path: "\(memberPath).\(kind)",
                    "unknown key '\(kind)'; expected named or glyph"
                )
            }
        }
        return images
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
