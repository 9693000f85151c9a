/// The first element of `stream` that satisfies `predicate`, or `nil` after `timeout` (times
/// ``TestTiming/slowdown``) or when the stream ends first.
package func firstEvent<Element: Sendable>(
    in stream: AsyncStream<Element>,
    timeout: Duration = .seconds(20),
    where predicate: @escaping @Sendable (Element) -> Bool
) async -> Element? {
    let found = try? await withDeadline(timeout, "an event") { () -> Element? in
        for await element in stream where predicate(element) { return element }
        return nil
    }
    return found ?? nil
}
