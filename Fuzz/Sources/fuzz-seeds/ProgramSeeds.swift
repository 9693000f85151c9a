import FuzzSupport

/// Programs for the state-machine targets (`FuzzBytes` reads them): the hostile sequences
/// that used to crash the device, the SDK and the CLI, and deterministic pseudo-random
/// programs for the fuzzer to start from.
enum ProgramSeeds {
    /// A program under construction.
    struct Program {
        var bytes: [UInt8] = []

        mutating func byte(_ value: Int) { bytes.append(UInt8(truncatingIfNeeded: value)) }
        mutating func yes() { byte(1) }
        mutating func no() { byte(0) }
        /// The selector of a literal of ``ExtremeNumbers/literals``.
        mutating func number(_ literal: String) { byte(ExtremeNumbers.literals.firstIndex(of: literal)!) }
        /// The selector of an integer literal: small ones directly, else an extreme (a
        /// selector of 128 + i picks extreme i, as there are 16 of them).
        mutating func integer(_ literal: String) {
            if let small = Int(literal), (-1...6).contains(small) {
                byte(small + 1)
            } else {
                byte(128 + ExtremeNumbers.integerLiterals.firstIndex(of: literal)!)
            }
        }
    }

    /// Pseudo-random bytes (SplitMix64), the same on every run.
    static func noise(seed: UInt64, count: Int) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    // MARK: Virtual device

    /// `fuzz-device-engine`: an op starts with the media session id choice, then the opcode.
    static func deviceEngine() -> SeedSet {
        var set = SeedSet(target: "device-engine")
        func program(_ body: (inout Program) -> Void) -> [UInt8] {
            var program = Program()
            program.byte(0)  // simulated media
            program.byte(0)  // 1000 queue items at most
            body(&program)
            return program.bytes
        }
        func op(_ program: inout Program, _ code: Int) {
            program.yes()  // the current media session id
            program.byte(code)
        }
        func load(_ program: inout Program, duration: String, clip: String? = nil) {
            op(&program, 0)
            program.no()  // BUFFERED
            program.no()  // http://m/1.mp4
            program.yes()
            program.number(duration)
            if let clip {
                program.yes()
                program.byte(1)  // one clip
                program.no()
                program.number(clip)
                program.number("0")
                program.byte(1)  // one break
                program.no()
                program.number("0")
                program.no()
            } else {
                program.no()
            }
            for _ in 0..<5 { program.no() }  // tracks, currentTime, rate, autoplay, activeTrackIDs
        }
        func advance(_ program: inout Program, step: Int) {
            op(&program, 19)
            program.byte(step)
        }
        set.add(
            "load-duration-1e300",
            program {
                load(&$0, duration: "1e300")
                advance(&$0, step: 4)
            }
        )
        set.add(
            "load-duration-1e19",
            program {
                load(&$0, duration: "1e19")
                advance(&$0, step: 4)
            }
        )
        set.add(
            "break-clip-1e300",
            program {
                load(&$0, duration: "30", clip: "1e300")
                advance(&$0, step: 3)
            }
        )
        set.add(
            "queue-jump-int-max",
            program {
                op(&$0, 1)  // QUEUE_LOAD of three items
                $0.byte(3)
                for _ in 0..<3 {
                    for _ in 0..<4 { $0.no() }  // BUFFERED, url, no duration, no breaks
                    $0.no()  // no tracks
                    for _ in 0..<5 { $0.no() }  // no itemID, startTime, playbackDuration, preloadTime, autoplay
                }
                $0.yes()  // startIndex 1: the jump's base is not 0
                $0.integer("1")
                $0.no()  // no repeatMode
                $0.no()  // no currentTime
                advance(&$0, step: 3)
                op(&$0, 3)  // QUEUE_UPDATE jump Int.max
                $0.yes()
                $0.integer("9223372036854775807")
                for _ in 0..<5 { $0.no() }
                advance(&$0, step: 3)
            }
        )
        for seed in 0..<8 {
            set.add("random-\(seed)", noise(seed: UInt64(seed), count: 300))
        }
        return set
    }

