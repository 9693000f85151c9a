/// A way a terminal shows pictures in pixels, beyond its character cells.
public struct GraphicsProtocol: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// kitty's graphics protocol (APC `G` commands), answered to a query by kitty, WezTerm,
    /// Konsole, Ghostty and others.
    public static let kitty = GraphicsProtocol(rawValue: "kitty")
    /// iTerm2's inline images (OSC 1337 `File=`), which iTerm2 declares in the environment
    /// (`TERM_PROGRAM=iTerm.app`, `LC_TERMINAL=iTerm2`).
    public static let iTerm2 = GraphicsProtocol(rawValue: "iTerm2")
    /// DEC sixel graphics, which a terminal declares with attribute 4 of its primary device
    /// attributes (DA1).
    public static let sixel = GraphicsProtocol(rawValue: "sixel")

    public var description: String {
        switch self {
        case .kitty: "kitty graphics"
        case .iTerm2: "iTerm2 inline images"
        case .sixel: "sixel"
        default: rawValue
        }
    }
}

/// What a terminal says about its graphics, from its environment and its answers to a query.
public struct GraphicsSupport: Hashable, Sendable {
    /// The protocol to draw pictures with, or `nil` for character cells only.
    public var graphicsProtocol: GraphicsProtocol?
    /// How the protocol was found ("answered the kitty graphics query", "DA1 lists sixel",
    /// "TERM_PROGRAM=iTerm.app"), or why there is none.
    public var reason: String
    /// The size of a cell in pixels, when the terminal reports it.
    public var cellPixelSize: Size?

    /// Creates a value.
    public init(graphicsProtocol: GraphicsProtocol?, reason: String, cellPixelSize: Size? = nil) {
        self.graphicsProtocol = graphicsProtocol
        self.reason = reason
        self.cellPixelSize = cellPixelSize
    }

    /// The query written to the terminal: a kitty graphics query for a 1×1 picture (id 31),
    /// then the primary device attributes request (DA1), which every terminal answers, so its
    /// answer ends the wait (kitty's documented way to detect the protocol).
    public static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c".utf8)

    /// What the answers to ``query`` say: whether kitty graphics answered OK, the DA1
    /// attributes, whether DA1's answer (the end) arrived, and the bytes that were no answer
    /// (keys typed meanwhile), in order.
    public struct QueryAnswers: Hashable, Sendable {
        /// Whether the kitty graphics query (id 31) was answered at all.
        public var kittyAnswered = false
        /// Whether it was answered `OK`: the terminal shows kitty graphics.
        public var kittyOK = false
        /// The parameters of the answer to DA1 (the terminal class, then its attributes; 4 is
        /// sixel), or `nil` before it arrived.
        public var deviceAttributes: [Int]?
        /// The bytes that were no answer, in order (keys typed during the query).
        public var other: [UInt8] = []

        /// Creates empty answers.
        public init() {}

        /// Whether the answer to DA1 arrived (it comes last).
        public var isComplete: Bool { deviceAttributes != nil }
    }

    /// Reads the terminal's answers to ``query`` out of `bytes`.
    public static func parseAnswers(_ bytes: [UInt8]) -> QueryAnswers {
        var answers = QueryAnswers()
        var index = 0
        while index < bytes.count {
            // APC: ESC _ G ... ESC \  (the kitty answer: "i=31;OK" or an error).
            if bytes[index] == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5F, bytes[index + 2] == 0x47 {
                var end = index + 3
                while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
                guard end + 1 < bytes.count else { break }
                let body = String(decoding: bytes[(index + 3)..<end], as: UTF8.self)
                if body.hasPrefix("i=31") {
                    answers.kittyAnswered = true
                    answers.kittyOK = body.hasSuffix(";OK")
                }
                index = end + 2
                continue
            }
            // DA1: ESC [ ? Ps ; ... c
            if bytes[index] == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5B, bytes[index + 2] == 0x3F {
                var end = index + 3
                while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == 0x3B { end += 1 }
                if end < bytes.count, bytes[end] == 0x63 {
                    let text = String(decoding: bytes[(index + 3)..<end], as: UTF8.self)
                    answers.deviceAttributes = text.split(separator: ";").compactMap { Int($0) }
                    index = end + 1
                    continue
                }
                if end >= bytes.count { break }
            }
            answers.other.append(bytes[index])
            index += 1
        }
        return answers
    }

    /// Decides from the environment and the answers (`nil`: no query was made).
    ///
    /// kitty graphics when the query was answered OK; else iTerm2 inline images when iTerm2
    /// declares itself (`TERM_PROGRAM=iTerm.app` or `LC_TERMINAL=iTerm2`) and no multiplexer
    /// (`TMUX`, `STY`) stands between; else sixel when DA1 lists attribute 4. The terminal's
    /// name (`TERM`) alone never decides.
    public static func decide(
        environment: [String: String],
        answers: QueryAnswers?,
        cellPixelSize: Size? = nil
    ) -> GraphicsSupport {
        if let answers, answers.kittyOK {
            return GraphicsSupport(
                graphicsProtocol: .kitty,
                reason: "answered the kitty graphics query",
                cellPixelSize: cellPixelSize
            )
        }
        let multiplexed =
            environment["TMUX"].map { !$0.isEmpty } == true || environment["STY"].map { !$0.isEmpty } == true
        if !multiplexed {
            if environment["TERM_PROGRAM"] == "iTerm.app" {
                return GraphicsSupport(
                    graphicsProtocol: .iTerm2,
                    reason: "TERM_PROGRAM=iTerm.app",
                    cellPixelSize: cellPixelSize
                )
            }
            if environment["LC_TERMINAL"] == "iTerm2" {
                return GraphicsSupport(
                    graphicsProtocol: .iTerm2,
                    reason: "LC_TERMINAL=iTerm2",
                    cellPixelSize: cellPixelSize
                )
            }
        }
        if let attributes = answers?.deviceAttributes, attributes.dropFirst().contains(4) {
            return GraphicsSupport(graphicsProtocol: .sixel, reason: "DA1 lists sixel", cellPixelSize: cellPixelSize)
        }
        let reason: String
        if let answers {
            reason = answers.isComplete ? "no graphics protocol declared" : "the terminal did not answer the query"
        } else {
            reason = "not queried"
        }
        return GraphicsSupport(graphicsProtocol: nil, reason: reason, cellPixelSize: cellPixelSize)
    }
}
