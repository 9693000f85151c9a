/// A picture placed on the screen: the cells it covers, the picture at the pixel size it is
/// shown (scaled by the renderer to the terminal's cells), and whether anything was drawn over
/// it afterwards.
public struct PicturePlacement: Sendable, Hashable {
    /// The cells the picture covers, fitted and centred in the rectangle it was drawn into.
    public var rect: Rect
    /// The picture, as given.
    public var picture: Picture
    /// The colour of the cells around and behind it.
    public var background: Color?
    /// Whether text or another picture was drawn into ``rect`` after it: a renderer then
    /// shows the cells (the half-block rendition) instead of pixels.
    public internal(set) var isCovered = false

    /// Creates a placement.
    public init(rect: Rect, picture: Picture, background: Color?) {
        self.rect = rect
        self.picture = picture
        self.background = background
    }
}
