import CastCore

extension ReceiverStatus {
    /// The status with the volume a device sent brought into range (`level` and
    /// `stepInterval` to 0...1; a NaN level reads 0, a NaN step 0.05), and the names of the
    /// fields that had to change, for a warning in the log. The session, the volume widgets and
    /// `cast status` read the volume from these values, so a hostile device's `1e300` never
    /// reaches a conversion that traps.
    func clampingWireNumbers() -> (status: ReceiverStatus, clamped: [String]) {
        guard var volume else { return (self, []) }
        var clamped: [String] = []
        if let level = volume.level, level.isNaN || !(0...1).contains(level) {
            volume.level = level.isNaN ? 0 : min(max(level, 0), 1)
            clamped.append("volume.level")
        }
        if let step = volume.stepInterval, step.isNaN || !(0...1).contains(step) {
            volume.stepInterval = step.isNaN ? 0.05 : min(max(step, 0), 1)
            clamped.append("volume.stepInterval")
        }
        guard !clamped.isEmpty else { return (self, []) }
        var status = self
        status.volume = volume
        return (status, clamped)
    }
}
