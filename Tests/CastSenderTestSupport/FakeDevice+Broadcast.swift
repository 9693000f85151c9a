package import CastCore
import CastSync

extension FakeDevice {
    /// Sends `text` as it is on `namespace` from `source` to every connected sender, as a
    /// device broadcast (destination `*`): for payloads captured from real devices.
    package func broadcast(text: String, from source: String, namespace: CastNamespace) {
        let links = state.withLock { $0.links }
        for link in links {
            link.deliver(CastMessage(sourceID: source, destinationID: "*", namespace: namespace, text: text))
        }
    }
}
