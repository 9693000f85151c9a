#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One `-----BEGIN LABEL-----` … `-----END LABEL-----` block of a PEM document.
///
/// Reading skips any text between blocks, such as the `openssl x509 -text` dump that often
/// precedes a certificate, and ignores trailing spaces on the boundary lines.
public struct PEMBlock: Hashable, Sendable {
    /// The label, such as `CERTIFICATE` or `RSA PRIVATE KEY`.
    public let label: String
    /// The decoded body.
    public let bytes: [UInt8]

    /// Creates a block.
    public init(label: String, bytes: [UInt8]) {
        self.label = label
        self.bytes = bytes
    }

    /// The block as PEM text, base64 in lines of 64 characters, ending with a newline.
    public var pemString: String {
        let body = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }

    /// Reads every PEM block of a text, in order.
    /// - Parameter text: PEM text, possibly with other text around and between the blocks.
    /// - Returns: the blocks; empty when the text holds none.
    /// - Throws: ``OpenSSLError/Code/malformedPEM`` when a block has no matching END line,
    ///   carries headers, or its body is not base64.
    public static func blocks(in text: String) throws(OpenSSLError) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var openLabel: String?
        var openLine = 0
        var body = ""
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let line = String(rawLine.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            if let label = openLabel {
                if line.hasPrefix("-----END ") {
                    guard line == "-----END \(label)-----" else {
                        throw OpenSSLError(
                            .malformedPEM,
                            context:
                                "line \(lineNumber): \"\(line)\" does not close \(label) opened on line \(openLine)"
                        )
                    }
                    guard let bytes = Data(base64Encoded: body) else {
                        throw OpenSSLError(
                            .malformedPEM,
                            context: "\(label) block on lines \(openLine)-\(lineNumber) is not valid base64"
                        )
                    }
                    blocks.append(PEMBlock(label: label, bytes: [UInt8](bytes)))
                    openLabel = nil
                    body = ""
                } else if line.contains(":") {
                    throw OpenSSLError(
                        .malformedPEM,
                        context: "line \(lineNumber): encrypted or header-carrying PEM blocks are not supported"
                    )
                } else {
                    body += line
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
                openLabel = String(line.dropFirst(11).dropLast(5))
                openLine = lineNumber
            }
        }
        if let label = openLabel {
            throw OpenSSLError(.malformedPEM, context: "\(label) block opened on line \(openLine) has no END line")
        }
        return blocks
    }
}
