// swift-tools-version:6.0
import PackageDescription

// Fuzz targets for every decoder of swift-cast, built with libFuzzer:
//
//     scripts/fuzz.sh            # builds and runs every target (see the script for options)
//
// This package depends on the root package by path, so the root package's own build never
// sees these entry points. SwiftPM names a path dependency after its directory; when the
// checkout's directory is itself called "fuzz" the two identities clash, so `scripts/fuzz.sh`
// passes the root through a link named `swift-cast` in `SWIFT_CAST_PACKAGE_PATH`.

// MARK: - Shared settings

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let rootPath = Context.environment["SWIFT_CAST_PACKAGE_PATH"] ?? ".."

let castCore = Target.Dependency.product(name: "CastCore", package: "swift-cast")
let castTime = Target.Dependency.product(name: "CastTime", package: "swift-cast")
let castCrypto = Target.Dependency.product(name: "CastCrypto", package: "swift-cast")
let castNetCore = Target.Dependency.product(name: "CastNetCore", package: "swift-cast")
let castNet = Target.Dependency.product(name: "CastNet", package: "swift-cast")
let castAuth = Target.Dependency.product(name: "CastAuth", package: "swift-cast")
let castSenderUI = Target.Dependency.product(name: "CastSenderUI", package: "swift-cast")
let castEmulator = Target.Dependency.product(name: "CastEmulator", package: "swift-cast")
let castSender = Target.Dependency.product(name: "CastSender", package: "swift-cast")
let terminalUI = Target.Dependency.product(name: "TerminalUI", package: "swift-cast")
let castCommandLine = Target.Dependency.product(name: "CastCommandLine", package: "swift-cast")

/// One libFuzzer entry point per decoder, then one per state machine driven by programs of
/// messages (the virtual device's engine, the SDK's media client, the widget models, the
/// CLI's status report), and one per client of hostile HTTP servers (the media fetcher and
/// the CLI's downloads): `Sources/fuzz-<name>/main.swift`.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("fuzz-frame", [castCore]),
    ("fuzz-cast-message", [castCore, "FuzzCastSupport"]),
    ("fuzz-device-auth-message", [castCore, "FuzzCastSupport"]),
    ("fuzz-crl-bundle", [castCore, castCrypto, castAuth, "FuzzCastSupport"]),
    ("fuzz-device-auth", [castCore, castCrypto, castAuth, "FuzzCastSupport"]),
    ("fuzz-json", [castCore]),
    ("fuzz-dns", [castCore, castNetCore, castTime]),
    ("fuzz-http", [castNetCore]),
    ("fuzz-png", [castSenderUI]),
    ("fuzz-jpeg", [castSenderUI]),
    ("fuzz-device-engine", [castCore, castEmulator, castTime]),
    ("fuzz-media-client", [castCore, castNet, castSender, castTime]),
    ("fuzz-widgets", [castCore, castNet, castSender, castSenderUI, terminalUI, castTime]),
    ("fuzz-status-report", [castCore, castNet, castSender, castCommandLine, castTime]),
    ("fuzz-http-server", [castNetCore, castNet, castEmulator, castCommandLine]),
]

// MARK: - Package

let package = Package(
    name: "swift-cast-fuzz",
    products: fuzzTargets.map { .executable(name: $0.name, targets: [$0.name]) } + [
        .executable(name: "fuzz-seeds", targets: ["fuzz-seeds"])
    ],
    dependencies: [
        .package(name: "swift-cast", path: rootPath)
    ],
    targets: [
        // MARK: Support
        .target(name: "FuzzSupport", swiftSettings: strictSettings),
        .target(
            name: "FuzzCastSupport",
            dependencies: ["FuzzSupport", castCore, castCrypto, castAuth],
            swiftSettings: strictSettings
        ),

        // MARK: Seed corpus generator (a plain executable, built without sanitizers)
        .executableTarget(
            name: "fuzz-seeds",
            dependencies: [
                "FuzzSupport", "FuzzCastSupport", castCore, castCrypto, castNet, castNetCore, castAuth, castEmulator,
            ],
            swiftSettings: strictSettings
        ),
    ]
        + fuzzTargets.map {
            .executableTarget(
                name: $0.name,
                dependencies: ["FuzzSupport"] + $0.dependencies,
                swiftSettings: strictSettings
            )
        },
    swiftLanguageModes: [.v6]
)
