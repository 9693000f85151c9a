#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks the properties a fuzz target asserts beyond "does not crash".
///
/// A failed property prints what was wrong to standard error and traps, which libFuzzer
/// reports as a crash and saves the input that caused it.
public enum FuzzProperty {
    /// Traps unless `condition` holds.
    /// - Parameters:
    ///   - condition: the property.
    ///   - message: what was expected, printed when the property fails.
    public static func require(
        _ condition: @autoclosure () -> Bool,
        _ message: @autoclosure () -> String,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if !condition() {
            fail(message(), file: file, line: line)
        }
    }

    /// Prints `message` and traps.
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        let text = "fuzz property failed at \(file):\(line): \(message)\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        fatalError(message, file: file, line: line)
    }
}
