import CastAuth
import CastEmulator
import CastSender

extension CastOptions {
    /// Keeps authentication required and Google's roots trusted, and also trusts the root the
    /// in-process virtual devices sign with (``VirtualDeviceAuthority/shared``): what every test
    /// connecting the SDK to a `VirtualDevice` of this process uses.
    package mutating func trustVirtualDevices() {
        deviceAuthentication = deviceAuthentication.trustingVirtualDevices()
    }

    /// The explicit switches for peers that cannot answer device authentication (the scripted
    /// ``FakeDevice`` over an in-memory transport): no challenge, and secrets allowed to the
    /// unauthenticated device, as an app opting out of authentication would set them.
    package mutating func acceptUnauthenticatedDevices() {
        deviceAuthentication = .off
        sendsSecretsToUnauthenticatedDevices = true
    }
}
