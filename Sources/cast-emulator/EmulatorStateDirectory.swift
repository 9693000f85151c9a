import CastAuth
import CastCrypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What outlives one run of the emulator: the device-authentication chain its devices sign
/// with, so a root a sender was told to trust (`cast --trust-root`) stays good across restarts.
struct EmulatorStateDirectory {
    /// The directory.
    let url: URL

    /// `--state-dir`, else `CAST_EMULATOR_STATE_DIR`, else `$XDG_STATE_HOME/cast-emulator`,
    /// else `~/.local/state/cast-emulator`.
    static func resolve(option: String?, environment: [String: String]) -> EmulatorStateDirectory {
        if let option, !option.isEmpty { return EmulatorStateDirectory(url: URL(fileURLWithPath: option)) }
        if let dir = environment["CAST_EMULATOR_STATE_DIR"], !dir.isEmpty {
            return EmulatorStateDirectory(url: URL(fileURLWithPath: dir))
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return EmulatorStateDirectory(url: URL(fileURLWithPath: state).appendingPathComponent("cast-emulator"))
        }
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return EmulatorStateDirectory(url: home.appendingPathComponent(".local/state/cast-emulator"))
    }

    /// The folder of the kept chain.
    var authChainDirectory: URL { url.appendingPathComponent("auth-chain") }

    /// The kept chain, or a new one written there first when none is kept, or the kept one
    /// is unreadable or no longer valid at `now`.
    ///
    /// Several emulators starting at once agree on one chain: a new chain is written to a
    /// folder of its own and renamed into place, and a process that loses that race reads the
    /// winner's.
    /// - Returns: the chain, and why a new one was made (`nil` when the kept one was used).
    func authChain(now: Date = Date()) throws -> (chain: DeviceAuthChain, madeBecause: String?) {
        let directory = authChainDirectory
        var reason = "none was kept"
        if FileManager.default.fileExists(atPath: directory.path) {
            do {
                let chain = try DeviceAuthChain.load(directory: directory.path)
                if Self.isValid(chain, at: now) { return (chain, nil) }
                reason = "the kept one expired"
            } catch {
                reason = "the kept one is unreadable (\(error))"
            }
        }
        let fresh = try DeviceAuthChain.generate(name: "Virtual Cast", now: now)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let staging = url.appendingPathComponent("auth-chain.new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try fresh.write(directory: staging.path)
        defer { try? FileManager.default.removeItem(at: staging) }
        if reason != "none was kept" {
            // Replaced: the old folder goes first, so the rename below can take its place.
            try? FileManager.default.removeItem(at: directory)
        }
        if rename(staging.path, directory.path) != 0 {
            // Another emulator put its chain in place first: use that one.
            let chain = try DeviceAuthChain.load(directory: directory.path)
            return (chain, nil)
        }
        return (fresh, reason)
    }

    /// Whether every certificate of `chain` is valid at `now` for at least another day.
    private static func isValid(_ chain: DeviceAuthChain, at now: Date) -> Bool {
        let soon = now.addingTimeInterval(86_400)
        return [chain.root, chain.intermediate, chain.device, chain.audioOnlyDevice].allSatisfy {
            $0.notBefore <= now && soon < $0.notAfter
        }
    }
}
