import CastSender

/// The Cast button's state and tap logic, free of I/O.
struct CastButtonStateMachine: Sendable, Hashable {
    private(set) var buttonState: CastButtonState
    private var labels: [CastButtonState: String] = [:]

    init(castState: CastState) {
        buttonState = CastButtonState(castState)
    }

    /// The cast state changed; returns whether the button changed.
    mutating func castStateChanged(_ castState: CastState) -> Bool {
        let next = CastButtonState(castState)
        defer { buttonState = next }
        return next != buttonState
    }

    mutating func setAccessibilityLabel(_ label: String?, for state: CastButtonState) {
        labels[state] = label
    }

    func accessibilityLabel(for state: CastButtonState) -> String {
        labels[state] ?? state.defaultAccessibilityLabel
    }

    /// The button was tapped.
    /// - Parameters:
    ///   - connectedDialog: the stop-casting dialog for the current session, if connected.
    ///   - needsInterstitial: whether the local-network interstitial must come first.
    func tapped(connectedDialog: StopCastingDialog?, needsInterstitial: Bool) -> CastButtonAction {
        if buttonState == .connected, let connectedDialog { return .presentStopCastingDialog(connectedDialog) }
        return needsInterstitial ? .presentLocalNetworkInterstitial : .presentDeviceChooser
    }
}
