import CastCrypto
import CastNet

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads extra device-authentication roots from PEM files, for apps and tools that let the
/// user trust more roots than Google's (`cast --trust-root FILE`, `CAST_TRUST_ROOTS`), such as
/// the root `cast-emulator --auth-root-out FILE` writes.
///
/// ```swift
/// options.deviceAuthentication.additionalTrustAnchors += try TrustRootFile.certificates(atPath: path)
/// ```
public enum TrustRootFile {
    /// The largest file read (64 KiB, ``PrivateFile/maximumSize``); a root is about 1.5 KB.
    public static let maximumSize = PrivateFile.maximumSize

    /// Why a file of roots could not be used.
    public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The kind of failure, with a stable ``rawValue``.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            fileprivate enum Base: Int, Sendable {
                case notFound = 1
                case unreadable = 2
                case tooLarge = 3
                case noCertificate = 4
                case malformed = 5
            }

            fileprivate let base: Base

            /// 1: there is no file at the path.
            public static let notFound = Code(base: .notFound)
            /// 2: the file exists but cannot be read (or is not a regular file).
            public static let unreadable = Code(base: .unreadable)
            /// 3: the file is larger than ``TrustRootFile/maximumSize``.
            public static let tooLarge = Code(base: .tooLarge)
            /// 4: the file holds no PEM `CERTIFICATE` block.
            public static let noCertificate = Code(base: .noCertificate)
            /// 5: a `CERTIFICATE` block is not a valid X.509 certificate.
            public static let malformed = Code(base: .malformed)

            /// The stable number of the code.
            public var rawValue: Int { base.rawValue }

            public var description: String {
                switch base {
                case .notFound: "not found"
                case .unreadable: "unreadable"
                case .tooLarge: "too large"
                case .noCertificate: "no certificate"
                case .malformed: "malformed"
                }
            }
        }

        /// The kind of failure.
        public let code: Code
        /// The file.
        public let path: String
        /// What is wrong, in words.
        public let reason: String

        init(_ code: Code, path: String, reason: String) {
            self.code = code
            self.path = path
            self.reason = reason
        }

        public static func == (lhs: LoadError, rhs: LoadError) -> Bool { lhs.code == rhs.code && lhs.path == rhs.path }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(code)
            hasher.combine(path)
        }

        public var description: String { "\(path): \(reason)" }
    }

    /// Every certificate of the PEM file at `path`, in order.
    /// - Throws: ``LoadError`` when the file is missing, unreadable, larger than
    ///   ``maximumSize``, holds no certificate or a malformed one.
    public static func certificates(atPath path: String) throws(LoadError) -> [Certificate] {
        let data: [UInt8]
        do {
            data = try LocalFile.read(path: path, limit: maximumSize)
        } catch {
            switch error.kind {
            case .notFound: throw LoadError(.notFound, path: path, reason: error.reason)
            case .tooLarge: throw LoadError(.tooLarge, path: path, reason: error.reason)
            case .notRegularFile, .unreadable: throw LoadError(.unreadable, path: path, reason: error.reason)
            }
        }
        let certificates: [Certificate]
        do {
            certificates = try Certificate.certificates(pemEncoded: String(decoding: data, as: UTF8.self))
        } catch {
            throw LoadError(.malformed, path: path, reason: "not a valid PEM certificate (\(error))")
        }
        guard !certificates.isEmpty else {
            throw LoadError(.noCertificate, path: path, reason: "holds no PEM CERTIFICATE block")
        }
        return certificates
    }

    /// The paths of a list such as `CAST_TRUST_ROOTS`: separated by `:` as `PATH` is, empty
    /// entries skipped.
    public static func paths(fromList list: String) -> [String] {
        list.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
    }
}
