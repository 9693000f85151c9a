import Foundation

/// Makes the built-in catalog's videos, ad clips and live stream with ffmpeg, once, into the
/// cache (``BuiltInMediaLibrary/directory``): each an H.264/AAC MP4 whose picture is the
/// video's own thumbnail with a square moving across it and whose sound is a tone, as long
/// as the catalog says. An eight-second clip is encoded and then repeated by copying
/// (`-stream_loop`), so a ten-minute video takes a fraction of a second.
///
/// Without ffmpeg nothing is made and the server goes on answering with files of headers
/// only; ``Outcome`` says what is missing.
struct MediaMaker: Sendable {
    /// What making the media came to.
    enum Outcome: Sendable, Equatable {
        /// Every file was there already.
        case ready
        /// `count` files were made now.
        case made(count: Int)
        /// ffmpeg is not installed.
        case noFFmpeg
        /// ffmpeg failed on a file: which, and what it said.
        case failed(path: String, reason: String)
    }

    let library: BuiltInMediaLibrary
    /// The ffmpeg executable, or `nil` when none is installed.
    let ffmpeg: String?
    /// The longest one ffmpeg run may take.
    var deadline: Duration = .seconds(120)

    init(library: BuiltInMediaLibrary, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.library = library
        ffmpeg = Self.find("ffmpeg", environment: environment)
    }

