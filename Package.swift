// swift-tools-version:6.0
import PackageDescription

// MARK: - Shared settings

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// MARK: - Package

let package = Package(
    name: "swift-cast",
    products: [
        .library(name: "CastCore", targets: ["CastCore"]),
        .library(name: "CastNet", targets: ["CastNet"]),
        .library(name: "CastAuth", targets: ["CastAuth"]),
        .executable(name: "cast-bench", targets: ["cast-bench"]),
        .executable(name: "mdns-tool", targets: ["mdns-tool"]),
    ],
    targets: [
        // MARK: System
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),

        // MARK: Protocol
        .target(name: "CastCore", swiftSettings: strictSettings),

        // MARK: I/O
        .target(name: "CastNet", dependencies: ["CastCore", "COpenSSL"], swiftSettings: strictSettings),

        // MARK: Device authentication
        .target(name: "CastAuth", dependencies: ["CastCore", "CastNet"], swiftSettings: strictSettings),

        // MARK: Executables
        .executableTarget(
            name: "cast-bench",
            dependencies: ["CastCore", "CastNet"],
            swiftSettings: strictSettings
        ),

        .executableTarget(
            name: "mdns-tool",
            dependencies: ["CastCore", "CastNet"],
            swiftSettings: strictSettings
        ),

        // MARK: Tests
        .testTarget(name: "CastCoreTests", dependencies: ["CastCore"], swiftSettings: strictSettings),
        .testTarget(
            name: "CastNetTests",
            dependencies: ["CastNet", "CastCore", "mdns-tool"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastAuthTests",
            dependencies: ["CastAuth", "CastNet", "CastCore"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
