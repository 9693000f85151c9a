import TerminalUI
import Testing

@Suite struct ProgressBarTests {
    @Test(arguments: [
        (0.0, 12, "[          ]"),
        (0.5, 12, "[====>     ]"),
        (0.55, 12, "[=====>    ]"),
        (1.0, 12, "[==========]"),
        (2.0, 12, "[==========]"),
        (-1.0, 12, "[          ]"),
        (Double.nan, 6, "[    ]"),
        (0.1, 12, "[>         ]"),
        (0.5, 1, " "),
        (0.5, 0, ""),
    ])
    func asciiBar(fraction: Double, width: Int, expected: String) {
        #expect(ProgressBar(fraction: fraction, style: .ascii).render(width: width) == expected)
    }

    @Test(arguments: [
        (0.0, 4, "░░░░"),
        (0.5, 4, "██░░"),
        (1.0, 4, "████"),
        (0.5 + 1.0 / 16, 4, "██▎░"),
        (0.5 + 1.0 / 32, 4, "██▏░"),
        (1.0 / 32, 4, "▏░░░"),
        (0.99, 4, "████"),
    ])
    func blockBar(fraction: Double, width: Int, expected: String) {
        let bar = ProgressBar(fraction: fraction, style: .blocks).render(width: width)
        #expect(bar == expected)
        #expect(TextLayout.width(of: bar) == width)
    }

    @Test func seekBarShowsPositionAndDuration() {
        let bar = SeekBar(position: 83, duration: 600).render(width: 26)
        #expect(bar == "[>         ] 01:23 / 10:00")
        #expect(SeekBar(position: 330, duration: 600).render(width: 26) == "[=====>    ] 05:30 / 10:00")
        #expect(SeekBar(position: 600, duration: 600).render(width: 26) == "[==========] 10:00 / 10:00")
    }

    @Test func seekBarWithUnknownDurationOrNoRoom() {
        #expect(SeekBar(position: 83, duration: nil).render(width: 26) == "[          ] 01:23 / --:--")
        #expect(SeekBar(position: 83, duration: .infinity).render(width: 26) == "[          ] 01:23 / --:--")
        #expect(SeekBar(position: 83, duration: 600).render(width: 16) == "01:23 / 10:00")
        #expect(SeekBar(position: 83, duration: 600).render(width: 5) == "01:23")
        let long = SeekBar(position: 3723, duration: 5400, style: .blocks).render(width: 30)
        #expect(long.hasSuffix(" 1:02:03 / 1:30:00"))
        #expect(TextLayout.width(of: long) == 30)
    }

    @Test(arguments: [
        (0.0, "00:00"), (59.9, "00:59"), (83, "01:23"), (600, "10:00"), (3599, "59:59"), (3600, "1:00:00"),
        (3723, "1:02:03"), (36_000, "10:00:00"), (-5, "00:00"), (Double.nan, "--:--"), (Double.infinity, "--:--"),
    ])
    func formatsTimes(seconds: Double, expected: String) {
        #expect(TimeFormat.string(seconds: seconds) == expected)
    }

    @Test func formatsProgressAlike() {
        #expect(TimeFormat.progress(position: 83, duration: 600) == "01:23 / 10:00")
        #expect(TimeFormat.progress(position: 83, duration: 5400) == "0:01:23 / 1:30:00")
        #expect(TimeFormat.progress(position: 83, duration: 0) == "01:23 / --:--")
        #expect(TimeFormat.string(seconds: 83, includeHours: true) == "0:01:23")
    }
}
