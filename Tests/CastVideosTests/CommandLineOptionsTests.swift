import CastArguments
import Foundation
import Testing

@testable import castvideos

struct CommandLineOptionsTests {
    @Test func defaults() throws {
        let options = try CommandLineOptions(arguments: [])
        #expect(options.catalog == .builtIn)
        #expect(options.virtualDevice)
        #expect(options.themePath == nil)
        #expect(!options.showHelp)
        #expect(options.pictures == .auto)
        #expect(!options.makeMedia)
    }

    @Test func picturesAndMedia() throws {
        let options = try CommandLineOptions(arguments: ["--pictures", "SIXEL", "--make-media"])
        #expect(options.pictures == .sixel)
        #expect(options.makeMedia)
        #expect(try CommandLineOptions(arguments: ["--pictures=cells"]).pictures == .cells)
        #expect(CommandLineOptions.usage.contains("--pictures MODE") && CommandLineOptions.usage.contains("NO_COLOR"))
    }

    @Test func everyOption() throws {
        let options = try CommandLineOptions(arguments: [
            "--catalog", "https://example.invalid/c.json", "--theme=t.json", "--no-virtual-device",
            "--virtual-device-log", "d.log", "--config-dir", "/tmp/x", "--log", "s.log", "-h",
            "--virtual-device-fault", "refuse-launch", "--virtual-device-fault=fail-next-load",
        ])
        #expect(options.catalog == .url(URL(string: "https://example.invalid/c.json")!))
        #expect(options.themePath == "t.json")
        #expect(!options.virtualDevice)
        #expect(options.virtualDeviceLogPath == "d.log")
        #expect(options.configDirectory == "/tmp/x")
        #expect(options.logPath == "s.log")
        #expect(options.showHelp)
        #expect(options.virtualDeviceFaults == [.refuseLaunch, .failNextLoad])
        #expect(CommandLineOptions.usage.contains("--no-virtual-device"))
    }

    @Test(arguments: [
        (["--bogus"], UsageError.Code.unknownOption, "--bogus"),
        (["--catalog"], .missingValue, "--catalog"),
        (["--theme="], .missingValue, "--theme"),
        (["--config-dir", ""], .missingValue, "--config-dir"),
        (["--virtual-device-fault", "explode"], .invalidValue, "--virtual-device-fault"),
        (["movie.mp4"], .unexpectedArgument, "movie.mp4"),
        (["--pictures", "png"], .invalidValue, "--pictures"),
    ])
    func badArguments(_ arguments: [String], code: UsageError.Code, option: String) {
        do {
            _ = try CommandLineOptions(arguments: arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.code == code)
            #expect(error.description.hasPrefix("castvideos: "))
            #expect(error.description.contains(option), "\(error)")
            #expect(error.report.hasSuffix("See 'castvideos --help'."))
        }
    }

    @Test func configDirectoryOrder() throws {
        var options = try CommandLineOptions(arguments: [])
        #expect(
            options.configDirectoryURL(environment: ["CASTVIDEOS_CONFIG_DIR": "/a", "XDG_CONFIG_HOME": "/b"]).path
                == "/a"
        )
        #expect(options.configDirectoryURL(environment: ["XDG_CONFIG_HOME": "/b"]).path == "/b/castvideos")
        #expect(options.configDirectoryURL(environment: ["HOME": "/home/u"]).path == "/home/u/.config/castvideos")
        options.configDirectory = "/c"
        #expect(options.configDirectoryURL(environment: ["CASTVIDEOS_CONFIG_DIR": "/a"]).path == "/c")
    }
}
