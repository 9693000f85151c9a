public import CastCrypto

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A device-authentication certificate chain of the kind a Cast device holds: a root, an
/// intermediate and a device certificate (RSA-2048), plus an audio-only device certificate for
/// the same key that carries the audio-only policy
/// (``DeviceCertificatePolicy/audioOnlyPolicyIdentifier``), as speakers have.
///
/// A virtual device signs challenges with it; a sender trusts ``root`` to accept such devices
/// (``DeviceAuthenticationPolicy/additionalTrustAnchors``).
public struct DeviceAuthChain: Sendable {
    /// The self-signed root, which senders must trust.
    public let root: Certificate
    /// The intermediate, signed by the root.
    public let intermediate: Certificate
    /// The device certificate (audio and video), signed by the intermediate.
    public let device: Certificate
    /// The audio-only device certificate for the same key, signed by the intermediate.
    public let audioOnlyDevice: Certificate
    /// The key of both device certificates.
    public let deviceKey: PrivateKey

    /// The file names ``load(directory:)`` reads and ``write(directory:)`` writes.
    public enum FileName {
        /// The root certificate (PEM).
        public static let root = "root.pem"
        /// The intermediate certificate (PEM).
        public static let intermediate = "intermediate.pem"
        /// The device certificate (PEM).
        public static let device = "device.pem"
        /// The audio-only device certificate (PEM); optional when loading.
        public static let audioOnlyDevice = "device-audio.pem"
        /// The device key (unencrypted PEM).
        public static let deviceKey = "device-key.pem"
    }

    /// Creates a chain from its parts.
    public init(
        root: Certificate,
        intermediate: Certificate,
        device: Certificate,
        audioOnlyDevice: Certificate? = nil,
        deviceKey: PrivateKey
    ) {
        self.root = root
        self.intermediate = intermediate
        self.device = device
        self.audioOnlyDevice = audioOnlyDevice ?? device
        self.deviceKey = deviceKey
    }

    /// Generates a new chain: three RSA-2048 keys, valid from a day before `now` for ten years.
    /// - Parameter name: a word put in each common name.
    /// - Throws: key generation or certificate creation errors.
    public static func generate(
        name: String = "Virtual Cast",
        now: Date = Date()
    ) throws(OpenSSLError)
        -> DeviceAuthChain
    {
        let start = now.addingTimeInterval(-86_400)
        let lifetime: TimeInterval = 10 * 365 * 86_400
        let rootKey = try PrivateKey.generateRSA(bits: 2048)
        let intermediateKey = try PrivateKey.generateRSA(bits: 2048)
        let deviceKey = try PrivateKey.generateRSA(bits: 2048)
        let root = try CertificateIssuer.issue(
            commonName: "\(name) Root CA",
            subjectKey: rootKey,
            usage: .init(isCA: true, pathLength: 1),
            issuer: nil,
            notBefore: start,
            validity: lifetime
        )
        let intermediate = try CertificateIssuer.issue(
            commonName: "\(name) Intermediate CA",
            subjectKey: intermediateKey,
            usage: .init(isCA: true, pathLength: 0),
            issuer: (root, rootKey),
            notBefore: start,
            validity: lifetime
        )
        let device = try CertificateIssuer.issue(
            commonName: "\(name) Device",
            subjectKey: deviceKey,
            usage: .init(isCA: false),
            issuer: (intermediate, intermediateKey),
            notBefore: start,
            validity: lifetime
        )
        let audio = try CertificateIssuer.issue(
            commonName: "\(name) Audio Device",
            subjectKey: deviceKey,
            usage: .init(isCA: false, policyIdentifiers: [DeviceCertificatePolicy.audioOnlyPolicyIdentifier]),
            issuer: (intermediate, intermediateKey),
            notBefore: start,
            validity: lifetime
        )
        return DeviceAuthChain(
            root: root,
            intermediate: intermediate,
            device: device,
            audioOnlyDevice: audio,
            deviceKey: deviceKey
        )
    }

