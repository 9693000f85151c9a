@testable import CastCore

/// What decoding and encoding again changed in a JSON value, as paths with a reason; empty
/// when nothing was lost.
///
/// A member that is `null` counts as absent. Wire identifiers (``enumMembers``) may come back
/// in the case the protocol defines (`buffered` reads as `BUFFERED`). An encoder may add
/// only the members of ``addedDefaults`` (a metadata object without `metadataType` is
/// written with `metadataType: 0`, the generic type it means).
func lossesInRoundTrip(original: JSONValue, decoded: JSONValue, path: String = "") -> [String] {
    switch (original, decoded) {
    case (.object(let before), .object(let after)):
        var losses: [String] = []
        for key in before.keys.sorted() {
            let value = before[key]!
            let memberPath = path.isEmpty ? key : "\(path).\(key)"
            guard let kept = after[key] else {
                if !value.isNull { losses.append("\(memberPath): lost") }
                continue
            }
            if case .string(let text) = value, case .string(let other) = kept, enumMembers.contains(key),
                text.lowercased() == other.lowercased()
            {
                continue
            }
            losses += lossesInRoundTrip(original: value, decoded: kept, path: memberPath)
        }
        for key in after.keys.sorted() where before[key] == nil && !addedDefaults.contains(key) {
            losses.append("\(path.isEmpty ? key : "\(path).\(key)"): added")
        }
        return losses
    case (.array(let before), .array(let after)):
        guard before.count == after.count else { return ["\(path): \(before.count) elements became \(after.count)"] }
        return zip(before, after).enumerated().flatMap { index, pair in
            lossesInRoundTrip(original: pair.0, decoded: pair.1, path: "\(path)[\(index)]")
        }
    default:
        return original == decoded ? [] : ["\(path): \(original) became \(decoded)"]
    }
}

/// Members whose values are wire identifiers read case-insensitively.
let enumMembers: Set<String> = ["streamType", "playerState", "idleReason", "repeatMode", "type"]

/// Members an encoder may write although the original lacked them.
let addedDefaults: Set<String> = ["metadataType"]
