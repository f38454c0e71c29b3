#include "daemon/rules_profile.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace eboard::daemon {

Expected<Profile> load_profile(const std::string& name, bool supervised) {
    if (auto builtin = builtin_profile(name, supervised)) return builtin;
    if (!std::filesystem::is_regular_file(name)) {
        std::string names;
        for (auto n : builtin_profile_names()) names += (names.empty() ? "" : ", ") + std::string(n);
        return Error{"no profile '" + name + "' (built in: " + names + "; or a profile file)"};
    }
    std::ifstream in(name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto p = parse_profile(text.str(), supervised);
    if (!p) {
        const Error& e = p.error();
        return Error{name + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message};
    }
    return p;
}

} // namespace eboard::daemon
