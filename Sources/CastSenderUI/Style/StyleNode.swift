/// A node of the style hierarchy (as the `GCKUIStyleAttributes` tree): unset attributes of a
/// node come from its parent.
///
/// ```
/// castViews
/// ├── deviceControl
/// │   ├── deviceChooser
/// │   └── connectionController
/// ├── mediaControl
/// │   ├── miniController
/// │   ├── expandedController
/// │   └── trackSelector
/// └── instructions
/// ```
public enum StyleNode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every Cast view: the root.
    case castViews
    /// Device control: the device chooser and the connection controller.
    case deviceControl
    /// The device chooser (Cast dialog).
    case deviceChooser
    /// The connection controller (stop-casting dialog).
    case connectionController
    /// Media control: the mini and expanded controllers and the track selector.
    case mediaControl
    /// The mini controller.
    case miniController
    /// The expanded controller.
    case expandedController
    /// The track selector.
    case trackSelector
    /// The introductory overlay.
    case instructions

    /// The node attributes are inherited from; `nil` for ``castViews``.
    public var parent: StyleNode? {
        switch self {
        case .castViews: nil
        case .deviceControl, .mediaControl, .instructions: .castViews
        case .deviceChooser, .connectionController: .deviceControl
        case .miniController, .expandedController, .trackSelector: .mediaControl
        }
    }

    /// The node's children.
    public var children: [StyleNode] { Self.allCases.filter { $0.parent == self } }

    /// The node and its ancestors, nearest first.
    public var lineage: [StyleNode] {
        var nodes = [self]
        while let parent = nodes.last?.parent { nodes.append(parent) }
        return nodes
    }

    public var description: String { rawValue }
}
