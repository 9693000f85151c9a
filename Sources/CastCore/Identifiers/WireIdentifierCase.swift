extension String {
    /// `self`, or the value of `known` that equals it ignoring case.
    ///
    /// Receiver apps echo back what a sender wrote (`"buffered"` for `BUFFERED`); reading the
    /// known value keeps comparisons with the constants working.
    func canonicalized(among known: [String]) -> String {
        if known.contains(self) { return self }
        let lowered = lowercased()
        return known.first { $0.lowercased() == lowered } ?? self
    }
}
