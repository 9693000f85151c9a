// swift-tools-version:6.0
import PackageDescription

// MARK: - Shared settings

/// Applied to every Swift target at the end of this file, so a new target cannot miss them.
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
        .target(name: "CastSync"),

        // MARK: Protocol
        .target(name: "CastCore"),

        // MARK: I/O
        .target(
            name: "CastNet",
            dependencies: ["CastCore", "CastSync", "COpenSSL", "CCastSystem"]
        ),

        // MARK: Device authentication
        .target(name: "CastAuth", dependencies: ["CastCore", "CastNet"]),

        // MARK: SDK
        .target(
            name: "CastSender",
            dependencies: ["CastCore", "CastNet", "CastAuth", "CastSync"]
        ),

        // MARK: Widgets
        .target(
            name: "CastSenderUI",
            dependencies: ["CastSender", "CastCore", "CastNet", "CastSync"]
        ),

        // MARK: Virtual device
        .target(
            name: "CastEmulator",
            dependencies: ["CastCore", "CastNet", "CastAuth", "CastSync"]
        ),

        // MARK: Terminal
        .target(name: "TerminalUI", dependencies: ["CastSync"]),

        // MARK: Command line
        .target(
            name: "CastCommandLine",
            dependencies: ["CastSender", "CastAuth", "CastCore", "CastNet", "CastSync", "TerminalUI"]
        ),

        // MARK: Executables
        .executableTarget(name: "cast", dependencies: ["CastCommandLine"]),
        .executableTarget(
            name: "cast-emulator",
            dependencies: ["CastEmulator", "CastAuth", "CastCore", "CastNet"]
        ),
        .executableTarget(
            name: "cast-bench",
            dependencies: ["CastCore", "CastNet", "CastSender", "CastEmulator", "CastSync"]
        ),

        .executableTarget(
            name: "mdns-tool",
            dependencies: ["CastCore", "CastNet"]
        ),
        .executableTarget(
            name: "castvideos",
            dependencies: [
                "CastSender", "CastSenderUI", "CastAuth", "CastCore", "CastEmulator", "CastSync", "TerminalUI",
            ]
        ),
        .executableTarget(name: "terminalui-demo", dependencies: ["TerminalUI"]),

        // MARK: Test support (used only by the test targets)
        .target(
            name: "CastTestSupport",
            dependencies: ["CCastSystem"],
            path: "Tests/CastTestSupport"
        ),
        .target(
            name: "CastSenderTestSupport",
            dependencies: ["CastSender", "CastEmulator", "CastAuth", "CastCore", "CastSync"],
            path: "Tests/CastSenderTestSupport"
        ),

        // MARK: Tests
        .testTarget(name: "CastSyncTests", dependencies: ["CastSync"]),
        .testTarget(
            name: "CastCoreTests",
            dependencies: ["CastCore", "CastTestSupport"]
        ),
        .testTarget(
            name: "CastNetTests",
            dependencies: ["CastNet", "CastCore", "CastSync", "mdns-tool", "CastTestSupport"]
        ),
        .testTarget(
            name: "CastAuthTests",
            dependencies: ["CastAuth", "CastNet", "CastCore", "CastTestSupport"]
        ),
        .testTarget(
            name: "CastSenderTests",
            dependencies: [
                "CastSender", "CastEmulator", "CastAuth", "CastNet", "CastCore", "CastSync", "CastTestSupport",
                "CastSenderTestSupport",
            ]
        ),
        .testTarget(
            name: "CastSenderUITests",
            dependencies: [
                "CastSenderUI", "CastSender", "CastEmulator", "CastNet", "CastCore", "CastSync", "CastTestSupport",
                "CastSenderTestSupport",
            ]
        ),
        .testTarget(
            name: "CastEmulatorTests",
            dependencies: ["CastEmulator", "CastNet", "CastCore", "CastAuth", "CastSync", "CastTestSupport"]
        ),
        .testTarget(
            name: "CastVideosTests",
            dependencies: ["castvideos", "CastCore", "CastSenderUI", "CastTestSupport"]
        ),
        .testTarget(name: "CastBenchTests", dependencies: ["cast-bench"]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "terminalui-demo", "CastSync", "CastTestSupport"]
        ),
        .testTarget(
            name: "CastCommandLineTests",
            dependencies: [
                "CastCommandLine", "CastEmulator", "CastSender", "CastAuth", "CastNet", "CastCore", "CastSync", "cast",
                "cast-emulator", "CastTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
