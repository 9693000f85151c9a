// swift-tools-version:6.0
import PackageDescription

// An app of its own that uses swift-cast's widget models: here by path, from a clone.
let package = Package(
    name: "WidgetsInText",
    dependencies: [
        .package(name: "swift-cast", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "widgets-in-text",
            dependencies: [
                .product(name: "CastSender", package: "swift-cast"),
                .product(name: "CastSenderUI", package: "swift-cast"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
