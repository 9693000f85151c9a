/// The first element of `stream` that satisfies `predicate`, or `nil` after `timeout`.
package func firstEvent<Element: Sendable>(
    in stream: AsyncStream<Element>,
    timeout: Duration = .seconds(20),
    where predicate: @escaping @Sendable (Element) -> Bool
) async -> Element? {
    await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream where predicate(element) { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
