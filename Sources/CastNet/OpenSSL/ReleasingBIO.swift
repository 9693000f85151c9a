internal import COpenSSL

/// A byte queue for a TLS session's ciphertext, like OpenSSL's memory BIO except that it
/// frees its storage each time it empties.
///
/// A memory BIO keeps the largest buffer it ever needed for as long as the connection
/// lives: about 2.6 KiB a session for the read and write sides together. Ten thousand
/// idle sessions would hold 26 MiB of empty buffers; this BIO holds nothing between
/// records, at the cost of one allocation per burst of ciphertext.
///
/// Reading from an empty queue asks the caller to retry (it never reports end of stream),
/// as the memory BIOs did with an end-of-file return of -1.
enum ReleasingBIO {
    /// The queue behind one BIO, in memory allocated by the BIO's create callback.
    struct Queue {
        var storage: UnsafeMutablePointer<UInt8>?
        var capacity = 0
        /// The first byte not read yet.
        var head = 0
        /// The end of the bytes written.
        var tail = 0

        var count: Int { tail - head }

        mutating func append(_ bytes: UnsafeRawPointer, count: Int) {
            if capacity - tail < count {
                let live = self.count
                if head > 0, capacity - live >= count, let storage {
                    storage.update(from: storage + head, count: live)
                } else {
                    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(live + count, 2 * capacity))
                    if let storage {
                        grown.initialize(from: storage + head, count: live)
                        storage.deallocate()
                    }
                    storage = grown
                    capacity = max(live + count, 2 * capacity)
                }
                head = 0
                tail = live
            }
            UnsafeMutableRawPointer(storage! + tail).copyMemory(from: bytes, byteCount: count)
            tail += count
        }

        mutating func take(into destination: UnsafeMutableRawPointer, count wanted: Int) -> Int {
            let taken = min(wanted, count)
            destination.copyMemory(from: storage! + head, byteCount: taken)
            head += taken
            if head == tail { release() }
            return taken
        }

        mutating func release() {
            storage?.deallocate()
            self = Queue()
        }
    }

    /// The method shared by every such BIO, made once per process. Never changed after it is
    /// made, and OpenSSL only reads it, from any thread.
    nonisolated(unsafe) static let method: OpaquePointer = {
        guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "cast releasing queue") else {
            fatalError("BIO_meth_new failed: OpenSSL is out of memory")
        }
        _ = BIO_meth_set_create(method) { bio in
            let queue = UnsafeMutablePointer<Queue>.allocate(capacity: 1)
            queue.initialize(to: Queue())
            BIO_set_data(bio, queue)
            BIO_set_init(bio, 1)
            return 1
        }
        _ = BIO_meth_set_destroy(method) { bio in
            guard let queue = BIO_get_data(bio)?.assumingMemoryBound(to: Queue.self) else { return 0 }
            queue.pointee.release()
            queue.deinitialize(count: 1)
            queue.deallocate()
            BIO_set_data(bio, nil)
            return 1
        }
        _ = BIO_meth_set_write(method) { bio, bytes, count in
            cast_BIO_clear_retry_flags(bio)
            guard let bytes, count > 0, let queue = BIO_get_data(bio)?.assumingMemoryBound(to: Queue.self) else {
                return 0
            }
            queue.pointee.append(bytes, count: Int(count))
            return count
        }
        _ = BIO_meth_set_read(method) { bio, destination, count in
            cast_BIO_clear_retry_flags(bio)
            guard let destination, count > 0, let queue = BIO_get_data(bio)?.assumingMemoryBound(to: Queue.self) else {
                return 0
            }
            guard queue.pointee.count > 0 else {
                cast_BIO_set_retry_read(bio)
                return -1
            }
            return Int32(queue.pointee.take(into: destination, count: Int(count)))
        }
        _ = BIO_meth_set_ctrl(method) { bio, command, _, _ in
            switch command {
            case BIO_CTRL_PENDING:
                guard let queue = BIO_get_data(bio)?.assumingMemoryBound(to: Queue.self) else { return 0 }
                return queue.pointee.count
            case BIO_CTRL_FLUSH, BIO_CTRL_DUP:
                return 1
            default:
                // Everything else (write pending, end of file, kTLS and datagram queries)
                // means "no" or "nothing" for a queue in memory.
                return 0
            }
        }
        return method
    }()

    /// A new, empty BIO.
    static func make() -> OpaquePointer? {
        BIO_new(method)
    }

    /// The bytes of storage a BIO made by ``make()`` holds (zero when it is empty).
    static func storageCapacity(of bio: OpaquePointer) -> Int {
        BIO_get_data(bio)?.assumingMemoryBound(to: Queue.self).pointee.capacity ?? 0
    }
}
