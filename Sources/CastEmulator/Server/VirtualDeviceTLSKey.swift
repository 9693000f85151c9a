import CastCrypto
import CastNet

/// The RSA key behind the TLS certificates of virtual devices that are not given one.
///
/// An RSA-2048 key costs tens to hundreds of milliseconds of CPU to generate; one per
/// device made starting a device the dominant cost of in-process fleets and test suites
/// (the generation runs on the caller's thread). Each device still presents a certificate
/// of its own (its device ID as common name, its own serial number); only the key is
/// shared, as a fleet's devices already share one.
enum VirtualDeviceTLSKey {
    /// Generated on first use, once per process.
    static let shared: Result<PrivateKey, OpenSSLError> = Result { () throws(OpenSSLError) in
        try PrivateKey.generateRSA(bits: 2048)
    }
}
