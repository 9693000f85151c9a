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
        .library(name: "CastSender", targets: ["CastSender"]),
        .library(name: "CastSenderUI", targets: ["CastSenderUI"]),
        .library(name: "CastEmulator", targets: ["CastEmulator"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "CastCommandLine", targets: ["CastCommandLine"]),
        .executable(name: "cast", targets: ["cast"]),
        .executable(name: "cast-bench", targets: ["cast-bench"]),
        .executable(name: "cast-emulator", targets: ["cast-emulator"]),
        .executable(name: "castvideos", targets: ["castvideos"]),
        .executable(name: "mdns-tool", targets: ["mdns-tool"]),
    ],
    targets: [
        // MARK: System
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(name: "CCastSystem"),

        // MARK: Locking
        .target(name: "CastSync", swiftSettings: strictSettings),

        // MARK: Protocol
        .target(name: "CastCore", swiftSettings: strictSettings),

        // MARK: I/O
        .target(
            name: "CastNet",
            dependencies: ["CastCore", "CastSync", "COpenSSL", "CCastSystem"],
            swiftSettings: strictSettings
        ),

        // MARK: Device authentication
        .target(name: "CastAuth", dependencies: ["CastCore", "CastNet"], swiftSettings: strictSettings),

        // MARK: SDK
        .target(
            name: "CastSender",
            dependencies: ["CastCore", "CastNet", "CastAuth", "CastSync"],
            swiftSettings: strictSettings
        ),

        // MARK: Widgets
        .target(
            name: "CastSenderUI",
            dependencies: ["CastSender", "CastCore", "CastNet", "CastSync"],
            swiftSettings: strictSettings
        ),

        // MARK: Virtual device
        .target(
            name: "CastEmulator",
            dependencies: ["CastCore", "CastNet", "CastAuth", "CastSync"],
            swiftSettings: strictSettings
        ),

        // MARK: Terminal
        .target(name: "TerminalUI", dependencies: ["CastSync"], swiftSettings: strictSettings),

        // MARK: Command line
        .target(
            name: "CastCommandLine",
            dependencies: ["CastSender", "CastAuth", "CastCore", "CastNet", "CastSync", "TerminalUI"],
            swiftSettings: strictSettings
        ),

        // MARK: Executables
        .executableTarget(name: "cast", dependencies: ["CastCommandLine"], swiftSettings: strictSettings),
        .executableTarget(
            name: "cast-emulator",
            dependencies: ["CastEmulator", "CastAuth", "CastCore", "CastNet"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cast-bench",
            dependencies: ["CastCore", "CastNet", "CastSender", "CastEmulator", "CastSync"],
            swiftSettings: strictSettings
        ),

        .executableTarget(
            name: "mdns-tool",
            dependencies: ["CastCore", "CastNet"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "castvideos",
            dependencies: [
                "CastSender", "CastSenderUI", "CastAuth", "CastCore", "CastEmulator", "CastSync", "TerminalUI",
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "terminalui-demo", dependencies: ["TerminalUI"], swiftSettings: strictSettings),

        // MARK: Test support (used only by the test targets)
        .target(
            name: "CastTestSupport",
            dependencies: ["CCastSystem"],
            path: "Tests/CastTestSupport",
            swiftSettings: strictSettings
        ),
        .target(
            name: "CastSenderTestSupport",
            dependencies: ["CastSender", "CastEmulator", "CastAuth", "CastCore", "CastSync"],
            path: "Tests/CastSenderTestSupport",
            swiftSettings: strictSettings
        ),

        // MARK: Tests
        .testTarget(name: "CastSyncTests", dependencies: ["CastSync"], swiftSettings: strictSettings),
        .testTarget(
            name: "CastCoreTests",
            dependencies: ["CastCore", "CastTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastNetTests",
            dependencies: ["CastNet", "CastCore", "CastSync", "mdns-tool", "CastTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastAuthTests",
            dependencies: ["CastAuth", "CastNet", "CastCore", "CastTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastSenderTests",
            dependencies: [
                "CastSender", "CastEmulator", "CastAuth", "CastNet", "CastCore", "CastSync", "CastTestSupport",
                "CastSenderTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastSenderUITests",
            dependencies: [
                "CastSenderUI", "CastSender", "CastEmulator", "CastNet", "CastCore", "CastSync", "CastTestSupport",
                "CastSenderTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastEmulatorTests",
            dependencies: ["CastEmulator", "CastNet", "CastCore", "CastAuth", "CastSync", "CastTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastVideosTests",
            dependencies: ["castvideos", "CastCore", "CastTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "CastBenchTests", dependencies: ["cast-bench"], swiftSettings: strictSettings),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "terminalui-demo", "CastSync", "CastTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CastCommandLineTests",
            dependencies: [
                "CastCommandLine", "CastEmulator", "CastSender", "CastAuth", "CastNet", "CastCore", "CastSync", "cast",
                "cast-emulator", "CastTestSupport",
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
