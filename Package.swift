// swift-tools-version:6.0
import PackageDescription

// MARK: - Shared settings

/// Applied to every Swift target at the end of this file, so a new target cannot miss them.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // An import is internal unless it says otherwise: a module whose public (or package)
    // declarations use another module's types imports it `public` (or `package`), so what a
    // module exposes of its dependencies is written where it happens.
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// A command-line tool starts many times a day: its release build carries the Swift runtime
/// and Foundation inside the binary instead of loading a dozen shared libraries, which halves
/// its start time and takes about 14 MiB off its peak memory (docs/performance.md, "The
/// command line"). Debug builds and the test bundles, which link the same modules with
/// XCTest's shared runtime, stay dynamic.
let staticRuntimeInRelease: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib", "-use-ld=lld", "-Xclang-linker", "-no-pie",
            // The modules were compiled against the shared Foundation, whose own libraries the
            // static archives need named: CoreFoundation, ICU and the shims, in one group.
            "-Xlinker", "--start-group",
            "-lFoundation", "-lFoundationEssentials", "-lFoundationInternationalization", "-lCoreFoundation",
            "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
            "-Xlinker", "--end-group",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ],
        .when(platforms: [.linux], configuration: .release)
    )
]

/// The functions one `cast play` runs, placed first in the release `cast` in the order it runs
/// them: a command then touches about 1 MiB of the binary instead of most of its 12 MiB, since
/// the kernel maps 64 KiB around each page a process faults in (peak memory of `cast play`
/// about 22 → 18 MiB). `scripts/symbol-order.sh` writes the list; names the binary no longer
/// has are ignored, so a stale list costs memory, never correctness.
let castSymbolOrder: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/cast/symbol-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
        ],
        .when(platforms: [.linux], configuration: .release)
    )
]

// MARK: - Package

/// The inner modules are products only for the fuzzers' package (Fuzz/, which reaches this one
/// by path and sets SWIFT_CAST_INTERNAL_PRODUCTS): apps use CastSender, CastSenderUI and
/// CastEmulator.
let internalProducts: [Product] =
    Context.environment["SWIFT_CAST_INTERNAL_PRODUCTS"] == nil
    ? []
    : [
        .library(name: "CastTime", targets: ["CastTime"]),
        .library(name: "CastCrypto", targets: ["CastCrypto"]),
        .library(name: "CastNetCore", targets: ["CastNetCore"]),
        .library(name: "CastNet", targets: ["CastNet"]),
        .library(name: "CastAuth", targets: ["CastAuth"]),
        .library(name: "CastCommandLine", targets: ["CastCommandLine"]),
        .library(name: "CastArguments", targets: ["CastArguments"]),
    ]

