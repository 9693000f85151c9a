import CastSync
import Foundation

/// The shared style of every Cast view (as `GCKUIStyle`): attributes per ``StyleNode``, set
/// first and then applied at once with ``applyStyle()``; a node's unset attributes come
/// from its parent.
///
/// ```swift
/// let style = CastStyle.shared
/// style.update(.castViews) { $0.iconTintColor = StyleColor(hex: "#FFB000") }
/// style.update(.expandedController) { $0.iconTintColor = StyleColor(hex: "#FFFFFF") }
/// style.update(.mediaControl) { $0.headingTextFont = StyleFont(size: 14) }
/// style.update(.castViews) { $0.images[.muteOn] = .named("custom-mute") }
/// style.applyStyle()   // observers hear one change
/// let expanded = style.resolved(for: .expandedController)
/// ```
public final class CastStyle: Sendable {
    /// The style shared by every Cast view of the process.
    public static let shared = CastStyle()

    /// Receives the style after each ``applyStyle()``.
    public typealias Observer = @Sendable (CastStyle) -> Void

    private struct Inner {
        var pending: [StyleNode: StyleAttributes] = [:]
        var applied: [StyleNode: StyleAttributes] = [:]
        var generation = 0
        var observers: [UUID: Observer] = [:]
    }

    private let inner = Locked(Inner())
    private let broadcaster = StateBroadcaster<Int>()

    /// Creates an empty style (tests and apps that keep their own).
    public init() {}

    // MARK: Setting

    /// The attributes set (but perhaps not yet applied) on `node`.
    public func attributes(of node: StyleNode) -> StyleAttributes {
        inner.withLock { $0.pending[node] ?? StyleAttributes() }
    }

    /// Changes the attributes of `node`; nothing is seen until ``applyStyle()``.
    public func update(_ node: StyleNode, _ change: (inout StyleAttributes) -> Void) {
        inner.withLock { inner in
            var attributes = inner.pending[node] ?? StyleAttributes()
            change(&attributes)
            inner.pending[node] = attributes
        }
    }

    /// Replaces every node's attributes; nothing is seen until ``applyStyle()``.
    public func setAll(_ attributes: [StyleNode: StyleAttributes]) {
        inner.withLock { $0.pending = attributes }
    }

    /// Makes every value set so far visible at once and tells each observer once.
    public func applyStyle() {
        let observers = inner.withLock { inner -> [Observer] in
            inner.applied = inner.pending
            inner.generation += 1
            return Array(inner.observers.values)
        }
        for observer in observers { observer(self) }
        broadcaster.publish(generation)
    }

    // MARK: Reading

    /// How many times the style was applied.
    public var generation: Int { inner.withLock { $0.generation } }

    /// The applied attributes of `node` with everything unset taken from its ancestors.
    public func resolved(for node: StyleNode) -> StyleAttributes {
        inner.withLock { inner in
            node.lineage.reduce(StyleAttributes()) { merged, ancestor in
                merged.inheriting(from: inner.applied[ancestor] ?? StyleAttributes())
            }
        }
    }

    // MARK: Observing

    /// Calls `observer` after every later ``applyStyle()``, until the returned token is
    /// cancelled or released.
    public func addObserver(_ observer: @escaping Observer) -> StyleObservation {
        let id = UUID()
        inner.withLock { $0.observers[id] = observer }
        return StyleObservation { [weak self] in _ = self?.inner.withLock { $0.observers.removeValue(forKey: id) } }
    }

    /// A stream of the generation of every later ``applyStyle()``.
    public func updates() -> AsyncStream<Int> { broadcaster.stream() }
}
