import CastSync

/// Resuming after a lost connection (or at launch, from a saved session): the same receiver
/// session, found in the device's status, without relaunching the app.
extension CastSession {
    func runResume() async {
        do throws(CastError) {
            let connection = try await openConnection()
            let status = try await receiverStatus(on: connection)
            let wanted = state.withLock { $0.machine.applicationSessionID }
            guard let app = status.applications?.first(where: { $0.sessionID != nil && $0.sessionID == wanted }) else {
                transition {
                    $0.resumeFailed(
                        CastError(
                            .applicationNotRunning,
                            "resume failed: receiver session \(wanted ?? "?") is no longer running on \(host):\(port)"
                        ),
                        retry: false
                    )
                }
                return
            }
            try await attach(app, on: connection)
            transition { $0.resumeSucceeded() }
            connectChannels()
        } catch {
            environment.options.logger.log(
                .info,
                .session,
                "resume attempt failed",
                metadata: ["cast.error": "\(error)"]
            )
            transition { $0.resumeFailed(error, retry: true) }
        }
    }
}
