#define _GNU_SOURCE
#include "CBenchTrace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

int cast_bench_spawn_traced(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd) {
    // No signal handler of this process may run in the child between fork and exec.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = fork();
    if (pid == 0) {
        for (int signal = 1; signal < NSIG; signal++) {
            struct sigaction action = {0};
            action.sa_handler = SIG_DFL;
            sigaction(signal, &action, NULL);  // fails harmlessly for SIGKILL and SIGSTOP
        }
        int input = open("/dev/null", O_RDONLY);
        if (input < 0 || dup2(input, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) _exit(127);
        syscall(SYS_close_range, 3U, ~0U, 0U);
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
        _exit(127);
    }
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return pid;
}

int cast_bench_trace_exit(int pid) {
    return ptrace(PTRACE_SETOPTIONS, (pid_t)pid, NULL, (void *)(long)PTRACE_O_TRACEEXIT) == 0 ? 0 : -1;
}

int cast_bench_trace_continue(int pid, int signal) {
    return ptrace(PTRACE_CONT, (pid_t)pid, NULL, (void *)(long)signal) == 0 ? 0 : -1;
}
