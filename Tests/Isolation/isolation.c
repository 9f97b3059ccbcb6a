// Test isolation: no test may touch the real home of whoever runs the suite.
//
// SDImageCache.shared keeps its disk cache under $XDG_CACHE_HOME (else ~/.cache), and the tests post the
// terminate / enter-background notifications to every cache of the process, the shared one included, which
// then runs deleteOldFiles on that directory. The downloader's default URLCache lives there too, and
// HTTPCookieStorage.shared writes under $XDG_DATA_HOME (else ~/.local/share).
//
// This constructor runs before main, so before XCTest, before any Swift code and before any cache exists: it
// makes a fresh directory under $TMPDIR (or /tmp) and points HOME and the XDG directories into it, and keeps the
// automatic memory-pressure monitor off (SDPORT_MEMORY_MONITOR=off). The `sdport`
// processes the CLI tests start inherit the same environment. One place, and no test can forget it.
// (Foundation's NSHomeDirectory() may have read HOME already, in its own library constructor: SDPort reads
// XDG_CACHE_HOME first everywhere, and cookies read XDG_DATA_HOME, so the XDG variables are what counts.)
#define _GNU_SOURCE
#include "SDPortTestIsolation.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char isolated_home[4096];
static pid_t owner_pid;

const char *sdport_test_isolated_home(void) {
    return isolated_home[0] ? isolated_home : NULL;
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw) {
    (void)info; (void)flag; (void)ftw;
    chmod(path, 0700);  // a test may have left a read-only folder behind
    remove(path);
    return 0;
}

static void remove_isolated_home(void) {
    // Only the process that made it removes it (a forked child exiting must not).
    if (isolated_home[0] && getpid() == owner_pid) nftw(isolated_home, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void set_under_home(const char *name, const char *relative) {
    char path[4096 + 64];
    snprintf(path, sizeof path, "%s/%s", isolated_home, relative);
    char *slash = path + strlen(isolated_home);
    // mkdir -p
    for (char *p = slash + 1; *p; p++) {
        if (*p == '/') { *p = 0; mkdir(path, 0700); *p = '/'; }
    }
    mkdir(path, 0700);
    setenv(name, path, 1);
}

__attribute__((constructor)) static void sdport_isolate_test_home(void) {
    // A parent test that kills its child test process (which then never runs atexit) names the folder to make
    // the home in, so the home goes away with that test's own temporary directory.
    const char *tmp = getenv("SDPORT_TEST_HOME_PARENT");
    if (!tmp || tmp[0] != '/') tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/') tmp = "/tmp";
    snprintf(isolated_home, sizeof isolated_home, "%s/sdport-test-home-XXXXXX", tmp);
    if (!mkdtemp(isolated_home)) {
        // Without a private home the suite would run against the real one: refuse to run at all.
        perror("sdport test isolation: mkdtemp");
        _exit(70);
    }
    owner_pid = getpid();
    setenv("HOME", isolated_home, 1);
    set_under_home("XDG_CACHE_HOME", ".cache");
    set_under_home("XDG_DATA_HOME", ".local/share");
    set_under_home("XDG_CONFIG_HOME", ".config");
    set_under_home("XDG_STATE_HOME", ".local/state");
    // The process's memory-pressure monitor watches the real cgroup: a spike there would empty a cache under a
    // test that just stored in it. Tests that need a monitor make their own, on fake files.
    setenv("SDPORT_MEMORY_MONITOR", "off", 1);
    setenv("SDPORT_TEST_HOME", isolated_home, 1);
    unsetenv("SDPORT_TEST_HOME_PARENT");  // for this process only, not for the processes it starts
    atexit(remove_isolated_home);
}
