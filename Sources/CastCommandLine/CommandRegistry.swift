/// Every `cast` command, in the order help lists them.
package enum CommandRegistry {
    /// The commands.
    package static let all: [any CastCommand.Type] = [
        DevicesCommand.self, PlayCommand.self, PauseCommand.self, ResumeCommand.self, StopCommand.self,
        SeekCommand.self, VolumeCommand.self, MuteCommand.self, GroupCommand.self, UnmuteCommand.self, RateCommand.self,
        NextCommand.self, PreviousCommand.self, SkipAdCommand.self, QueueAddCommand.self, QueueListCommand.self,
        QueueRemoveCommand.self, TracksCommand.self, TracksOnCommand.self, TracksOffCommand.self,
        StatusCommand.self, SendCommand.self, InfoCommand.self, QuitCommand.self,
    ]
}
