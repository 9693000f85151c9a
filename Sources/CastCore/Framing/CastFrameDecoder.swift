/// Splits a Cast byte stream into frame bodies.
///
/// Each frame on the wire is a 4-byte big-endian length followed by that many bytes of a
/// serialized ``CastMessage``. The decoder accepts input split at any byte and returns
/// complete bodies one at a time; a partial frame makes ``nextFrame()`` return `nil`
/// ("need more data"). The declared length is checked before any allocation, so a peer
/// cannot make the decoder hold more than one maximum frame plus the bytes of a chunk.
package struct CastFrameDecoder: Sendable {
    /// The largest body the Cast protocol allows (64 KiB).
    package static let maximumBodySize = 65_536
    /// The size of the length prefix.
    package static let headerSize = 4

    /// The largest body this decoder accepts.
    package let maximumBodySize: Int

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var consumedBeforeBuffer = 0

    /// Creates a decoder.
    /// - Parameter maximumBodySize: the largest body accepted; defaults to the protocol's limit.
    package init(maximumBodySize: Int = CastFrameDecoder.maximumBodySize) {
        precondition(maximumBodySize > 0, "maximumBodySize must be positive")
        self.maximumBodySize = maximumBodySize
    }

    /// The number of received bytes not yet returned as frames.
    package var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        compactIfNeeded()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes from raw memory.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfNeeded()
        buffer.append(contentsOf: bytes)
    }

    /// Returns the body of the next complete frame, or `nil` when more data is needed.
    /// - Throws: ``FrameError`` when the next frame declares a length of zero or above
    ///   ``maximumBodySize``. The decoder stays in error: the stream must be closed.
    package mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        let available = buffer.count - readIndex
        guard available >= Self.headerSize else { return nil }
        let length =
            Int(buffer[readIndex]) << 24 | Int(buffer[readIndex + 1]) << 16 | Int(buffer[readIndex + 2]) << 8
            | Int(buffer[readIndex + 3])
        if length == 0 {
            throw FrameError(
                code: .emptyFrame,
                length: 0,
                limit: maximumBodySize,
                streamOffset: consumedBeforeBuffer + readIndex
            )
        }
        if length > maximumBodySize {
            throw FrameError(
                code: .frameTooLarge,
                length: length,
                limit: maximumBodySize,
                streamOffset: consumedBeforeBuffer + readIndex
            )
        }
        guard available >= Self.headerSize + length else { return nil }
        let start = readIndex + Self.headerSize
        let body = Array(buffer[start..<start + length])
        readIndex = start + length
        return body
    }

    /// How many more bytes the decoder needs before the next frame is complete, or `nil`
    /// when the header itself is incomplete. Lets a reader size its next read.
    package var bytesNeededForNextFrame: Int? {
        let available = buffer.count - readIndex
        guard available >= Self.headerSize else { return nil }
        let length =
            Int(buffer[readIndex]) << 24 | Int(buffer[readIndex + 1]) << 16 | Int(buffer[readIndex + 2]) << 8
            | Int(buffer[readIndex + 3])
        return max(0, Self.headerSize + length - available)
    }

    private mutating func compactIfNeeded() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            consumedBeforeBuffer += readIndex
            buffer.removeAll(keepingCapacity: buffer.capacity <= 2 * (maximumBodySize + Self.headerSize))
            readIndex = 0
        } else if readIndex >= 4096 || readIndex * 2 >= buffer.count {
            consumedBeforeBuffer += readIndex
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
    }
}

/// Prefixes message bodies with their length for the Cast wire.
package enum CastFrameEncoder {
    /// Returns `body` preceded by its 4-byte big-endian length.
    /// - Throws: ``FrameError`` with code `messageTooLarge` when the body is over
    ///   `maximumBodySize`, or `emptyFrame` when it is empty.
    package static func encode(
        _ body: some Collection<UInt8>,
        maximumBodySize: Int = CastFrameDecoder.maximumBodySize
    ) throws(FrameError) -> [UInt8] {
        let length = body.count
        if length == 0 {
            throw FrameError(code: .emptyFrame, length: 0, limit: maximumBodySize, streamOffset: 0)
        }
        if length > maximumBodySize {
            throw FrameError(code: .messageTooLarge, length: length, limit: maximumBodySize, streamOffset: 0)
        }
        var frame = [UInt8]()
        frame.reserveCapacity(length + CastFrameDecoder.headerSize)
        frame.append(UInt8(truncatingIfNeeded: length >> 24))
        frame.append(UInt8(truncatingIfNeeded: length >> 16))
        frame.append(UInt8(truncatingIfNeeded: length >> 8))
        frame.append(UInt8(truncatingIfNeeded: length))
        frame.append(contentsOf: body)
        return frame
    }
}
