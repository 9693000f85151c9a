import CastSync

/// The device volume (receiver SET_VOLUME), refused at once for a fixed-volume device.
extension CastSession {
    /// Sets the device volume, 0 to 1 (receiver SET_VOLUME).
    ///
    /// - Returns: a request that fails at once with ``CastError/Code/invalidRequest`` for a
    ///   level outside [0, 1] (or not finite), and with ``CastError/Code/notAllowed``, sending
    ///   nothing, when the device reports a fixed volume (``isFixedVolume``): such devices
    ///   (an HDMI dongle whose TV owns the volume) ignore SET_VOLUME.
    @discardableResult
    public func setDeviceVolume(_ level: Double) -> CastRequest {
        guard level.isFinite, (0...1).contains(level) else {
            return CastRequest.failed(
                "SET_VOLUME",
                CastError(.invalidRequest, "setDeviceVolume: level \(level) is outside [0, 1]"),
                callbackQueue: environment.options.callbackQueue
            )
        }
        if let refusal = fixedVolumeRefusal("setDeviceVolume") { return refusal }
        environment.options.logger.log(.debug, .session, "device volume change", metadata: ["cast.level": "\(level)"])
        let serial = state.withLock { $0.machine.volumeChangeRequested(level: level) }
        let request = receiverRequest("SET_VOLUME") {
            SetDeviceVolumeRequest(requestID: $0, volume: Volume(level: level))
        }
        // Settled before anyone awaiting the request resumes: an app that awaited it never
        // sees the change still pending.
        request.whenSettled { [weak self] _ in
            self?.state.withLock { $0.machine.volumeChangeSettled(serial) }
        }
        return request
    }

    /// Moves the device volume by `steps` steps of the device's ``deviceVolumeIncrement``
    /// (its `stepInterval`), from the level of a change still in flight when there is one,
    /// so that quick presses add up; the result is clamped to [0, 1] and snapped to the step.
    /// - Returns: the SET_VOLUME request, or one that fails at once with
    ///   ``CastError/Code/notAllowed`` for a fixed-volume device.
    @discardableResult
    public func stepDeviceVolume(by steps: Int) -> CastRequest {
        let (base, increment) = state.withLock { state in
            (
                state.machine.pendingVolume?.level ?? state.machine.volume?.level ?? 0,
                state.machine.volume?.stepInterval ?? 0.05
            )
        }
        return setDeviceVolume(Self.stepped(base, by: steps, increment: increment))
    }

    /// `level` moved by `steps` increments, snapped to the increment grid and clamped to [0, 1].
    static func stepped(_ level: Double, by steps: Int, increment: Double) -> Double {
        let step = increment.isFinite && increment > 0.001 ? min(increment, 1) : 0.05
        let base = level.isFinite ? min(max(level, 0), 1) : 0
        let moved = ((base / step).rounded() + Double(steps)) * step
        return min(max((moved * 1000).rounded() / 1000, 0), 1)
    }

    /// Mutes or unmutes the device (receiver SET_VOLUME).
    ///
    /// - Returns: a request that fails with ``CastError/Code/notAllowed`` at once, sending
    ///   nothing, when the device reports a fixed volume (``isFixedVolume``).
    @discardableResult
    public func setDeviceMuted(_ muted: Bool) -> CastRequest {
        if let refusal = fixedVolumeRefusal("setDeviceMuted") { return refusal }
        return receiverRequest("SET_VOLUME") { SetDeviceVolumeRequest(requestID: $0, volume: Volume(muted: muted)) }
    }

    /// A failed request when the device volume cannot be changed, else `nil`.
    func fixedVolumeRefusal(_ call: String) -> CastRequest? {
        guard isFixedVolume else { return nil }
        return CastRequest.failed(
            "SET_VOLUME",
            CastError(
                .notAllowed,
                "\(call): the device volume is fixed (controlType \"fixed\"); change it on the TV or amplifier"
            ),
            callbackQueue: environment.options.callbackQueue
        )
    }
}
