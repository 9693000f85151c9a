import CastCore
import Testing

@testable import CastSenderUI

@Suite struct ImagePickerTests {
    static let metadata = MediaMetadata(
        metadataType: .movie,
        images: [
            MediaImage(url: "unsized.jpg"),
            MediaImage(url: "480.jpg", width: 480, height: 270),
            MediaImage(url: "120.jpg", width: 120, height: 90),
            MediaImage(url: "1920.jpg", width: 1920, height: 1080),
            MediaImage(url: "780.jpg", width: 780, height: 1200),
        ]
    )

    @Test(arguments: [
        (ImageUse.castDialog, ImageSize(width: 100, height: 80), "120.jpg"),
        (.miniController, ImageSize(width: 121, height: 90), "480.jpg"),
        (.expandedBackground, ImageSize(width: 1280, height: 720), "1920.jpg"),
        (.expandedBackground, ImageSize(width: 4000, height: 3000), "1920.jpg"),
        (.dialog, ImageSize(width: 500, height: 1000), "780.jpg"),
        (.dialog, ImageSize(width: 1, height: 1), "120.jpg"),
    ])
    func bestFitPicksTheSmallestLargeEnoughElseTheLargest(use: ImageUse, size: ImageSize, expected: String) {
        let hints = ImageHints(use: use, preferredSize: size)
        #expect(BestFitImagePicker().image(for: hints, from: Self.metadata)?.url == expected)
    }

    @Test func withoutSizeOrDimensionsTheFirstImage() {
        #expect(
            BestFitImagePicker().image(for: ImageHints(use: .castDialog), from: Self.metadata)?.url == "unsized.jpg"
        )
        let unsized = MediaMetadata(images: [MediaImage(url: "a.jpg"), MediaImage(url: "b.jpg", width: 0, height: 10)])
        let hints = ImageHints(use: .miniController, preferredSize: ImageSize(width: 10, height: 10))
        #expect(BestFitImagePicker().image(for: hints, from: unsized)?.url == "a.jpg")
        #expect(BestFitImagePicker().image(for: hints, from: MediaMetadata()) == nil)
    }

    @Test(arguments: [ImageUse.castDialog, .miniController, .expandedBackground, .dialog])
    func defaultPickerTakesTheFirst(use: ImageUse) {
        let hints = ImageHints(use: use, preferredSize: ImageSize(width: 1920, height: 1080))
        #expect(FirstImagePicker().image(for: hints, from: Self.metadata)?.url == "unsized.jpg")
        #expect(FirstImagePicker().image(for: hints, from: MediaMetadata()) == nil)
    }

    @Test func tiesGoToTheEarlierImage() {
        let metadata = MediaMetadata(images: [
            MediaImage(url: "first.jpg", width: 200, height: 200),
            MediaImage(url: "second.jpg", width: 200, height: 200),
        ])
        let hints = ImageHints(use: .dialog, preferredSize: ImageSize(width: 100, height: 100))
        #expect(BestFitImagePicker().image(for: hints, from: metadata)?.url == "first.jpg")
    }
}
