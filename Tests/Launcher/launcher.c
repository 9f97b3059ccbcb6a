// The launcher between a test and each child process it starts (Tests/Support/ChildProcess.swift).
//
//   sdport-test-launcher PATH ARGV0 ARGS...
//
// It forks once and execs PATH in the forked child, waits for that child with wait4, writes one line to file
// descriptor 3 -- "exit CODE MAXRSS_KB" or "signal NUMBER MAXRSS_KB" (or "exec-failed ERRNO 0") -- and then ends
// the same way the child ended (same exit code, or the same signal raised again).
//
// Why a launcher: Linux records the resident high-water mark of the memory a process leaves behind at exec into
// that process's ru_maxrss. A child spawned directly by the test process (posix_spawn shares the parent's memory
// until exec; fork copies its page tables) therefore reports at least the test process's own peak, hundreds of
// megabytes, whatever the child itself used. Forked from this small program instead, the child starts from a few
// hundred kilobytes, so the ru_maxrss that wait4 reports here is the child's own peak (or that of a descendant it
// waited for, if larger).
//
// Signals: SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to the launcher are passed on to the child, and the launcher
// keeps waiting for it. The child dies with the launcher (PR_SET_PDEATHSIG), and both share the launcher's
// process group, so SIGKILL to the group ends both.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

enum { report_fd = 3 };
static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
static volatile sig_atomic_t child_pid = 0;

static void forward(int number) {
    if (child_pid > 0) kill((pid_t)child_pid, number);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s PATH ARGV0 [ARGS...]\n", argv[0]);
        return 125;
    }
    fcntl(report_fd, F_SETFD, FD_CLOEXEC);  // the report pipe is the launcher's alone

    // Signals stay blocked from before the fork until child_pid is set, so none arrives with nobody to forward to.
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    struct sigaction action = {0};
    action.sa_handler = forward;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
        sigaddset(&blocked, forwarded[i]);
        sigaction(forwarded[i], &action, NULL);
    }
    sigprocmask(SIG_BLOCK, &blocked, &previous);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        dprintf(report_fd, "exec-failed %d 0\n", errno);
        return 126;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(126);  // the launcher died before prctl took effect
        sigprocmask(SIG_SETMASK, &previous, NULL);  // exec resets the handlers; the mask it would keep
        execv(argv[1], argv + 2);
        dprintf(report_fd, "exec-failed %d 0\n", errno);
        _exit(127);
    }
    child_pid = pid;
    sigprocmask(SIG_SETMASK, &previous, NULL);

    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            dprintf(report_fd, "exec-failed %d 0\n", errno);
            return 125;
        }
    }
    if (WIFSIGNALED(status)) {
        int number = WTERMSIG(status);
        dprintf(report_fd, "signal %d %ld\n", number, usage.ru_maxrss);
        signal(number, SIG_DFL);
        raise(number);
        return 128 + number;
    }
    dprintf(report_fd, "exit %d %ld\n", WEXITSTATUS(status), usage.ru_maxrss);
    return WEXITSTATUS(status);
}
