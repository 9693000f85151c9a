package import CastArguments
package import CastCore
import CastSender
import TerminalUI

/// `cast queue add URL`.
package struct QueueAddCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["queue", "add"],
        summary: "Add a URL to the end of the queue.",
        arguments: "URL",
        options: [
            .value("title", "T", help: "The item's title."),
            .value("content-type", "M", help: "The MIME type (guessed from the URL otherwise)."),
        ],
        examples: ["cast queue add https://example.com/next.mp4", "cast queue add URL --title 'Episode 2'"]
    )
    /// The item.
    package var item: QueueItem

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let url = try arguments.positionals(1...1, for: Self.spec, names: "URL")[0]
        guard MediaURL.isRemote(url) else {
            throw CommandLineError(
                .invalidValue,
                "cast queue add: '\(url)' is not an http(s) URL",
                commandName: Self.spec.name
            )
        }
        item = MediaURL.queueItem(url, title: arguments.value("title"), contentType: arguments.value("content-type"))
    }

    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.queueInsertItem(item).result
    }
}

/// `cast queue list`.
package struct QueueListCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["queue", "list"],
        summary: "List the queue's items and their IDs.",
        options: [.flag("json", help: "Print JSON (see docs/cli.md).")],
        examples: ["cast queue list", "cast queue list --json"]
    )
    /// JSON output.
    package var json: Bool

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        _ = try arguments.positionals(0...0, for: Self.spec, names: "")
        json = arguments.has("json")
    }

    package func run(in runtime: CommandRuntime) async throws {
        let (client, status) = try await runtime.activeMedia()
        let items = try await Self.fetchItems(client, status: status)
        let current = client.mediaStatus?.currentItemID ?? status.currentItemID
        if json {
            runtime.output.json(
                .array(
                    items.map { item in
                        [
                            "itemId": .integer(item.itemID ?? 0),
                            "contentId": item.media?.contentID.jsonValue ?? .null,
                            "title": item.media?.metadata?.title.jsonValue ?? .null,
                            "current": .bool(item.itemID == current),
                        ]
                    }
                )
            )
        } else {
            for item in items {
                let marker = item.itemID == current ? "▶" : " "
                let name = TerminalText.sanitized(item.media?.metadata?.title ?? item.media?.contentID ?? "?")
                runtime.output.line("\(marker) \(item.itemID ?? 0)\t\(name)")
            }
        }
    }

    /// The queue's items, fetched by ID (a status lists only those around the current one).
    static func fetchItems(_ client: RemoteMediaClient, status: MediaStatus) async throws -> [QueueItem] {
        let events = client.events()
        let request = client.queueFetchItemIDs()
        let collector = Task { () -> [QueueItem] in
            var ids: [Int]?
            var items: [QueueItem]?
            for await event in events {
                switch event.kind {
                case .didReceiveQueueItemIDs:
                    let received = event.itemIDs
                    ids = received
                    if received.isEmpty { return [] }
                    _ = client.queueFetchItems(forIDs: received)
                case .didReceiveQueueItems:
                    items = (items ?? []) + event.queueItems
                    if let ids, Set(ids).isSubset(of: Set((items ?? []).compactMap(\.itemID))) {
                        return ids.compactMap { id in items?.first { $0.itemID == id } }
                    }
                default: break
                }
            }
            return []
        }
        try await request.result
        let timeout = Task {
            try? await Task.sleep(for: .seconds(5))
            collector.cancel()
        }
        let result = await collector.value
        timeout.cancel()
        return result.isEmpty ? status.items ?? [] : result
    }
}

/// `cast queue remove ID`.
package struct QueueRemoveCommand: CastCommand {
    package static let spec = CommandSpec(
        path: ["queue", "remove"],
        summary: "Remove an item from the queue by ID (see 'cast queue list').",
        arguments: "ID",
        examples: ["cast queue remove 3"]
    )
    /// The item ID.
    package var itemID: Int

    package init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let text = try arguments.positionals(1...1, for: Self.spec, names: "ID")[0]
        guard let id = Int(text), id > 0 else {
            throw CommandLineError(
                .invalidValue,
                "cast queue remove: '\(text)' is not an item ID",
                commandName: Self.spec.name
            )
        }
        itemID = id
    }

    package func run(in runtime: CommandRuntime) async throws {
        try await runtime.activeMedia().client.queueRemoveItems(withIDs: [itemID]).result
    }
}
