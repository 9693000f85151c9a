import CastCore
import CastSync
public import Foundation

/// The small amount of widget state that outlives a launch: whether the local-network
/// interstitial was accepted and whether the introductory overlay was shown.
///
/// Kept as one JSON file, `cast-ui-state.json`, in the directory it is given:
///
/// ```json
/// {"localNetworkAccepted": true, "instructionsShown": false}
/// ```
///
/// A missing, unreadable or malformed file counts as "nothing remembered"; the next change
/// rewrites it. Create one store per directory and share it between models.
public final class CastUIStateStore: Sendable {
    /// The remembered flags.
    public struct Flags: Sendable, Hashable {
        /// Whether the user accepted the local-network interstitial.
        public var localNetworkAccepted = false
        /// Whether the introductory overlay was shown.
        public var instructionsShown = false

        /// Creates flags, all unset.
        public init(localNetworkAccepted: Bool = false, instructionsShown: Bool = false) {
            self.localNetworkAccepted = localNetworkAccepted
            self.instructionsShown = instructionsShown
        }
    }

    /// The file name inside the store's directory.
    public static let fileName = "cast-ui-state.json"

    /// The file the flags are kept in; `nil` for a store that only lives in memory.
    public let fileURL: URL?
    private let flags: Locked<Flags>

    /// Creates a store kept in `directory` (created when missing), reading what an earlier
    /// launch saved there.
    public init(directory: URL) {
        let url = directory.appendingPathComponent(Self.fileName)
        fileURL = url
        flags = Locked(Self.read(url))
    }

    /// Creates a store that forgets everything when the process ends.
    public init() {
        fileURL = nil
        flags = Locked(Flags())
    }

    /// The directory for the app's state: `~/.local/state/<app>` in the user's home directory.
    /// An app that honours `XDG_STATE_HOME` reads it and passes the directory to
    /// ``init(directory:)`` itself.
    public static func defaultDirectory(appName: String = "swift-cast") -> URL {
        FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/state").appendingPathComponent(appName)
    }

    /// The flags as they are now.
    public var current: Flags { flags.withLock { $0 } }

    /// Changes the flags and saves them.
    public func update(_ change: (inout Flags) -> Void) {
        // Saved inside the lock so that concurrent changes reach the file in order.
        flags.withLock { flags in
            let before = flags
            change(&flags)
            if before != flags { save(flags) }
        }
    }

    // MARK: File

    static func read(_ url: URL) -> Flags {
        guard let data = FileManager.default.contents(atPath: url.path), data.count <= 64 * 1024,
            let value = try? JSONValue(parsing: Array(data)), case .object(let object) = value
        else { return Flags() }
        return Flags(
            localNetworkAccepted: object["localNetworkAccepted"]?.boolValue ?? false,
            instructionsShown: object["instructionsShown"]?.boolValue ?? false
        )
    }

    private func save(_ flags: Flags) {
        guard let fileURL else { return }
        let text =
            "{\"localNetworkAccepted\": \(flags.localNetworkAccepted), \"instructionsShown\": \(flags.instructionsShown)}\n"
        try? FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try? Data(text.utf8).write(to: fileURL, options: .atomic)
    }
}
