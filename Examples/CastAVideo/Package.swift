// swift-tools-version:6.0
import PackageDescription

// An app of its own that uses swift-cast: here by path, from a clone of the repository.
let package = Package(
    name: "CastAVideo",
    dependencies: [
        .package(name: "swift-cast", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "cast-a-video",
            dependencies: [.product(name: "CastSender", package: "swift-cast")]
        )
    ],
    swiftLanguageModes: [.v6]
)
