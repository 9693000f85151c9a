/// Reads a fuzz input as a program: opcodes, choices and numbers for the state-machine
/// targets. Reading past the end yields zeros, so every input is a valid program and libFuzzer
/// only has to find the bytes that matter.
public struct FuzzBytes: Sendable {
    private let bytes: [UInt8]
    private var index = 0

    /// Reads `bytes` from the start.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    public var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A choice among `count` alternatives (`count` ≥ 1).
    public mutating func below(_ count: Int) -> Int {
        Int(byte()) % max(count, 1)
    }

    /// One element of `choices` (not empty).
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// A coin flip.
    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// The next eight bytes, little-endian.
    public mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) {
            value |= UInt64(byte()) << UInt64(shift)
        }
        return value
    }

    /// A number as a JSON literal: mostly one of ``ExtremeNumbers/literals``, sometimes the
    /// shortest text of the next eight bytes read as a finite `Double`.
    public mutating func numberLiteral() -> String {
        let selector = byte()
        if selector < 224 { return ExtremeNumbers.literals[Int(selector) % ExtremeNumbers.literals.count] }
        let value = Double(bitPattern: uint64())
        return value.isFinite ? "\(value)" : ExtremeNumbers.literals[Int(selector) % ExtremeNumbers.literals.count]
    }

    /// An integer as a JSON literal: small ids most of the time, else an extreme.
    public mutating func integerLiteral() -> String {
        let selector = byte()
        if selector < 128 { return "\(Int(selector % 8) - 1)" }
        return ExtremeNumbers.integerLiterals[Int(selector) % ExtremeNumbers.integerLiterals.count]
    }

    /// A `Double` for models fed directly: the extremes (NaN and the infinities included) or
    /// the bit pattern of the next eight bytes.
    public mutating func double() -> Double {
        let selector = byte()
        if selector < 224 { return ExtremeNumbers.values[Int(selector) % ExtremeNumbers.values.count] }
        return Double(bitPattern: uint64())
    }

    /// An `Int`: small most of the time, else an extreme.
    public mutating func integer() -> Int {
        let selector = byte()
        if selector < 128 { return Int(selector % 8) - 1 }
        return ExtremeNumbers.integers[Int(selector) % ExtremeNumbers.integers.count]
    }

    /// A count of array elements: 0 to 7 most of the time, now and then a huge array (100,
    /// 1,000 or 5,000 elements).
    public mutating func count() -> Int {
        let selector = byte()
        if selector < 248 { return Int(selector % 8) }
        return [100, 1000, 5000][Int(selector) % 3]
    }
}

/// The numbers a hostile peer sends: signed zeros, ones, values past `Int.max`, `Duration`'s
/// and `Int64` nanoseconds' range, denormals and the largest finite doubles.
public enum ExtremeNumbers {
    /// JSON literals (all valid JSON; `1e309` parses to infinity or fails, as the parser decides).
    public static let literals = [
        "0", "-0", "1", "-1", "0.5", "-0.5", "2", "30", "600", "1e300", "-1e300", "1e19", "-1e19", "1e309",
        "-1e309", "4294967296", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "18446744073709551616", "1e-300", "5e-324", "2147483647", "-2147483648", "10000000000", "10000000001",
        "1.7976931348623157e308", "-1.7976931348623157e308", "9007199254740993", "86400", "0.25", "1e10",
    ]

    /// Integer literals.
    public static let integerLiterals = [
        "0", "-1", "1", "2", "3", "1000", "9223372036854775807", "-9223372036854775808", "9223372036854775806",
        "2147483647", "-2147483648", "4294967296", "1e300", "-1e300", "1.5", "9223372036854775808",
    ]

    /// Doubles, non-finite ones included.
    public static let values: [Double] = [
        0, -0.0, 1, -1, 0.5, -0.5, 2, 30, 600, 1e300, -1e300, 1e19, -1e19, .infinity, -.infinity, .nan,
        4_294_967_296, 9.223372036854775807e18, -9.223372036854775808e18, 1e-300, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 86400, 0.25, 1e10, 10_000_000_001, -.nan,
    ]

    /// Integers.
    public static let integers: [Int] = [
        0, -1, 1, 2, 3, 1000, .max, .min, .max - 1, .min + 1, Int(Int32.max), Int(Int32.min), 4_294_967_296,
    ]
}
