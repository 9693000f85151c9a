package import CastCore
import CastSender
import CastSync

extension FakeDevice {
    /// Changes the media status as the receiver would on its own (an ad break starting, a
    /// clip becoming skippable) and broadcasts it to every connected sender.
    package func pushMediaStatus(_ change: (inout MediaStatus) -> Void) {
        let (status, links, transport) = state.withLock { state -> ([MediaStatus], [FakeLink], String) in
            if var media = state.media {
                change(&media)
                state.media = media
            }
            return (state.media.map { [$0] } ?? [], state.links, state.app?.transportID ?? "T")
        }
        for link in links {
            link.deliver(
                source: transport,
                destination: "*",
                namespace: .media,
                MediaStatusMessage(requestID: 0, status: status)
            )
        }
    }
}
