import Foundation

/// `cast-bench --measure-child PROGRAM [ARGUMENTS...]`: starts PROGRAM as the cross-process
/// rows start a side (`posix_spawn`, traced to its exit for its peak memory) and prints
/// `{"status": S, "peakKiB": P, "maxrssKiB": M}`: the exit status, the peak read at the exit
/// and what `wait4` reported, so the tests can check the instrument against children of
/// known size.
enum ChildMeasurement {
    static func run(_ command: [String]) -> Int32 {
        do {
            let traced = try ChildProcess(
                executable: command[0],
                arguments: Array(command.dropFirst()),
                measuresPeakMemory: true
            )
            .finish(timeout: .seconds(60))
            let plain = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()))
                .finish(timeout: .seconds(60))
            print(
                #"{"status": \#(traced.status), "peakKiB": \#(traced.peakResidentKiB), "maxrssKiB": \#(plain.peakResidentKiB)}"#
            )
            return 0
        } catch {
            FileHandle.standardError.write(Data("cast-bench: \(error)\n".utf8))
            return 1
        }
    }
}
