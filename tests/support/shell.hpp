// A command run through the shell, as a user runs a tool: its standard output and exit
// status. For the tests of the small tools (eboard-standings; the older tool tests have their
// own copies). Header-only.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace eboard::test {

/// What a command printed on stdout and its exit status (-1 if it did not exit normally, or
/// could not be started).
struct ShellRun {
    std::string out;
    int status = -1;
};

/// Runs `command` with /bin/sh and waits for it.
inline ShellRun run_shell(const std::string& command) {
    ShellRun r;
    FILE* p = popen(command.c_str(), "r");  // NOLINT(cert-env33-c): the tool, as a shell runs it
    if (p == nullptr) return r;
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

} // namespace eboard::test
