/// Decodes the bytes a terminal in raw mode sends into key presses.
///
/// The decoder is a pure state machine: feed it bytes as they arrive with ``decode(_:)``, in
/// chunks of any size; a sequence split across chunks is held until it is complete. A lone
/// ESC cannot be told apart from the start of an escape sequence, so it is held too: when
/// ``hasPendingInput`` is true and no byte arrives within the escape timeout, the owner calls
/// ``flush()``, which reports a held ESC as the Escape key.
///
/// Recognised: printable UTF-8, Enter (CR or LF), Tab and Shift-Tab, Backspace (DEL or BS),
/// Ctrl with a letter or with Space, `\`, `]`, `^`, `_`, Alt with a key (ESC prefix), arrows,
/// Home/End, Insert/Delete, Page Up/Down and F1–F12 in the CSI, SS3 and Linux console forms,
/// with xterm modifier parameters. Anything else becomes a ``Key/unknown(_:)`` key holding the
/// bytes. Malformed input never fails and never grows the held bytes past a small bound.
public struct KeyDecoder: Sendable {
    /// The longest control sequence accepted; longer ones are reported as unknown.
    static let maximumSequenceLength = 32

    private var pending: [UInt8] = []

    /// Creates a decoder with nothing held.
    public init() {}

    /// Whether bytes are held waiting for the rest of a sequence.
    public var hasPendingInput: Bool { !pending.isEmpty }

    /// The number of bytes held.
    var pendingCount: Int { pending.count }