let package = Package(
    name: "swift-cast",
    products: [
        // What apps build on; their public surface is listed in api/ and checked by
        // scripts/api.sh. CastSender re-exports the parts of CastCore, CastAuth and CastCrypto
        // its API uses.
        .library(name: "CastSender", targets: ["CastSender"]),
        // Google's SDK's NotificationCenter names, apart so that CastSender needs no Foundation.
        .library(name: "CastSenderNotifications", targets: ["CastSenderNotifications"]),
        .library(name: "CastSenderUI", targets: ["CastSenderUI"]),
        .library(name: "CastEmulator", targets: ["CastEmulator"]),
        .library(name: "CastCore", targets: ["CastCore"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .executable(name: "cast", targets: ["cast"]),
        .executable(name: "cast-bench", targets: ["cast-bench"]),
        .executable(name: "cast-emulator", targets: ["cast-emulator"]),
        .executable(name: "castvideos", targets: ["castvideos"]),
        .executable(name: "mdns-tool", targets: ["mdns-tool"]),
    ] + internalProducts,
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

        // MARK: Time
        .target(name: "CastTime", dependencies: ["CastSync"]),

        // MARK: Protocol
        .target(name: "CastCore"),

        // MARK: Crypto
        .target(name: "CastCrypto", dependencies: ["COpenSSL"]),

        // MARK: Protocol machines (no system calls)
        .target(name: "CastNetCore", dependencies: ["CastCore", "CastSync", "CastTime"]),
        // An event loop and byte channels in memory, run by the test that drives them.
        .target(name: "CastNetEmbedded", dependencies: ["CastNetCore", "CastCore", "CastSync", "CastTime"]),

        // MARK: I/O
        .target(
            name: "CastNet",
            dependencies: ["CastNetCore", "CastCore", "CastCrypto", "CastSync", "COpenSSL", "CCastSystem", "CastTime"]
        ),

        // MARK: Device authentication
        .target(name: "CastAuth", dependencies: ["CastCore", "CastCrypto"]),

        // MARK: SDK
        .target(
            name: "CastSender",
            dependencies: ["CastCore", "CastNet", "CastNetCore", "CastAuth", "CastSync", "CastCrypto", "CastTime"]
        ),

        // The SDK's notifications through NotificationCenter (the one part that needs Foundation).
        .target(name: "CastSenderNotifications", dependencies: ["CastSender"]),

        // MARK: Widgets
        .target(
            name: "CastSenderUI",
            dependencies: [
                "CastSender", "CastSenderNotifications", "CastCore", "CastNet", "CastNetCore", "CastSync", "CastCrypto",
                "CastTime",
            ]
        ),

        // MARK: Virtual device
        .target(
            name: "CastEmulator",
            dependencies: ["CastCore", "CastNet", "CastNetCore", "CastAuth", "CastSync", "CastCrypto", "CastTime"]
        ),

        // MARK: Terminal
        .target(name: "TerminalUI", dependencies: ["CastSync"]),

        // MARK: Command-line arguments (one parser, help layout and error style for every executable)
        .target(name: "CastArguments", dependencies: ["TerminalUI"]),

        // MARK: Command line
        .target(
            name: "CastCommandLine",
            dependencies: [
                "CastSender", "CastAuth", "CastCore", "CastNet", "CastSync", "TerminalUI", "CastCrypto",
                "CastArguments", "CastNetCore",
            ]
        ),

        // MARK: Executables
        .executableTarget(
            name: "cast",
            dependencies: ["CastCommandLine"],
            exclude: ["symbol-order.txt"],
            linkerSettings: staticRuntimeInRelease + castSymbolOrder
        ),
        .executableTarget(
            name: "cast-emulator",
            dependencies: ["CastEmulator", "CastAuth", "CastCore", "CastNet", "CastCrypto", "CastArguments"]
        ),
        .executableTarget(
            name: "cast-bench",
            dependencies: [
                "CastCore", "CastNet", "CastSender", "CastEmulator", "CastSync", "CastCrypto", "CastAuth",
                "CBenchTrace", "CastArguments", "CastNetCore",
            ]
        ),
        // ptrace for cast-bench's peak-memory readings of child processes.
        .target(name: "CBenchTrace"),

        .executableTarget(
            name: "mdns-tool",
            dependencies: ["CastCore", "CastNet", "CastArguments", "CastNetCore"]
        ),
        .executableTarget(
            name: "castvideos",
            dependencies: [
                "CastSender", "CastSenderUI", "CastAuth", "CastCore", "CastEmulator", "CastSync", "TerminalUI",
                "CastNet", "CastArguments", "CastNetCore",
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
            dependencies: [
                "CastSender", "CastEmulator", "CastAuth", "CastCore", "CastSync", "CastTestSupport", "CastNetEmbedded",
                "CastNetCore", "CastTime",
            ],
            path: "Tests/CastSenderTestSupport"
        ),

        // MARK: Tests
        .testTarget(name: "CastSyncTests", dependencies: ["CastSync"]),
        .testTarget(name: "CastArgumentsTests", dependencies: ["CastArguments"]),
        .testTarget(
            name: "CastCoreTests",
            dependencies: ["CastCore", "CastTestSupport"]
        ),
        .testTarget(
            name: "CastNetCoreTests",
            dependencies: ["CastNetCore", "CastNetEmbedded", "CastCore", "CastSync", "CastTestSupport", "CastTime"]
        ),
        .testTarget(
            name: "CastNetTests",
            dependencies: [
                "CastNet", "CastNetCore", "CastNetEmbedded", "CastCore", "CastSync", "mdns-tool", "CastTestSupport",
                "CastCrypto",
                "CastTime",
            ]
        ),
        .testTarget(
            name: "CastAuthTests",
            dependencies: ["CastAuth", "CastNet", "CastCore", "CastTestSupport", "CastCrypto"]
        ),
        .testTarget(
            name: "CastSenderTests",
            dependencies: [
                "CastSender", "CastEmulator", "CastAuth", "CastNet", "CastNetCore", "CastNetEmbedded", "CastCore",
                "CastSync", "CastTestSupport", "CastSenderTestSupport", "CastCrypto", "CastTime",
                "CastSenderNotifications",
            ]
        ),
        .testTarget(
            name: "CastSenderUITests",
            dependencies: [
                "CastSenderUI", "CastSender", "CastEmulator", "CastNet", "CastNetCore", "CastCore", "CastSync",
                "CastTestSupport", "CastSenderTestSupport", "CastCrypto", "CastTime",
            ]
        ),
        .testTarget(
            name: "CastEmulatorTests",
            dependencies: [
                "CastEmulator", "CastNet", "CastNetCore", "CastNetEmbedded", "CastCore", "CastAuth", "CastSync",
                "CastTestSupport", "CastCrypto", "CastTime",
            ]
        ),
        .testTarget(
            name: "CastVideosTests",
            dependencies: [
                "castvideos", "CastAuth", "CastCore", "CastEmulator", "CastNet", "CastSenderUI", "CastTestSupport",
                "CastArguments", "CastNetCore",
            ]
        ),
        .testTarget(name: "CastBenchTests", dependencies: ["cast-bench", "CastArguments", "CastTestSupport"]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "terminalui-demo", "CastSync", "CastTestSupport", "CastSenderUI"]
        ),
        .testTarget(
            name: "CastCommandLineTests",
            dependencies: [
                "CastCommandLine", "CastEmulator", "CastSender", "CastAuth", "CastNet", "CastCore", "CastSync", "cast",
                "cast-emulator", "CastTestSupport", "CastSenderTestSupport", "CastCrypto", "CastTime", "CastArguments",
                "CastNetCore",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system && target.name != "CBenchTrace" {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
