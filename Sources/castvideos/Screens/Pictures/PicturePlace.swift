import CastCore
import CastSenderUI

/// Where the app shows a picture, and the hints it gives the image picker there: the
/// widgets' own places (the mini controller, the expanded controller, the Cast dialog) and
/// the app's screens (the list's thumbnails, the detail screen's poster), each asking for
/// the size it draws at.
struct PicturePlace: Hashable, Sendable, CaseIterable {
    var name: String
    var hints: ImageHints

    /// The media list: a thumbnail of each video and a larger one of the selected video.
    static let list = PicturePlace(
        name: "List",
        hints: ImageHints(use: ImageUse(rawValue: "listThumbnail"), preferredSize: ImageSize(width: 160, height: 90))
    )
    /// The detail screen's poster, portrait.
    static let detail = PicturePlace(
        name: "Detail",
        hints: ImageHints(use: ImageUse(rawValue: "detailPoster"), preferredSize: ImageSize(width: 390, height: 600))
    )
    static let miniController = PicturePlace(name: "Mini controller", hints: MiniControllerModel.thumbnailHints)
    static let expandedController = PicturePlace(
        name: "Expanded controller",
        hints: ExpandedControllerModel.artworkHints
    )
    static let castDialog = PicturePlace(name: "Cast dialog", hints: StopCastingDialog.artworkHints)

    static let allCases: [PicturePlace] = [.list, .detail, .miniController, .expandedController, .castDialog]

    /// The image `picker` chooses here from `metadata`.
    func image(from metadata: MediaMetadata, picker: any ImagePicker) -> MediaImage? {
        picker.image(for: hints, from: metadata)
    }
}