    /// Reads a chain from the PEM files named in ``FileName`` (the audio-only device
    /// certificate is optional; without it the device certificate serves both).
    /// - Throws: ``DeviceAuthError`` with ``DeviceAuthError/Code/malformedClientCertificate``
    ///   naming the file that is missing or unreadable.
    public static func load(directory: String) throws(DeviceAuthError) -> DeviceAuthChain {
        func text(_ file: String, optional: Bool = false) throws(DeviceAuthError) -> String? {
            let path = Self.path(file, in: directory)
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            if attributes == nil, optional { return nil }
            // A regular file only: opening a FIFO would wait for a writer.
            guard let size = attributes?[.size] as? Int, size <= 1 << 20,
                attributes?[.type] as? FileAttributeType == .typeRegular,
                let value = try? String(contentsOfFile: path, encoding: .utf8)
            else {
                throw DeviceAuthError(.malformedClientCertificate, reason: "cannot read \(path) (at most 1 MiB)")
            }
            return value
        }
        func certificate(_ file: String, optional: Bool = false) throws(DeviceAuthError) -> Certificate? {
            guard let pem = try text(file, optional: optional) else { return nil }
            do {
                return try Certificate(pemEncoded: pem)
            } catch {
                throw DeviceAuthError(.malformedClientCertificate, reason: "\(file): \(error)")
            }
        }
        guard let root = try certificate(FileName.root), let intermediate = try certificate(FileName.intermediate),
            let device = try certificate(FileName.device), let keyText = try text(FileName.deviceKey)
        else { throw DeviceAuthError(.malformedClientCertificate, reason: "incomplete chain in \(directory)") }
        let key: PrivateKey
        do {
            key = try PrivateKey(pemEncoded: keyText)
        } catch {
            throw DeviceAuthError(.malformedClientCertificate, reason: "\(FileName.deviceKey): \(error)")
        }
        return DeviceAuthChain(
            root: root,
            intermediate: intermediate,
            device: device,
            audioOnlyDevice: try certificate(FileName.audioOnlyDevice, optional: true),
            deviceKey: key
        )
    }

    /// Writes the chain as the PEM files named in ``FileName`` (the key with mode 0600).
    /// - Throws: file-system or key-encoding errors.
    public func write(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func path(_ name: String) -> String { Self.path(name, in: directory) }
        for (name, certificate) in [
            (FileName.root, root), (FileName.intermediate, intermediate), (FileName.device, device),
            (FileName.audioOnlyDevice, audioOnlyDevice),
        ] {
            try certificate.pemString.write(toFile: path(name), atomically: true, encoding: .utf8)
        }
        let keyPath = path(FileName.deviceKey)
        let created = FileManager.default.createFile(
            atPath: keyPath,
            contents: Data(try deviceKey.pemString().utf8),
            attributes: [.posixPermissions: 0o600]
        )
        // "NSFilePath" is the value of Foundation's NSFilePathErrorKey.
        if !created { throw CocoaError(.fileWriteUnknown, userInfo: ["NSFilePath": keyPath]) }
    }

    /// The path of the file `name` in `directory` (as `appendingPathComponent` joins them).
    private static func path(_ name: String, in directory: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The credentials a device with TLS certificate `tlsCertificateDER` answers with.
    /// - Parameters:
    ///   - tlsCertificateDER: the DER of the TLS certificate of the connection.
    ///   - audioOnly: whether to present the audio-only device certificate.
    public func credentials(tlsCertificateDER: [UInt8], audioOnly: Bool) -> DeviceAuthResponder.Credentials {
        DeviceAuthResponder.Credentials(
            privateKey: deviceKey,
            certificateChain: [audioOnly ? audioOnlyDevice : device, intermediate],
            tlsCertificateDER: tlsCertificateDER
        )
    }
}