    static func find(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether everything is made already.
    var isComplete: Bool { library.missingVideos.isEmpty && library.isLiveStreamMade }

    /// Makes what is missing; `progress` hears each file before it is made.
    func make(progress: @Sendable (String) -> Void = { _ in }) async -> Outcome {
        guard let directory = library.directory else { return .ready }
        if isComplete { return .ready }
        guard let ffmpeg else { return .noFFmpeg }
        let work = directory.appendingPathComponent("work-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var made = 0
        for video in library.missingVideos {
            if Task.isCancelled { break }
            progress(video.path)
            guard let picture = library.cachedFile(video.picturePath), library.picture(video.picturePath) != nil,
                let output = library.cachedFile(video.path)
            else { continue }
            let clip = work.appendingPathComponent("clip.mp4")
            if let failure = await run(
                ffmpeg,
                Self.clipArguments(picture: picture.path, tone: video.tone, seconds: 8, output: clip.path)
            ) {
                return .failed(path: video.path, reason: failure)
            }
            let temporary = work.appendingPathComponent("long.mp4")
            if let failure = await run(
                ffmpeg,
                [
                    "-v", "error", "-y", "-stream_loop", "-1", "-i", clip.path, "-t", Self.seconds(video.seconds),
                    "-c", "copy", "-metadata:s:a:0", "language=eng", "-movflags", "+faststart", temporary.path,
                ]
            ) {
                return .failed(path: video.path, reason: failure)
            }
            try? FileManager.default.createDirectory(
                at: output.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            if rename(temporary.path, output.path) != 0 {
                return .failed(path: video.path, reason: "could not move the file into \(output.path)")
            }
            made += 1
        }
        if !library.isLiveStreamMade, !Task.isCancelled {
            progress(BuiltInMediaLibrary.livePlaylistPath)
            let live = library.catalog.items.first { $0.isLive }
            let picturePath = live?.thumbnailURL.flatMap(BuiltInMedia.path(of:))
            guard let picturePath, library.picture(picturePath) != nil, let picture = library.cachedFile(picturePath),
                let first = library.cachedFile(BuiltInMediaLibrary.segmentPath(0))
            else { return made > 0 ? .made(count: made) : .ready }
            let clip = work.appendingPathComponent("live.mp4")
            let seconds = Double(BuiltInMediaLibrary.liveSegmentSeconds * BuiltInMediaLibrary.liveSegmentCount)
            if let failure = await run(
                ffmpeg,
                Self.clipArguments(picture: picture.path, tone: 196, seconds: seconds, output: clip.path)
            ) {
                return .failed(path: BuiltInMediaLibrary.livePlaylistPath, reason: failure)
            }
            let segments = work.appendingPathComponent("segments", isDirectory: true)
            try? FileManager.default.createDirectory(at: segments, withIntermediateDirectories: true)
            if let failure = await run(
                ffmpeg,
                [
                    "-v", "error", "-y", "-i", clip.path, "-c", "copy", "-f", "hls",
                    "-hls_time", "\(BuiltInMediaLibrary.liveSegmentSeconds)", "-hls_list_size", "0",
                    "-hls_segment_filename", segments.appendingPathComponent("harbour-cam-%d.ts").path,
                    segments.appendingPathComponent("vod.m3u8").path,
                ]
            ) {
                return .failed(path: BuiltInMediaLibrary.livePlaylistPath, reason: failure)
            }
            try? FileManager.default.createDirectory(
                at: first.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            // The last segment moves last: its presence says the stream is made.
            for index in 0..<BuiltInMediaLibrary.liveSegmentCount {
                let name = "harbour-cam-\(index).ts"
                guard let target = library.cachedFile(BuiltInMediaLibrary.segmentPath(index)),
                    rename(segments.appendingPathComponent(name).path, target.path) == 0
                else {
                    return .failed(path: BuiltInMediaLibrary.segmentPath(index), reason: "ffmpeg made no \(name)")
                }
            }
            made += 1
        }
        return made > 0 ? .made(count: made) : .ready
    }

    /// An H.264/AAC clip: the picture scaled to 480×270, a white square crossing it every
    /// eight seconds near the bottom, and a sine tone.
    static func clipArguments(picture: String, tone: Int, seconds: Double, output: String) -> [String] {
        [
            "-v", "error", "-y", "-loop", "1", "-framerate", "12", "-i", picture,
            "-f", "lavfi", "-i", "color=c=white:s=20x20:r=12",
            "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=22050",
            "-filter_complex",
            "[0]scale=480:270,setsar=1[bg];[bg][1]overlay=x='mod(t*60,W)':y=H-34:shortest=1,format=yuv420p[v]",
            "-map", "[v]", "-map", "2", "-t", Self.seconds(seconds),
            "-c:v", "libx264", "-preset", "ultrafast", "-crf", "28", "-g", "24",
            "-c:a", "aac", "-ac", "1", "-b:a", "32k", "-metadata:s:a:0", "language=eng", output,
        ]
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", max(0.1, value)) }

    /// Runs ffmpeg at a lower priority; returns why it failed, or `nil`.
    private func run(_ program: String, _ arguments: [String]) async -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let finished = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            finished.continuation.yield()
            finished.continuation.finish()
        }
        do {
            try process.run()
        } catch {
            return "\(error.localizedDescription)"
        }
        // Making media is background work: it yields the CPU to the app and its device.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(process.processIdentifier), 10)
        let pid = process.processIdentifier
        let watchdog = Task {
            try? await Task.sleep(for: deadline)
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
        for await _ in finished.stream {}
        watchdog.cancel()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(2000), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let detail = message.trimmingCharacters(in: .whitespacesAndNewlines)
            return "ffmpeg exited with status \(process.terminationStatus)" + (detail.isEmpty ? "" : ": \(detail)")
        }
        return nil
    }
}

extension MediaMaker {
    /// `castvideos --make-media`: draws every picture of the built-in catalog and makes its
    /// videos into `cacheDirectory`, printing each file; the exit status is 0 when all is
    /// there, 1 when ffmpeg failed, 2 without ffmpeg (pictures are made all the same).
    static func makeFromCommandLine(cacheDirectory: URL) async -> Int32 {
        guard let catalog = try? Catalog(json: Array(BuiltInCatalog.json.utf8)) else { return 1 }
        let library = BuiltInMediaLibrary(catalog: catalog, directory: cacheDirectory)
        for path in library.pictures.keys.sorted() where !library.isMade(path) {
            print("drawing \(path)")
            _ = library.picture(path)
        }
        let maker = MediaMaker(library: library)
        switch await maker.make(progress: { print("making \($0) with ffmpeg") }) {
        case .ready:
            print("the built-in media is ready in \(library.directory?.path ?? "memory")")
            return 0
        case .made(let count):
            print("made \(count) files in \(library.directory?.path ?? "memory")")
            return 0
        case .noFFmpeg:
            print("ffmpeg is not installed: the pictures are made, the videos stay files of headers only")
            return 2
        case .failed(let path, let reason):
            print("could not make \(path): \(reason)")
            return 1
        }
    }
}
