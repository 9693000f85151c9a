import CastSync
import CastTestSupport
import Testing

@testable import CastNet

#if canImport(Glibc)
import Glibc
#endif

/// The client TLS context shared by connections with the same settings: connections that
/// start together while it is first built wait for that build instead of each paying for
/// one (a fleet starts 256 sessions at once; OpenSSL's first context takes milliseconds).
@Suite(.requires(.openssl)) struct TLSContextCacheTests {
    @Test func connectionsStartingTogetherShareOneBuild() async throws {
        let cache = ContextCache()
        let builds = Locked(0)
        let contexts = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let context = try cache.context { () throws(TLSError) -> TLSContext in
                        builds.withLock { $0 += 1 }
                        // A slow build, so that the other callers arrive while it runs.
                        usleep(20_000)
                        return try TLSContext(client: TLSClientConfiguration())
                    }
                    return ObjectIdentifier(context)
                }
            }
            var contexts = Set<ObjectIdentifier>()
            for try await context in group { contexts.insert(context) }
            return contexts
        }
        #expect(builds.withLock { $0 } == 1)
        #expect(contexts.count == 1)
    }
}
