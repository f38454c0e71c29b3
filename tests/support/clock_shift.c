/* A host whose clock jumps, for the hall's fault tests (tests/hub): loaded into eboardd with
 * LD_PRELOAD, it shifts CLOCK_REALTIME (clock_gettime(2), which std::chrono::system_clock reads)
 * by the whole seconds written in the file named by $EBOARD_CLOCK_SHIFT_FILE (e.g. "-86400"), read
 * again at most every 20 ms of CLOCK_MONOTONIC, so that a test moves the clock back or forward
 * while the process runs. Without the variable, or with an unreadable file, the clock is not
 * shifted. CLOCK_MONOTONIC is never shifted (as on a real host whose time is set). Built with
 * _GNU_SOURCE (RTLD_NEXT) defined by CMake (tests/hub/libs.cmake). */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec*);

static clock_gettime_fn real_clock_gettime(void) {
    static _Atomic(clock_gettime_fn) real;
    clock_gettime_fn f = atomic_load(&real);
    if (!f) {
        f = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
        atomic_store(&real, f);
    }
    return f;
}

static long long read_shift(void) {
    const char* path = getenv("EBOARD_CLOCK_SHIFT_FILE");
    if (!path) return 0;
    FILE* f = fopen(path, "re");
    if (!f) return 0;
    char text[32] = {0};
    const int got = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    if (!got) return 0;
    char* end = NULL;
    const long long s = strtoll(text, &end, 10);
    return end == text ? 0 : s;
}

static long long shift_seconds(clock_gettime_fn real) {
    static _Atomic long long shift;
    static _Atomic long long read_at_ms = -1000000;
    struct timespec now;
    if (real(CLOCK_MONOTONIC, &now) != 0) return atomic_load(&shift);
    const long long ms = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
    if (ms - atomic_load(&read_at_ms) >= 20) {
        atomic_store(&read_at_ms, ms);
        atomic_store(&shift, read_shift());
    }
    return atomic_load(&shift);
}

int clock_gettime(clockid_t id, struct timespec* ts) {
    const clock_gettime_fn real = real_clock_gettime();
    if (!real) return -1;
    const int rc = real(id, ts);
    if (rc == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec += (time_t)shift_seconds(real);
    return rc;
}
