import CastCommandLine
import Glibc

// A shell or a test harness may start us with SIGINT/SIGTERM blocked; Ctrl-C must work.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
sigprocmask(SIG_UNBLOCK, &signals, nil)

let code = await CastCommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
