public import CastCore

/// How one class of real Cast device speaks: the volume it reports, its equaliser, what it
/// can do, what its status lists while idle. Taken from payloads captured on real hardware
/// (`shared/testdata/real-devices`).
///
/// | profile | models | volume | `userEq` | idle | `ca` |
/// |---|---|---|---|---|---|
/// | ``hdmiDongle`` | Chromecast, Chromecast Ultra | `fixed`, steps 0.04 | `{}` | Backdrop | video + audio |
/// | ``googleTV`` | Chromecast with Google TV | `master`, 0.01 | `{}` | no `applications` | video + audio |
/// | ``speaker`` | Google Home, Nest Mini, Nest Audio, Chromecast Audio | `master`, 0.02 | shelf EQ | no `applications` | audio only |
/// | ``display`` | Nest Hub, Nest Hub Max | `attenuation`, 0.05 | shelf EQ, 4 peaking EQs | Backdrop | video + audio |
/// | ``television`` | Cast built-in TVs (Android TV, Shield) | `master`, 0.01 | `{}` | Backdrop | video + audio |
///
/// Devices with an HDMI input (TVs, Google TV) report `isActiveInput` and `isStandBy`;
/// audio devices and dongles do not. Every volume level and step leaves the device as a
/// float32 value widened to double (`0.05000000074505806`), as on hardware.
///
/// ``generic`` is what earlier versions of the virtual device spoke (an adjustable video
/// device in exact 0.05 steps); ``VirtualDeviceConfiguration`` uses it unless given a
/// profile, while `cast-emulator` picks the profile of each device's model.
public struct DeviceProfile: Hashable, Sendable {
    /// The class of device.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// An HDMI dongle (Chromecast, Chromecast Ultra).
        public static let hdmiDongle = Kind(rawValue: "hdmi-dongle")
        /// Chromecast with Google TV.
        public static let googleTV = Kind(rawValue: "google-tv")
        /// A speaker (Google Home, Nest Mini, Nest Audio, Chromecast Audio).
        public static let speaker = Kind(rawValue: "speaker")
        /// A smart display (Nest Hub).
        public static let display = Kind(rawValue: "display")
        /// A TV with Cast built in.
        public static let television = Kind(rawValue: "tv")
        /// The profile of earlier versions of the virtual device.
        public static let generic = Kind(rawValue: "generic")
        /// A speaker group (model `Google Cast Group`), hosted by its leader.
        public static let speakerGroup = Kind(rawValue: "group")
    }

    /// The class of device.
    public var kind: Kind
    /// What the device can do (mDNS `ca`, eureka_info `display_supported`); an audio-only
    /// device lacks ``DeviceCapabilities/videoOut``.
    public var capabilities: DeviceCapabilities
    /// How its volume is controlled; `fixed` devices ignore `SET_VOLUME`.
    public var volumeControlType: VolumeControlType
    /// The step of its volume buttons, as `RECEIVER_STATUS` reports it.
    public var volumeStepInterval: Double
    /// `RECEIVER_STATUS` `userEq`.
    public var userEq: JSONValue
    /// The HDMI-CEC state at start (`isActiveInput`, `isStandBy`), or `nil` for devices
    /// without an HDMI input, which report neither.
    public var inputState: DeviceInputState?
    /// Whether Backdrop runs while no app does.
    public var hasIdleScreen: Bool
    /// Whether an idle status carries `applications: []` (`false`: the member is left out,
    /// as recent firmware does).
    public var listsApplicationsWhenIdle: Bool
    /// Whether volume levels and steps are reported as float32 values widened to double.
    public var reportsFloat32Volume: Bool
    /// Whether running apps report `senderConnected` (newer firmware).
    public var reportsSenderConnected: Bool
    /// Whether the device can join speaker groups (eureka_info `multizone_supported`).
    public var supportsMultizone: Bool

    /// Creates a profile.
    public init(
        kind: Kind,
        capabilities: DeviceCapabilities,
        volumeControlType: VolumeControlType,
        volumeStepInterval: Double,
        userEq: JSONValue,
        inputState: DeviceInputState?,
        hasIdleScreen: Bool,
        listsApplicationsWhenIdle: Bool,
        reportsFloat32Volume: Bool,
        reportsSenderConnected: Bool,
        supportsMultizone: Bool
    ) {
        self.kind = kind
        self.capabilities = capabilities
        self.volumeControlType = volumeControlType
        self.volumeStepInterval = volumeStepInterval
        self.userEq = userEq
        self.inputState = inputState
        self.hasIdleScreen = hasIdleScreen
        self.listsApplicationsWhenIdle = listsApplicationsWhenIdle
        self.reportsFloat32Volume = reportsFloat32Volume
        self.reportsSenderConnected = reportsSenderConnected
        self.supportsMultizone = supportsMultizone
    }

    /// `value` as the float32 a device stores, widened back to double.
    public static func float32(_ value: Double) -> Double {
        Double(Float(value))
    }

    /// The speakers' shelf equaliser, flat (`userEq` of Google Home and Nest speakers).
    public static func shelfEqualizer(maximumPeakingEQs: Int) -> JSONValue {
        [
            "high_shelf": ["frequency": 4500, "gain_db": 0, "quality": 0.707],
            "low_shelf": ["frequency": 150, "gain_db": 0, "quality": 0.707],
            "max_peaking_eqs": .integer(maximumPeakingEQs),
            "peaking_eqs": [],
        ]
    }

    /// Chromecast, Chromecast Ultra: the TV owns the volume.
    public static let hdmiDongle = DeviceProfile(
        kind: .hdmiDongle,
        capabilities: [.videoOut, .audioOut, .attenuationOrFixedVolume],
        volumeControlType: .fixed,
        volumeStepInterval: float32(0.04),
        userEq: [:],
        inputState: nil,
        hasIdleScreen: true,
        listsApplicationsWhenIdle: true,
        reportsFloat32Volume: true,
        reportsSenderConnected: false,
        supportsMultizone: false
    )

    /// Chromecast with Google TV: an Android TV device on HDMI; idle, it lists no
    /// `applications`.
    public static let googleTV = DeviceProfile(
        kind: .googleTV,
        capabilities: [.videoOut, .audioOut, .masterOrFixedVolume],
        volumeControlType: .master,
        volumeStepInterval: float32(0.01),
        userEq: [:],
        inputState: DeviceInputState(isActiveInput: true, isStandBy: false),
        hasIdleScreen: false,
        listsApplicationsWhenIdle: false,
        reportsFloat32Volume: true,
        reportsSenderConnected: true,
        supportsMultizone: false
    )

    /// Google Home, Nest Mini, Nest Audio, Chromecast Audio: audio only, master volume in
    /// 0.02 steps, the shelf equaliser, groupable.
    public static let speaker = DeviceProfile(
        kind: .speaker,
        capabilities: DeviceCapabilities(rawValue: 196_612),
        volumeControlType: .master,
        volumeStepInterval: float32(0.02),
        userEq: shelfEqualizer(maximumPeakingEQs: 0),
        inputState: nil,
        hasIdleScreen: false,
        listsApplicationsWhenIdle: false,
        reportsFloat32Volume: true,
        reportsSenderConnected: true,
        supportsMultizone: true
    )

    /// Nest Hub: attenuation volume in 0.05 steps, the shelf equaliser with four peaking
    /// EQs, groupable.
    public static let display = DeviceProfile(
        kind: .display,
        capabilities: DeviceCapabilities(rawValue: 229_381),
        volumeControlType: .attenuation,
        volumeStepInterval: float32(0.05),
        userEq: shelfEqualizer(maximumPeakingEQs: 4),
        inputState: nil,
        hasIdleScreen: true,
        listsApplicationsWhenIdle: true,
        reportsFloat32Volume: true,
        reportsSenderConnected: false,
        supportsMultizone: true
    )

    /// A TV with Cast built in: master volume in 0.01 steps and the HDMI-CEC state, which
    /// a LAUNCH wakes from standby.
    public static let television = DeviceProfile(
        kind: .television,
        capabilities: [.videoOut, .audioOut, .masterOrFixedVolume],
        volumeControlType: .master,
        volumeStepInterval: float32(0.01),
        userEq: [:],
        inputState: DeviceInputState(isActiveInput: true, isStandBy: false),
        hasIdleScreen: true,
        listsApplicationsWhenIdle: true,
        reportsFloat32Volume: true,
        reportsSenderConnected: true,
        supportsMultizone: false
    )

    /// What earlier versions spoke for every model: adjustable attenuation volume in exact
    /// 0.05 steps, `userEq: {}`, the HDMI-CEC state on video devices.
    public static let generic = DeviceProfile(
        kind: .generic,
        capabilities: [.videoOut, .audioOut],
        volumeControlType: .attenuation,
        volumeStepInterval: 0.05,
        userEq: [:],
        inputState: DeviceInputState(isActiveInput: true, isStandBy: false),
        hasIdleScreen: true,
        listsApplicationsWhenIdle: true,
        reportsFloat32Volume: false,
        reportsSenderConnected: false,
        supportsMultizone: false
    )

    /// A speaker group (`Google Cast Group`), as its leader serves it on a port of its own
    /// (32xxx): audio only with the group bit (`ca` 2084), master volume in 0.05 steps and the
    /// shelf equaliser, as the captured group leader's `RECEIVER_STATUS` shows; no idle screen.
    public static let speakerGroup = DeviceProfile(
        kind: .speakerGroup,
        capabilities: [.audioOut, .multizoneGroup, .masterOrFixedVolume],
        volumeControlType: .master,
        volumeStepInterval: float32(0.05),
        userEq: shelfEqualizer(maximumPeakingEQs: 0),
        inputState: nil,
        hasIdleScreen: false,
        listsApplicationsWhenIdle: false,
        reportsFloat32Volume: true,
        reportsSenderConnected: true,
        supportsMultizone: true
    )

    /// The profiles taken from real devices, in the order ``init(model:)`` tries them.
    public static let all: [DeviceProfile] = [.googleTV, .speaker, .display, .television, .hdmiDongle]

    /// The profile of a model name, case-insensitively: `Chromecast with Google TV` (or
    /// `Google TV`) is ``googleTV``; a name with `Hub` or `display` ``display``; with `TV`,
    /// `Shield` or `television` ``television``; speakers (`Google Home`, `Nest Mini`, `Nest
    /// Audio`, `Chromecast Audio`, any name with `speaker`) ``speaker``; anything else,
    /// `Chromecast` included, ``hdmiDongle``. The kinds' own names (`speaker`, `tv`, …) select
    /// them too.
    public init(model: String) {
        let name = model.lowercased()
        func has(_ words: String...) -> Bool { words.contains { name.contains($0) } }
        if let exact = Self.all.first(where: { $0.kind.rawValue == name }) {
            self = exact
        } else if name == "google cast group" {
            self = .speakerGroup
        } else if has("google tv") {
            self = .googleTV
        } else if has("hub", "display") {
            self = .display
        } else if has("tv", "shield", "television") {
            self = .television
        } else if has("home", "nest mini", "nest audio", "chromecast audio", "speaker") {
            self = .speaker
        } else {
            self = .hdmiDongle
        }
    }
}
