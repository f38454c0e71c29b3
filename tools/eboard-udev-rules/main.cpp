// eboard-udev-rules: prints the udev rules for every registered board driver (udev_rules.hpp).
//   eboard-udev-rules [--from-ids FILE] [-o OUT]
//        the rules file, on stdout or written to OUT (through a temporary file and a rename,
//        so that a failed run leaves no half file); --from-ids: for the ids listed in FILE
//        (the --ids format) instead of the built-in drivers
//   eboard-udev-rules --ids
//        one line per USB id of the built-in drivers: DRIVER VID PID tty|libusb certain|uncertain
// Exit 0; 1 when a table cannot be turned into rules or a file cannot be read or written (the
// message says which); 2 usage error.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "drivers/core/registry.hpp"
#include "tools/eboard-udev-rules/udev_rules.hpp"

namespace {

int usage(int status) {
    std::fprintf(status == 0 ? stdout : stderr,
                 "usage: eboard-udev-rules [--from-ids FILE] [-o OUT]\n"
                 "       eboard-udev-rules --ids\n");
    return status;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "eboard-udev-rules: %s\n", message.c_str());
    return 1;
}

bool write_file(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!(out << text) || !out.flush()) return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    return !ec;
}

} // namespace

int main(int argc, char** argv) {
    std::optional<std::string> from, output;
    bool ids = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") return usage(0);
        if (a == "--ids") ids = true;
        else if (a == "--from-ids" && i + 1 < argc) from = argv[++i];
        else if (a == "-o" && i + 1 < argc) output = argv[++i];
        else return usage(2);
    }
    if (ids && (from || output)) return usage(2);
    if (ids) {
        std::cout << eboard::tools::udev_id_list(eboard::drivers::all_drivers());
        return 0;
    }
    std::optional<eboard::tools::IdTable> table;
    if (from) {
        std::ifstream in(*from, std::ios::binary);
        std::ostringstream text;
        if (!(in && text << in.rdbuf())) return fail("cannot read " + *from);
        auto parsed = eboard::tools::IdTable::parse(text.str(), *from);
        if (!parsed) return fail(parsed.error().message);
        table = std::move(*parsed);
    }
    auto rules = eboard::tools::udev_rules(table ? table->drivers() : eboard::drivers::all_drivers(),
                                           EBOARD_RELEASE);
    if (!rules) return fail(rules.error().message);
    if (!output) {
        std::cout << *rules;
        return 0;
    }
    if (!write_file(*output, *rules)) return fail("cannot write " + *output);
    return 0;
}
