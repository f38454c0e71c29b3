// eboardd: the daemon's entry point (its command line: eboardd(8), man/eboardd.8).
#include <malloc.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "daemon/config.hpp"
#include "daemon/daemon.hpp"
#include "daemon/events.hpp"
#include "daemon/log.hpp"

int main(int argc, char** argv) try {
    using namespace eboard::daemon;
    // One malloc arena: a device thread per board allocates little (its events go to the
    // loop), but glibc would give the threads up to 8 arenas per core, each keeping freed
    // pages; one arena keeps RSS per board down (bench_daemon_boards, 100 boards: 75 -> 64..71 KiB).
    (void)mallopt(M_ARENA_MAX, 1);
    std::vector<std::string> args(argv + 1, argv + argc);
    auto inv = parse_command_line(args);
    if (!inv) {
        std::cerr << "eboardd: " << inv.error().message << "\n"
                  << "Try 'eboardd --help'.\n";
        return 2;
    }
    if (inv->help) {
        std::cout << usage_text();
        return 0;
    }
    if (inv->version) {
        std::cout << "eboardd " << version_event().release << " (protocol " << kProtoMajor << "."
                  << kProtoMinor << ")\n";
        return 0;
    }
    Daemon daemon(std::move(inv->config));
    return daemon.run();
} catch (const std::exception& e) {
    // From the command line, the configuration or the daemon's loop. Into a fixed buffer:
    // building a std::string here could throw again.
    char line[512];
    std::snprintf(line, sizeof line, "fatal: %s", e.what());
    eboard::daemon::log_error(line);
    return 1;
}
