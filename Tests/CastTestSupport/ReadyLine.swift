/// Whether `output` holds `line` as a line of its own.
///
/// A child's readiness is announced by a line such as `ready`; matching it as a substring
/// would also accept `Address already in use`, the very failure a test must retry on.
public func containsLine(_ line: String, in output: String) -> Bool {
    output.split(separator: "\n", omittingEmptySubsequences: true).contains { $0 == line }
}
