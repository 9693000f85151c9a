import CastTime

extension VirtualDevice {
    /// Gives the device's ``SpeakerGroupEvent``s to `handler`, called after the device's lock is
    /// released (`nil` drops them).
    func setMultizoneHandler(_ handler: (@Sendable (SpeakerGroupEvent) -> Void)?) {
        groupMembership.setEventHandler(handler)
    }

    /// Lets the control endpoint join and leave groups through `handler`.
    func setGroupControl(_ handler: (@Sendable (_ group: String, _ joins: Bool) -> Bool)?) {
        groupMembership.setControl(handler)
    }

    /// Joins or leaves the group named `group` (the control endpoint's `/control/group`);
    /// `false` when the device's fleet has no such group.
    func controlGroupMembership(_ group: String, joins: Bool) -> Bool {
        groupMembership.changeMembership(of: group, joins: joins)
    }

    /// Feeds a change of the device's speaker groups to its engine (see ``MultizoneUpdate``).
    public func multizoneUpdate(_ update: MultizoneUpdate) {
        let now = clock.now
        perform { state in state.engine.multizoneUpdate(update, at: now) }
    }
}
