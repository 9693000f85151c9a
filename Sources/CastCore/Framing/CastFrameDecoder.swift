/// Splits a Cast byte stream into frame bodies.
///
/// Each frame on the wire is a 4-byte big-endian length followed by that many bytes of a
/// serialized ``CastMessage``. The decoder accepts input split at any byte and returns
/// complete bodies one at a time; a partial frame makes ``nextFrame()`` return `nil`
/// ("need more data"). The declared length is checked before any allocation, so a peer
/// cannot make the decoder hold more than one maximum frame plus the bytes of a chunk.
///
/// Bytes go straight into the array that ``nextFrame()`` returns, so a body is copied once
/// and the decoder keeps no buffer between frames: an idle connection holds none.
package struct CastFrameDecoder: Sendable {
    /// The largest body the Cast protocol allows (64 KiB).
    package static let maximumBodySize = 65_536
    /// The size of the length prefix.
    package static let headerSize = 4

    /// The largest body this decoder accepts.
    package let maximumBodySize: Int

    /// The length prefix of the frame being read, as far as it arrived.
    private var header: UInt32 = 0
    private var headerCount = 0
    /// The declared body length, once the whole header arrived.
    private var bodyLength = 0
    /// The body being read; its storage becomes the frame ``nextFrame()`` returns.
    private var body: [UInt8] = []
    /// `body` holds a whole frame that ``nextFrame()`` has not returned yet.
    private var isComplete = false
    /// Bytes that arrived after a whole frame, read once that frame is returned.
    private var pending: [UInt8] = []
    private var pendingIndex = 0
    /// The stream offset of the frame being read.
    private var frameOffset = 0
    /// The error of a bad header; the decoder stays in it.
    private var failure: FrameError?

    /// Creates a decoder.
    /// - Parameter maximumBodySize: the largest body accepted; defaults to the protocol's limit.
    package init(maximumBodySize: Int = CastFrameDecoder.maximumBodySize) {
        precondition(maximumBodySize > 0, "maximumBodySize must be positive")
        self.maximumBodySize = maximumBodySize
    }

    /// The number of received bytes not yet returned as frames.
    package var bufferedByteCount: Int { headerCount + body.count + pending.count - pendingIndex }

    /// The bytes of storage the decoder holds, returned frames aside.
    var heldStorageBytes: Int { body.capacity + pending.capacity }

    /// Appends received bytes.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) != nil { return }
        Array(bytes).withUnsafeBytes { append($0) }
    }

    /// Appends received bytes from raw memory.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // After an error the stream must close: nothing more is kept.
        guard failure == nil, !bytes.isEmpty else { return }
        if isComplete || pendingIndex < pending.count {
            if pendingIndex > 0 {
                pending.removeFirst(pendingIndex)
                pendingIndex = 0
            }
            pending.append(contentsOf: bytes)
            return
        }
        let used = read(bytes)
        if used < bytes.count, failure == nil {
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...]))
        }
    }

    /// Returns the body of the next complete frame, or `nil` when more data is needed.
    /// - Throws: ``FrameError`` when the next frame declares a length of zero or above
    ///   ``maximumBodySize``. The decoder stays in error: the stream must be closed.
    package mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        guard isComplete else {
            if let failure { throw failure }
            return nil
        }
        let frame = body
        body = []
        isComplete = false
        frameOffset += Self.headerSize + bodyLength
        header = 0
        headerCount = 0
        bodyLength = 0
        if pendingIndex < pending.count {
            let used = pending.withUnsafeBytes { read(UnsafeRawBufferPointer(rebasing: $0[pendingIndex...])) }
            pendingIndex += used
            if pendingIndex == pending.count || failure != nil {
                pending = []
                pendingIndex = 0
            }
        }
        return frame
    }

    /// How many more bytes the decoder needs before the next frame is complete, or `nil`
    /// when the header itself is incomplete. Lets a reader size its next read.
    package var bytesNeededForNextFrame: Int? {
        guard headerCount == Self.headerSize else { return nil }
        return bodyLength - body.count
    }

    /// Reads `input` into the frame being read until it is complete or a header is bad;
    /// returns how many bytes it used.
    private mutating func read(_ input: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < input.count, !isComplete, failure == nil {
            if headerCount < Self.headerSize {
                header = header << 8 | UInt32(input[offset])
                headerCount += 1
                offset += 1
                if headerCount == Self.headerSize { checkHeader() }
            } else {
                let count = min(bodyLength - body.count, input.count - offset)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<offset + count]))
                offset += count
                isComplete = body.count == bodyLength
            }
        }
        return offset
    }

    /// Checks a whole header's declared length before anything is allocated for its body.
    private mutating func checkHeader() {
        let length = Int(header)
        if length == 0 {
            failure = FrameError(code: .emptyFrame, length: 0, limit: maximumBodySize, streamOffset: frameOffset)
        } else if length > maximumBodySize {
            failure = FrameError(
                code: .frameTooLarge,
                length: length,
                limit: maximumBodySize,
                streamOffset: frameOffset
            )
        } else {
            bodyLength = length
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
