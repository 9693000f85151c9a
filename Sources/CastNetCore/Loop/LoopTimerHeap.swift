/// The pending timers of one event loop: a binary min-heap ordered by deadline, then by the
/// order they were scheduled in.
///
/// Each timer also has a latest time (its deadline plus some slack): a loop that sleeps only
/// until the earliest timer's latest time lets timers due close together, and timers due
/// just after some I/O, run in one wake-up.
///
/// A timer with no slack is also kept in a second heap, so a loop never sleeps past it behind
/// an earlier timer that has slack.
///
/// A cancelled timer's action is released at once; its slot in the heap stays until it comes
/// to the top or the heap is compacted, so cancelling costs no search.
package struct LoopTimerHeap {
    /// One heap slot: when, and which timer.
    private struct Slot {
        var deadline: UInt64
        var latest: UInt64
        var id: UInt64

        static func < (lhs: Slot, rhs: Slot) -> Bool {
            lhs.deadline != rhs.deadline ? lhs.deadline < rhs.deadline : lhs.id < rhs.id
        }
    }

    private var slots: [Slot] = []
    /// The timers without slack, by deadline (entries of fired or cancelled timers stay until
    /// they come to the top or the heap is compacted).
    private var exactSlots: [Slot] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0

    /// Creates an empty heap.
    package init() {}

    /// The number of timers scheduled and neither fired nor cancelled.
    package var count: Int { actions.count }

    /// Adds a timer due at `deadline` (nanoseconds on the loop's clock) that may run as late
    /// as `deadline + slack`; returns its id.
    package mutating func insert(
        deadline: UInt64,
        slack: UInt64 = 0,
        _ action: @escaping @Sendable () -> Void
    ) -> UInt64 {
        nextID &+= 1
        actions[nextID] = action
        let latest = deadline > .max - slack ? .max : deadline + slack
        let slot = Slot(deadline: deadline, latest: latest, id: nextID)
        slots.append(slot)
        Self.siftUp(&slots, slots.count - 1)
        if slack == 0 {
            exactSlots.append(slot)
            Self.siftUp(&exactSlots, exactSlots.count - 1)
        }
        return nextID
    }

    /// Cancels timer `id`; returns `false` when it had already fired or been cancelled.
    @discardableResult
    package mutating func cancel(_ id: UInt64) -> Bool {
        guard actions.removeValue(forKey: id) != nil else { return false }
        if slots.count > 64, slots.count > 2 * actions.count { compact() }
        return true
    }

    /// The deadline of the earliest live timer, if any.
    package mutating func earliestDeadline() -> UInt64? {
        dropCancelledTop()
        return slots.first?.deadline
    }

    /// The time by which the earliest live timer must run (its deadline plus its slack), or
    /// a timer without slack that is due before that, whichever is first.
    package mutating func earliestLatest() -> UInt64? {
        dropCancelledTop()
        while let top = exactSlots.first, actions[top.id] == nil { Self.removeTop(&exactSlots) }
        guard let latest = slots.first?.latest else { return nil }
        guard let exact = exactSlots.first?.deadline else { return latest }
        return min(latest, exact)
    }

    /// Removes every timer due at `now` or earlier and appends their actions to `due`, in
    /// deadline order.
    package mutating func popDue(now: UInt64, into due: inout [@Sendable () -> Void]) {
        while let top = slots.first, top.deadline <= now {
            removeTop()
            if let action = actions.removeValue(forKey: top.id) { due.append(action) }
        }
    }

    private mutating func dropCancelledTop() {
        while let top = slots.first, actions[top.id] == nil { Self.removeTop(&slots) }
    }

    private mutating func removeTop() {
        Self.removeTop(&slots)
    }

    /// Rebuilds the heaps from the live timers only.
    private mutating func compact() {
        Self.rebuild(&slots, keeping: actions)
        Self.rebuild(&exactSlots, keeping: actions)
    }

    private static func rebuild(_ slots: inout [Slot], keeping actions: [UInt64: @Sendable () -> Void]) {
        slots.removeAll { actions[$0.id] == nil }
        var index = slots.count / 2
        while index > 0 {
            index -= 1
            siftDown(&slots, index)
        }
    }

    private static func removeTop(_ slots: inout [Slot]) {
        let last = slots.removeLast()
        guard !slots.isEmpty else { return }
        slots[0] = last
        siftDown(&slots, 0)
    }

    private static func siftUp(_ slots: inout [Slot], _ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard slots[child] < slots[parent] else { return }
            slots.swapAt(child, parent)
            child = parent
        }
    }

    private static func siftDown(_ slots: inout [Slot], _ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < slots.count else { return }
            var smallest = left
            if left + 1 < slots.count, slots[left + 1] < slots[left] { smallest = left + 1 }
            guard slots[smallest] < slots[parent] else { return }
            slots.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
