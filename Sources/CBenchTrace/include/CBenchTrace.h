// Starting a child traced from its first instruction, for cast-bench, which reads each
// child's peak memory at its exit. glibc declares ptrace variadic, which Swift does not
// import, and a child must ask to be traced between fork and exec, where only
// async-signal-safe C may run.
#ifndef CAST_CBENCHTRACE_H
#define CAST_CBENCHTRACE_H

/// Forks and executes `path` with `argv` and `envp` (NULL-terminated), standard input from
/// /dev/null, standard output and error on `out_fd` and `err_fd`, no other descriptor, a
/// clear signal mask and default signal handlers. The child asks to be traced by the calling
/// thread (PTRACE_TRACEME), so it stops with SIGTRAP at its exec; the caller then sets
/// PTRACE_O_TRACEEXIT and resumes it. Returns the child's pid, or -1 with errno set.
int cast_bench_spawn_traced(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd);

/// Asks a stopped tracee to stop again at its exit (PTRACE_SETOPTIONS, PTRACE_O_TRACEEXIT).
/// Returns 0, or -1 with errno set.
int cast_bench_trace_exit(int pid);

/// Resumes a stopped tracee (PTRACE_CONT), delivering `signal` (0 for none).
/// Returns 0, or -1 with errno set.
int cast_bench_trace_continue(int pid, int signal);

#endif
