// The modules whose public types are part of the SDK's own API, so that `import CastSender`
// is all an app needs:
//
// - CastCore: the wire-format model the SDK's calls take and return (`MediaInformation`,
//   `MediaStatus`, `MediaMetadata`, `QueueItem`, `CastDevice`, namespaces, error reasons).
//   Framing, protobuf and CRL structures there are `package`: they are not exported.
// - CastAuth: the device-authentication policy of `CastOptions.deviceAuthentication`.
// - CastCrypto: `Certificate`, the type of the policy's `additionalTrustAnchors`.
//
// Nothing else is re-exported: the I/O layer (CastNet) stays an implementation detail.
@_exported import CastAuth
@_exported import CastCore
@_exported import CastCrypto
