// eboardd: the daemon's entry point (docs/interfaces.md "eboardd command line").
#include <iostream>
#include <string>
#include <vector>

#include "daemon/config.hpp"
#include "daemon/daemon.hpp"
#include "daemon/events.hpp"
#include "daemon/log.hpp"

int main(int argc, char** argv) {
    using namespace eboard::daemon;
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
    try {
        Daemon daemon(std::move(inv->config));
        return daemon.run();
    } catch (const std::exception& e) {
        log_error(std::string("fatal: ") + e.what());
        return 1;
    }
}