    /// Adds bytes and returns the key presses they complete.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [KeyEvent] {
        pending.append(contentsOf: bytes)
        return drain(final: false)
    }

    /// Reports what is held as keys, as if no more bytes will follow soon: a held ESC becomes
    /// Escape (and what followed it is decoded on its own), an incomplete UTF-8 sequence an
    /// unknown key.
    public mutating func flush() -> [KeyEvent] {
        drain(final: true)
    }

    // MARK: - Parsing

    private enum Step {
        case key(KeyEvent, consumed: Int)
        case needMore
    }

    private mutating func drain(final: Bool) -> [KeyEvent] {
        var events: [KeyEvent] = []
        var index = 0
        while index < pending.count {
            switch parse(at: index, final: final) {
            case .key(let event, let consumed):
                events.append(event)
                index += consumed
            case .needMore:
                pending.removeFirst(index)
                return events
            }
        }
        pending.removeAll(keepingCapacity: true)
        return events
    }

    private func parse(at index: Int, final: Bool) -> Step {
        let byte = pending[index]
        guard byte == 0x1B else { return parsePlain(at: index, final: final) }
        guard index + 1 < pending.count else {
            return final ? .key(KeyEvent(.escape), consumed: 1) : .needMore
        }
        let step: Step
        switch pending[index + 1] {
        case UInt8(ascii: "["):
            step = parseCSI(at: index)
        case UInt8(ascii: "O"):
            step = parseSS3(at: index)
        case 0x1B:
            return .key(KeyEvent(.escape), consumed: 1)
        default:
            step = parsePlain(at: index + 1, final: final)
            if case .key(var event, let consumed) = step {
                event.modifiers.insert(.alt)
                return .key(event, consumed: consumed + 1)
            }
        }
        if case .needMore = step, final {
            return .key(KeyEvent(.escape), consumed: 1)
        }
        return step
    }

    /// A key that does not start with ESC: a control byte or a UTF-8 character.
    private func parsePlain(at index: Int, final: Bool) -> Step {
        let byte = pending[index]
        switch byte {
        case 0x0D, 0x0A:
            return .key(KeyEvent(.enter), consumed: 1)
        case 0x09:
            return .key(KeyEvent(.tab), consumed: 1)
        case 0x7F, 0x08:
            return .key(KeyEvent(.backspace), consumed: 1)
        case 0x1B:
            return .key(KeyEvent(.escape), consumed: 1)
        case 0x00:
            return .key(KeyEvent(.character(" "), modifiers: .control), consumed: 1)
        case 0x01...0x1A:
            let letter = Character(Unicode.Scalar(byte + 0x60))
            return .key(KeyEvent(.character(letter), modifiers: .control), consumed: 1)
        case 0x1C...0x1F:
            let symbol = Character(Unicode.Scalar(byte + 0x40))
            return .key(KeyEvent(.character(symbol), modifiers: .control), consumed: 1)
        case 0x20..<0x7F:
            return .key(KeyEvent(.character(Character(Unicode.Scalar(byte)))), consumed: 1)
        default:
            return parseUTF8(at: index, final: final)
        }
    }

    private func parseUTF8(at index: Int, final: Bool) -> Step {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .key(KeyEvent(.unknown([lead])), consumed: 1)
        }
        var end = index + 1
        while end < pending.count, end < index + length {
            guard pending[end] & 0xC0 == 0x80 else {
                return .key(KeyEvent(.unknown(Array(pending[index..<end]))), consumed: end - index)
            }
            end += 1
        }
        let bytes = Array(pending[index..<end])
        guard end - index == length else {
            return final ? .key(KeyEvent(.unknown(bytes)), consumed: bytes.count) : .needMore
        }
        guard let text = String(validating: bytes, as: UTF8.self), let scalar = text.unicodeScalars.first else {
            return .key(KeyEvent(.unknown(bytes)), consumed: length)
        }
        return .key(KeyEvent(.character(Character(scalar))), consumed: length)
    }

    /// `ESC O x`: arrows, Home/End and F1–F4 in application mode.
    private func parseSS3(at index: Int) -> Step {
        guard index + 2 < pending.count else { return .needMore }
        let final = pending[index + 2]
        let key: Key
        switch final {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = .right
        case UInt8(ascii: "D"): key = .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "M"): key = .enter
        case UInt8(ascii: "P")...UInt8(ascii: "S"): key = .function(Int(final - UInt8(ascii: "P")) + 1)
        default: key = .unknown(Array(pending[index...index + 2]))
        }
        return .key(KeyEvent(key), consumed: 3)
    }

    /// `ESC [ params intermediates final`.
    private func parseCSI(at index: Int) -> Step {
        var end = index + 2
        // The Linux console sends F1–F5 as ESC [ [ A … ESC [ [ E.
        if end < pending.count, pending[end] == UInt8(ascii: "[") {
            guard end + 1 < pending.count else { return .needMore }
            let letter = pending[end + 1]
            let sequence = Array(pending[index...end + 1])
            if letter >= UInt8(ascii: "A"), letter <= UInt8(ascii: "E") {
                return .key(KeyEvent(.function(Int(letter - UInt8(ascii: "A")) + 1)), consumed: 4)
            }
            return .key(KeyEvent(.unknown(sequence)), consumed: 4)
        }
        while end < pending.count {
            let byte = pending[end]
            if byte >= 0x40, byte <= 0x7E {
                let sequence = Array(pending[index...end])
                return .key(interpretCSI(sequence), consumed: sequence.count)
            }
            guard byte >= 0x20, byte <= 0x3F, end - index < KeyDecoder.maximumSequenceLength else {
                // A byte that cannot be part of a control sequence, or a runaway sequence:
                // report what came before it and decode the rest afresh.
                let sequence = Array(pending[index..<end])
                return .key(KeyEvent(.unknown(sequence)), consumed: sequence.count)
            }
            end += 1
        }
        return .needMore
    }

    private func interpretCSI(_ sequence: [UInt8]) -> KeyEvent {
        let unknown = KeyEvent(.unknown(sequence))
        let final = sequence[sequence.count - 1]
        let body = sequence[2..<(sequence.count - 1)]
        var parameters: [Int] = []
        if !body.isEmpty {
            for field in body.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                if field.isEmpty {
                    parameters.append(1)
                    continue
                }
                guard field.count <= 4, field.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return unknown }
                parameters.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            }
        }
        var modifiers: KeyModifiers = []
        if parameters.count >= 2 {
            let mask = parameters[1] - 1
            guard mask >= 0, mask < 16 else { return unknown }
            if mask & 1 != 0 { modifiers.insert(.shift) }
            if mask & 2 != 0 { modifiers.insert(.alt) }
            if mask & 4 != 0 { modifiers.insert(.control) }
        }
        guard parameters.count <= 2 else { return unknown }
        let key: Key
        switch final {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = .right
        case UInt8(ascii: "D"): key = .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "P")...UInt8(ascii: "S"): key = .function(Int(final - UInt8(ascii: "P")) + 1)
        case UInt8(ascii: "Z"):
            guard parameters.count <= 1 else { return unknown }
            return KeyEvent(.tab, modifiers: modifiers.union(.shift))
        case UInt8(ascii: "~"):
            guard let number = parameters.first, let tildeKey = KeyDecoder.tildeKeys[number] else { return unknown }
            key = tildeKey
        default:
            return unknown
        }
        if final != UInt8(ascii: "~"), let first = parameters.first, first != 1 {
            return unknown
        }
        return KeyEvent(key, modifiers: modifiers)
    }

    private static let tildeKeys: [Int: Key] = [
        1: .home, 2: .insert, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown, 7: .home, 8: .end,
        11: .function(1), 12: .function(2), 13: .function(3), 14: .function(4), 15: .function(5),
        17: .function(6), 18: .function(7), 19: .function(8), 20: .function(9), 21: .function(10),
        23: .function(11), 24: .function(12),
    ]
}
