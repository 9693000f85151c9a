import TerminalUI
import Testing

@Suite struct WidgetDrawingTests {
    @Test func boxWithTitleInUnicodeAndAscii() {
        var buffer = ScreenBuffer(size: Size(width: 14, height: 4))
        let inner = buffer.drawBox(buffer.bounds, border: .single, title: "Devices")
        #expect(inner == Rect(x: 1, y: 1, width: 12, height: 2))
        #expect(buffer.lines == ["┌─ Devices ──┐", "│            │", "│            │", "└────────────┘"])
        buffer.clear()
        buffer.drawBox(buffer.bounds, border: .ascii, title: "A very long title", ellipsis: "...")
        #expect(buffer.lines == ["+- A ver... -+", "|            |", "|            |", "+------------+"])
        buffer.clear()
        buffer.drawBox(Rect(x: 0, y: 0, width: 14, height: 3), border: .rounded, title: "日本語のタイトル")
        #expect(buffer.lines[0] == "╭─ 日本語… ──╮")
        #expect(buffer.drawBox(Rect(x: 0, y: 0, width: 1, height: 3)).isEmpty)
    }

    @Test func statusBarKeepsTrailingTextAndCutsLeading() {
        var buffer = ScreenBuffer(size: Size(width: 30, height: 1))
        buffer.drawStatusBar(in: buffer.bounds, leading: "CastVideos", center: "", trailing: "[Cast: on]")
        #expect(buffer.text(row: 0) == " CastVideos        [Cast: on] ")
        #expect(buffer[0, 0].style == .reverse)
        buffer.drawStatusBar(
            in: buffer.bounds,
            leading: "A much longer screen title here",
            trailing: "[Cast: on]",
            ellipsis: "..."
        )
        #expect(buffer.lines == [" A much longer...  [Cast: on]"])
        buffer.drawStatusBar(in: buffer.bounds, leading: "L", center: "mid", trailing: "R", style: .bold)
        #expect(buffer.lines == [" L           mid            R"])
    }

    @Test func toastIsCentred() {
        var buffer = ScreenBuffer(size: Size(width: 20, height: 1))
        buffer.drawToast("Session ended", in: buffer.bounds)
        #expect(buffer.lines == ["   Session ended"])
        #expect(buffer[2, 0].style == .reverse)
        #expect(buffer[1, 0].style == .plain)
        buffer.clear()
        buffer.drawToast("The Casting session has ended.", in: buffer.bounds)
        #expect(buffer.text(row: 0) == " The Casting sessi… ")
    }

    @Test func toastQueueShowsMessagesInTurn() {
        let start = ContinuousClock.Instant.now
        var toasts = ToastQueue<ContinuousClock.Instant>()
        let result1 = toasts.message(at: start)
        #expect(result1 == nil)
        toasts.post("first", duration: .seconds(2), now: start)
        toasts.post("second", duration: .seconds(3), now: start.advanced(by: .seconds(1)))
        #expect(toasts.message(at: start.advanced(by: .seconds(1))) == "first")
        #expect(toasts.nextChange(after: start) == start.advanced(by: .seconds(2)))
        #expect(toasts.message(at: start.advanced(by: .seconds(2))) == "second")
        #expect(toasts.nextChange(after: start.advanced(by: .seconds(2))) == start.advanced(by: .seconds(5)))
        #expect(toasts.message(at: start.advanced(by: .seconds(5))) == nil)
        #expect(toasts.nextChange(after: start.advanced(by: .seconds(5))) == nil)
        toasts.post("late", now: start.advanced(by: .seconds(60)))
        #expect(toasts.message(at: start.advanced(by: .seconds(61))) == "late")
        toasts.removeAll()
        #expect(toasts.message(at: start.advanced(by: .seconds(61))) == nil)
    }

    @Test func toastQueueDropsOldestWaitingPastCapacity() {
        let start = ContinuousClock.Instant.now
        var toasts = ToastQueue<ContinuousClock.Instant>(capacity: 2)
        toasts.post("a", duration: .seconds(1), now: start)
        toasts.post("b", duration: .seconds(1), now: start)
        toasts.post("c", duration: .seconds(1), now: start)
        let result2 = toasts.message(at: start)
        #expect(result2 == "a")
        #expect(toasts.message(at: start.advanced(by: .seconds(1))) == "c")
    }

    /// A note withdrawn while it shows gives way at once to the next; one waiting just goes.
    @Test func toastQueueWithdrawsNotes() {
        let start = ContinuousClock.Instant.now
        var toasts = ToastQueue<ContinuousClock.Instant>()
        toasts.post("Connecting to TV…", duration: .seconds(60), now: start)
        toasts.post("other", duration: .seconds(1), now: start)
        toasts.withdraw(now: start.advanced(by: .seconds(2))) { $0.hasPrefix("Connecting") }
        toasts.post("Connected to TV", duration: .seconds(4), now: start.advanced(by: .seconds(2)))
        #expect(toasts.message(at: start.advanced(by: .seconds(2))) == "other")
        #expect(toasts.message(at: start.advanced(by: .seconds(3.5))) == "Connected to TV")
        toasts.withdraw(now: start.advanced(by: .seconds(4))) { $0 == "nothing" }
        #expect(toasts.message(at: start.advanced(by: .seconds(4))) == "Connected to TV")
    }
}

@Suite struct SpotlightAndSpinnerTests {
    @Test func spotlightDimsEverythingElse() {
        var buffer = ScreenBuffer(size: Size(width: 6, height: 2))
        buffer.write("ab", at: .zero, style: TextStyle(foreground: .red, attributes: .bold))
        buffer.write("[C]", at: Point(x: 3, y: 0), style: TextStyle(foreground: .green))
        buffer.spotlight(Rect(x: 3, y: 0, width: 3, height: 1))
        #expect(buffer[0, 0].style == .dim)
        #expect(buffer[0, 1].style == .dim)
        #expect(buffer[4, 0].style == TextStyle(foreground: .green, attributes: [.reverse, .bold]))
        #expect(buffer.lines == ["ab [C]", ""])
    }

    @Test func spinnerCycles() {
        #expect((0..<6).map { Spinner.ascii.frame(at: $0) } == ["|", "/", "-", "\\", "|", "/"])
        #expect(Spinner.ascii.frame(at: -1) == "\\")
        #expect(Spinner.braille.frame(at: 10) == "⠋")
        #expect(Spinner(frames: []).frame(at: 3) == " ")
        #expect(Spinner.for(TerminalCapabilities(colors: .none, unicode: false)) == .ascii)
    }
}

extension SpotlightAndSpinnerTests {
    @Test func spotlightOutsideTheScreenDimsAll() {
        var buffer = ScreenBuffer(size: Size(width: 3, height: 3))
        buffer.fill(buffer.bounds, with: "x", style: .bold)
        buffer.spotlight(Rect(x: 1, y: 1, width: 1, height: 1))
        #expect(buffer[1, 1].style == TextStyle(attributes: [.bold, .reverse]))
        for (x, y) in [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)] {
            #expect(buffer[x, y].style == .dim)
        }
        buffer.spotlight(Rect(x: 10, y: 10, width: 2, height: 2))
        #expect(buffer[1, 1].style == .dim)
    }
}
