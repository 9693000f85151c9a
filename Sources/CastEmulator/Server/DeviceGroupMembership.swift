import CastSync

/// A device's ties to the speaker groups around it: where its ``SpeakerGroupEvent``s go (set
/// by ``SpeakerGroupHub``) and how its control endpoint joins and leaves groups (set by
/// ``DeviceFleet``).
final class DeviceGroupMembership: Sendable {
    private let eventHandler = Locked(Handlers.Events())
    private let control = Locked(Handlers.Control())

    /// The handlers inside structs: a function value held directly as `Locked`'s generic
    /// state is re-abstracted each time `withLock` passes it `inout`, which wraps it in two
    /// more thunks on every access, until the calls are slow and then overflow the stack.
    private enum Handlers {
        struct Events { var call: (@Sendable (SpeakerGroupEvent) -> Void)? }
        struct Control { var call: (@Sendable (String, Bool) -> Bool)? }
    }

    /// Gives the device's events to `handler` (`nil` drops them).
    func setEventHandler(_ handler: (@Sendable (SpeakerGroupEvent) -> Void)?) {
        eventHandler.withLock { $0.call = handler }
    }

    /// Lets the control endpoint join (`true`) and leave (`false`) groups through `handler`,
    /// which answers `false` when there is no such group.
    func setControl(_ handler: (@Sendable (_ group: String, _ joins: Bool) -> Bool)?) {
        control.withLock { $0.call = handler }
    }

    /// Hands `events` to the handler; call without holding the device's lock.
    func deliver(_ events: [SpeakerGroupEvent]) {
        guard !events.isEmpty, let handler = eventHandler.withLock({ $0.call }) else { return }
        for event in events { handler(event) }
    }

    /// Joins or leaves the group named `group`; `false` when there is no such group or no
    /// fleet to ask.
    func changeMembership(of group: String, joins: Bool) -> Bool {
        guard let handler = control.withLock({ $0.call }) else { return false }
        return handler(group, joins)
    }
}
