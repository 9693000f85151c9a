package import Foundation

/// Payloads captured from real Cast hardware (`messages.jsonl` of the real-devices test data:
/// Chromecasts, Google Home and Nest speakers, Nest Hub displays, a Cast TV, speaker groups).
///
/// The directory is `CAST_REAL_DEVICES_DIR`, else the first that exists of
/// `<repository root>/../shared/testdata/real-devices` and the machine's shared copy, the
/// same lookup as ``CastTestData``. A missing directory or file is an error, so the suites
/// that read it fail instead of passing with nothing to check.
package enum RealDevicePayloads {
    /// One captured message.
    package struct Record: Sendable, CustomStringConvertible {
        /// The line of `messages.jsonl`, from 1.
        package let line: Int
        /// The message type, e.g. `RECEIVER_STATUS` or `EUREKA_INFO` (the setup document).
        package let kind: String
        /// The device it came from, as the capture describes it.
        package let device: String
        /// Where it was captured.
        package let source: String
        /// `receiver_ipc` for platform-to-receiver-app messages, `status_entry` for a single
        /// `status[]` entry, else `nil` (a message a sender receives).
        package let scope: String?
        /// The payload's JSON text, exactly as in the file.
        package let payload: String

        package var description: String { "line \(line) \(kind) (\(device))" }
    }

    /// The file is missing or a line is not a record.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    /// The test data directory.
    package static var directory: URL {
        get throws(Problem) {
            let candidates: [URL]
            if let override = ProcessInfo.processInfo.environment["CAST_REAL_DEVICES_DIR"], !override.isEmpty {
                candidates = [URL(fileURLWithPath: override, isDirectory: true)]
            } else {
                candidates = [
                    RepositoryPaths.root.deletingLastPathComponent()
                        .appendingPathComponent("shared/testdata/real-devices", isDirectory: true),
                    URL(fileURLWithPath: "/work/shared/testdata/real-devices", isDirectory: true),
                ]
            }
            for candidate in candidates
            where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("messages.jsonl").path) {
                return candidate
            }
            throw Problem(
                description: "real-device payloads not found at \(candidates[0].path) (set CAST_REAL_DEVICES_DIR)"
            )
        }
    }

    /// Every record of `messages.jsonl`, in file order.
    package static func records() throws -> [Record] {
        let url = try directory.appendingPathComponent("messages.jsonl")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Problem(description: "cannot read \(url.path)")
        }
        var records: [Record] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            records.append(try record(Array(line), number: index + 1))
        }
        guard !records.isEmpty else { throw Problem(description: "\(url.path) holds no records") }
        return records
    }

    /// The records of one kind.
    package static func records(kind: String) throws -> [Record] {
        try records().filter { $0.kind == kind }
    }

    private static func record(_ line: [UInt8], number: Int) throws -> Record {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            let kind = object["kind"] as? String, let device = object["device"] as? String,
            let source = object["source"] as? String, object["payload"] is [String: Any],
            let payload = rawMember("payload", of: line)
        else { throw Problem(description: "messages.jsonl line \(number) is not a record") }
        return Record(
            line: number,
            kind: kind,
            device: device,
            source: source,
            scope: object["scope"] as? String,
            payload: String(decoding: payload, as: UTF8.self)
        )
    }

    /// The text of the top-level member `name` of a JSON object, untouched (numbers keep
    /// their form: `1` and `1.0` stay apart, float32 values keep every digit).
    private static func rawMember(_ name: String, of line: [UInt8]) -> ArraySlice<UInt8>? {
        let key = Array("\"\(name)\"".utf8)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        while index < line.count {
            let byte = line[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if depth == 1, line[index...].starts(with: key) {
                    var cursor = index + key.count
                    while cursor < line.count, line[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    guard cursor < line.count, line[cursor] == UInt8(ascii: ":") else { return nil }
                    cursor += 1
                    while cursor < line.count, line[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    return valueText(in: line, from: cursor)
                }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The object or array that starts at `start`.
    private static func valueText(in line: [UInt8], from start: Int) -> ArraySlice<UInt8>? {
        var depth = 0
        var inString = false
        var escaped = false
        for index in start..<line.count {
            let byte = line[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return line[start...index] }
            default: break
            }
        }
        return nil
    }
}
