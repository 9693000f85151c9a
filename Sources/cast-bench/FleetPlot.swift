import Foundation

/// A measured figure at several fleet sizes, each with the values of every run.
struct PlotSeries {
    var label: String
    /// A colour for the SVG, such as `#1a73e8`.
    var colour: String
    /// Fleet size → the value of each run.
    var points: [(count: Int, values: [Double])]
}

/// One chart of the plot: series sharing a unit, and the target they are held to.
struct PlotPanel {
    var title: String
    var unit: String
    var series: [PlotSeries]
    var target: Double?
}

/// Renders panels side by side as a self-contained SVG: fleet size on a logarithmic x axis,
/// the median of each size joined by lines, the runs' spread as a bar, the target dashed.
enum FleetPlot {
    static func svg(_ panels: [PlotPanel], caption: String) -> String {
        let width = 320.0
        let height = 240.0
        var body = ""
        for (index, panel) in panels.enumerated() {
            body += chart(panel, x: Double(index) * width, width: width, height: height)
        }
        let total = Double(panels.count) * width
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(total))" height="\(Int(height + 30))" \
            viewBox="0 0 \(Int(total)) \(Int(height + 30))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            \(body)<text x="8" y="\(Int(height + 20))" fill="#555">\(escape(caption))</text>
            </svg>

            """
    }

    private static func chart(_ panel: PlotPanel, x originX: Double, width: Double, height: Double) -> String {
        let left = originX + 48
        let right = originX + width - 12
        let top = 28.0
        let bottom = height - 40
        let counts = panel.series.flatMap { $0.points.map(\.count) }
        let allValues = panel.series.flatMap { $0.points.flatMap(\.values) } + (panel.target.map { [$0] } ?? [])
        guard let smallest = counts.min(), let largest = counts.max(), let topValue = allValues.max(), topValue > 0
        else { return "" }
        let yMax = niceCeiling(topValue * 1.1)
        let logMin = log10(Double(smallest))
        let logSpan = max(log10(Double(largest)) - logMin, 1)
        func px(_ count: Int) -> Double { left + (log10(Double(count)) - logMin) / logSpan * (right - left) }
        func py(_ value: Double) -> Double { bottom - value / yMax * (bottom - top) }

        var svg = "<text x=\"\(f(left))\" y=\"16\" font-weight=\"bold\">\(escape(panel.title))</text>\n"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(bottom))\" x2=\"\(f(right))\" y2=\"\(f(bottom))\" stroke=\"#333\"/>\n"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(bottom))\" stroke=\"#333\"/>\n"
        for step in 0...4 {
            let value = yMax * Double(step) / 4
            svg += "<text x=\"\(f(left - 4))\" y=\"\(f(py(value) + 4))\" text-anchor=\"end\">\(label(value))</text>\n"
            if step > 0 {
                svg +=
                    "<line x1=\"\(f(left))\" y1=\"\(f(py(value)))\" x2=\"\(f(right))\" y2=\"\(f(py(value)))\" "
                    + "stroke=\"#eee\"/>\n"
            }
        }
        for count in Set(counts).sorted() {
            svg += "<text x=\"\(f(px(count)))\" y=\"\(f(bottom + 14))\" text-anchor=\"middle\">\(count)</text>\n"
        }
        svg +=
            "<text x=\"\(f((left + right) / 2))\" y=\"\(f(bottom + 28))\" text-anchor=\"middle\" fill=\"#555\">"
            + "N (log scale); \(escape(panel.unit))</text>\n"
        if let target = panel.target {
            svg +=
                "<line x1=\"\(f(left))\" y1=\"\(f(py(target)))\" x2=\"\(f(right))\" y2=\"\(f(py(target)))\" "
                + "stroke=\"#d93025\" stroke-dasharray=\"5,4\"/>\n"
            svg +=
                "<text x=\"\(f(right))\" y=\"\(f(py(target) - 4))\" text-anchor=\"end\" fill=\"#d93025\">"
                + "target \(label(target))</text>\n"
        }
        for (index, series) in panel.series.enumerated() {
            let medians = series.points.sorted { $0.count < $1.count }.map { point in
                (point.count, median(point.values), point.values.min() ?? 0, point.values.max() ?? 0)
            }
            let path = medians.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(series.colour)\" stroke-width=\"2\"/>\n"
            for (count, middle, low, high) in medians {
                svg +=
                    "<line x1=\"\(f(px(count)))\" y1=\"\(f(py(low)))\" x2=\"\(f(px(count)))\" y2=\"\(f(py(high)))\" "
                    + "stroke=\"\(series.colour)\" stroke-width=\"6\" stroke-opacity=\"0.35\"/>\n"
                svg += "<circle cx=\"\(f(px(count)))\" cy=\"\(f(py(middle)))\" r=\"3\" fill=\"\(series.colour)\"/>\n"
            }
            let legendY = top + 12 + Double(index) * 14
            svg +=
                "<rect x=\"\(f(left + 8))\" y=\"\(f(legendY - 8))\" width=\"10\" height=\"3\" fill=\"\(series.colour)\"/>\n"
            svg += "<text x=\"\(f(left + 22))\" y=\"\(f(legendY - 3))\">\(escape(series.label))</text>\n"
        }
        return svg
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private static func niceCeiling(_ value: Double) -> Double {
        let magnitude = pow(10, floor(log10(value)))
        for step in [1.0, 2, 2.5, 5, 10] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    private static func label(_ value: Double) -> String {
        value >= 10 || value == 0 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
