/// The seed inputs of one fuzz target, each with a file name.
struct SeedSet {
    /// The target's corpus directory name under `Fuzz/Corpus/`.
    let target: String
    /// File name → bytes.
    private(set) var seeds: [(name: String, bytes: [UInt8])] = []

    init(target: String) {
        self.target = target
    }

    mutating func add(_ name: String, _ bytes: [UInt8]) {
        precondition(!seeds.contains { $0.name == name }, "duplicate seed \(name) for \(target)")
        precondition(bytes.count <= 70_000, "seed \(name) is over the fuzzers' -max_len")
        seeds.append((name, bytes))
    }

    mutating func add(_ name: String, _ text: String) {
        add(name, Array(text.utf8))
    }
}