    // MARK: SDK, widgets, CLI

    /// A MEDIA_STATUS of one playing status at 30 s whose media has `duration` (the members
    /// follow the order `DeviceMessageText` reads them: a presence mask before each eight).
    static func mediaStatus(_ program: inout Program, duration: String) {
        program.byte(2)  // one status
        program.byte(0b0001_0111)  // mediaSessionID, playerState, currentTime, media
        program.yes()  // mediaSessionID 1
        program.byte(1)  // PLAYING
        program.number("30")
        program.byte(0b0000_0111)  // media: contentID, streamType, duration
        program.no()  // BUFFERED
        program.number(duration)
        program.no()  // no status members from the ninth on
        program.no()  // nor from the seventeenth
        program.integer("1")  // requestID
    }

    /// A RECEIVER_STATUS whose volume level is `level`, with one application whose name and
    /// status text hold terminal escape sequences.
    static func receiverStatus(_ program: inout Program, level: String) {
        program.byte(0b0000_0011)  // level, muted
        program.number(level)
        program.no()
        program.byte(0b0001_1111)  // appID, displayName, sessionID, transportID, statusText
        program.no()  // CC1AD845
        program.byte(2)  // an OSC title sequence
        program.no()
        program.byte(3)  // clear screen
        program.byte(1)  // with the application
        program.integer("0")
    }

    static func deviceMessages(target: String, mediaOp: Int, receiverOp: Int) -> SeedSet {
        var set = SeedSet(target: target)
        for duration in ["1e300", "-1e300", "1e309", "1e19"] {
            var program = Program()
            program.byte(mediaOp)
            mediaStatus(&program, duration: duration)
            set.add("media-status-duration-\(duration)", program.bytes)
        }
        for level in ["1e300", "-1e300", "1e309"] {
            var program = Program()
            program.byte(receiverOp)
            receiverStatus(&program, level: level)
            set.add("receiver-volume-\(level)", program.bytes)
        }
        for seed in 0..<8 {
            set.add("random-\(seed)", noise(seed: 100 + UInt64(seed), count: 400))
        }
        return set
    }

    static func mediaClient() -> SeedSet {
        var set = deviceMessages(target: "media-client", mediaOp: 0, receiverOp: 4)
        // The input that found the quadratic queue edits (huge QUEUE_ITEM_IDS and QUEUE_CHANGE
        // messages): it must run well within the fuzzers' -timeout.
        set.add("queue-change-30000-ids", queueChangeSeed)
        return set
    }

    static let queueChangeSeed: [UInt8] = [
        0xfb, 0xff, 0xff, 0xfb, 0x0d, 0xfb, 0xfb, 0xfb, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb, 0x03, 0x93, 0xfb,
        0xfb, 0xfb, 0xfb, 0xfb, 0xbb, 0xfb, 0xf3, 0xfb, 0xfb, 0xfb, 0xfb, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb,
        0x03, 0x93, 0xfb, 0xfb, 0xfb, 0xfb, 0xfb, 0xbb, 0xfb, 0xf3, 0xfb, 0xfb, 0xfb, 0xfb, 0xfb, 0x6e, 0x0f, 0xff,
        0x0d, 0xfb, 0xfb, 0xfb, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb, 0x03, 0x93, 0xfb, 0xfb, 0xfb, 0xfb, 0xfb,
        0xbb, 0xfb, 0xf3, 0xfb, 0xfb, 0xfb, 0xfb, 0xfb, 0x6e, 0x0f, 0x0b, 0xfb, 0xff, 0xfb, 0x03, 0x93, 0xfb, 0xfb,
        0xfb, 0xfb, 0xfb, 0xfb,
    ]

    static func widgets() -> SeedSet { deviceMessages(target: "widgets", mediaOp: 0, receiverOp: 3) }
    static func statusReport() -> SeedSet { deviceMessages(target: "status-report", mediaOp: 0, receiverOp: 2) }
}
