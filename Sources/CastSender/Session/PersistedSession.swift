#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What is saved about a session so that a later process can rejoin it without
/// relaunching the receiver app.
struct PersistedSession: Codable, Hashable, Sendable {
    var deviceID: String
    var deviceName: String?
    var host: String
    var port: Int
    var applicationID: String
    var applicationSessionID: String
    var transportID: String
    var mediaSessionID: Int?
    var senderID: String
}

/// Reads and writes the saved session at one file URL.
struct SessionStore: Sendable {
    let url: URL

    func load() -> PersistedSession? {
        guard let data = try? PrivateFile.read(url) else { return nil }
        return try? JSONDecoder().decode(PersistedSession.self, from: data)
    }

    func save(_ session: PersistedSession) {
        guard let data = try? JSONEncoder().encode(session) else { return }
        PrivateFile.write(data, to: url)
    }

    func clear() {
        try? FileManager.default.removeItem(at: url)
    }
}
