import Testing

@testable import castvideos

struct LocalPlayerTests {
    typealias Player = LocalPlayer<ContinuousClock.Instant>
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func playingAdvancesWithTheClockAndPausingHolds() {
        var player = Player()
        #expect(player.state == .stopped)
        player.load(duration: 100, position: 10, playing: true, at: at(0))
        #expect(player.position(at: at(5)) == 15)
        player.pause(at: at(5))
        #expect(player.state == .paused)
        #expect(player.position(at: at(50)) == 15)
        player.play(at: at(50))
        #expect(player.position(at: at(52.5)) == 17.5)
    }

    @Test func seekingIsClampedToTheMedia() {
        var player = Player()
        player.load(duration: 60, position: 0, playing: false, at: at(0))
        player.seek(by: -10, at: at(1))
        #expect(player.position(at: at(2)) == 0)
        player.seek(to: 500, at: at(2))
        #expect(player.position(at: at(3)) == 60)
        player.seek(to: .nan, at: at(3))
        #expect(player.position(at: at(3)) == 0)
        player.seek(by: 30, at: at(4))
        #expect(player.position(at: at(4)) == 30)
        #expect(player.state == .paused)
    }

    @Test func theEndIsReachedOnce() {
        var player = Player()
        player.load(duration: 10, position: 8, playing: true, at: at(0))
        let endedEarly = player.update(at: at(1))
        #expect(!endedEarly)
        let ended = player.update(at: at(3))
        #expect(ended)
        #expect(player.state == .ended)
        #expect(player.position(at: at(10)) == 10)
        let endedTwice = player.update(at: at(11))
        #expect(!endedTwice)
        player.play(at: at(12))
        #expect(player.state == .playing)
        #expect(player.position(at: at(13)) == 1)
    }

    @Test func stoppingKeepsThePositionAndIsNotActive() {
        var player = Player()
        player.load(duration: 100, position: 0, playing: true, at: at(0))
        #expect(player.isActive)
        player.stop(at: at(7))
        #expect(!player.isActive)
        #expect(player.position(at: at(20)) == 7)
        player.togglePlayPause(at: at(20))
        #expect(player.state == .playing)
        #expect(player.position(at: at(21)) == 1)
    }

    @Test func loadingPausedRestoresTheRemotePosition() {
        var player = Player()
        player.load(duration: 612, position: 7.4, playing: false, at: at(0))
        #expect(player.state == .paused)
        #expect(player.position(at: at(100)) == 7.4)
    }
}
