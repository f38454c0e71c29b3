// Speech output files for tests: waiting for files with inotify (a readiness signal, not a
// sleep) and reading a WAV file's duration with soxi (sox). Apart from speech_support.hpp so
// that the daemon's process tests (tests/daemon/harness.hpp, with its own TempDir) can use it.
#pragma once

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <poll.h>
#include <set>
#include <string>
#include <sys/inotify.h>
#include <unistd.h>
#include <vector>

namespace eboard::test {

/// Waits (inotify, at most `limit`) until `dir` holds `count` files whose names end in
/// `suffix`; returns them sorted. Fewer when the limit passed.
inline std::vector<std::filesystem::path> wait_for_files(const std::filesystem::path& dir,
                                                         const std::string& suffix,
                                                         std::size_t count,
                                                         std::chrono::milliseconds limit) {
    const int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    REQUIRE(fd >= 0);
    REQUIRE(inotify_add_watch(fd, dir.c_str(), IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE) >= 0);
    const auto deadline = std::chrono::steady_clock::now() + limit;
    std::set<std::filesystem::path> found;
    for (;;) {
        found.clear();
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            const std::string name = e.path().filename().string();
            if (name.size() >= suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                found.insert(e.path());
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (found.size() >= count || left.count() <= 0) break;
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) > 0) {
            char buf[4096];
            while (read(fd, buf, sizeof buf) > 0) {
            }
        }
    }
    close(fd);
    return {found.begin(), found.end()};
}

/// The duration of a sound file in seconds as soxi (sox) reads it; -1 if soxi cannot.
inline double soxi_seconds(const std::filesystem::path& file) {
    const std::string cmd = "soxi -D '" + file.string() + "' 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r"); // NOLINT(cert-env33-c): soxi, as a shell runs it
    if (p == nullptr) return -1;
    char buf[64] = {};
    const bool got = fgets(buf, sizeof buf, p) != nullptr;
    pclose(p);
    return got ? std::strtod(buf, nullptr) : -1;
}

} // namespace eboard::test
