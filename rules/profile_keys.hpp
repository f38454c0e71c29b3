// Internal to rules/profile*.cpp: the table of profile keys (docs/profiles.md), one entry per
// key with its value parser and printer, so that parsing, printing and the "every key set"
// check cannot drift apart.
#pragma once

#include "rules/profile.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eboard::profile_detail {

/// Why a value was refused; `offset` = byte offset of the offending part inside the value.
struct ValueError {
    std::string message;
    std::size_t offset = 0;
};

/// One key of the format: its name, how to read a value into a Profile and how to print it.
struct KeyDef {
    std::string_view name;
    std::optional<ValueError> (*parse)(Profile&, std::string_view value);
    std::string (*print)(const Profile&);
};

/// Every settable key except `inherit` and `name`, in the order to_text() prints them.
[[nodiscard]] const std::vector<KeyDef>& key_table();
/// The entry for `name`, nullptr if there is none.
[[nodiscard]] const KeyDef* find_key(std::string_view name);

/// (name, text) of every file in rules/profiles/ (generated from the files by CMake).
extern const std::pair<std::string_view, std::string_view> kBuiltinProfiles[];
extern const int kBuiltinProfileCount;

} // namespace eboard::profile_detail
