// libFuzzer target: the eboardd configuration file (daemon/config.hpp, docs/configuration.md)
// and the command line (Boost.Program_options underneath), on any bytes. Neither may crash or
// throw; a refused input must say why. The input is read as a file's text and, split at NUL
// bytes, as an argument vector.
#include "daemon/config.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);

    auto file = eboard::daemon::parse_config_text(text, "fuzz.conf");
    if (!file && file.error().message.empty()) std::abort();

    std::vector<std::string> args;
    std::string arg;
    for (char c : text) {
        if (c == '\0') {
            args.push_back(arg);
            arg.clear();
        } else {
            arg += c;
        }
    }
    args.push_back(arg);
    // --config would read a file of the fuzzer's choosing: keep the run hermetic.
    for (const auto& a : args)
        if (a.rfind("--co", 0) == 0) return 0;
    auto cli = eboard::daemon::parse_command_line(args);
    if (!cli && cli.error().message.empty()) std::abort();
    return 0;
}
