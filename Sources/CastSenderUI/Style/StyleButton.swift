/// A button whose image a style sets.
///
/// An open set: apps may style their own buttons.
public struct StyleButton: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let play = StyleButton(rawValue: "play")
    public static let pause = StyleButton(rawValue: "pause")
    public static let stop = StyleButton(rawValue: "stop")
    public static let muteOn = StyleButton(rawValue: "muteOn")
    public static let muteOff = StyleButton(rawValue: "muteOff")
    public static let skipNext = StyleButton(rawValue: "skipNext")
    public static let skipPrevious = StyleButton(rawValue: "skipPrevious")
    public static let forward30Seconds = StyleButton(rawValue: "forward30Seconds")
    public static let rewind30Seconds = StyleButton(rawValue: "rewind30Seconds")
    public static let closedCaptions = StyleButton(rawValue: "closedCaptions")

    /// The buttons named by the style API.
    public static let standard: [StyleButton] = [
        .play, .pause, .stop, .muteOn, .muteOff, .skipNext, .skipPrevious, .forward30Seconds, .rewind30Seconds,
        .closedCaptions,
    ]

    public var description: String { rawValue }
}
