// The rules profile a board's games are played under (docs/profiles.md): a built-in name
// (`fide-2023`, ..., `club-2014`) or the path of a profile file, resolved for --supervised.
#pragma once

#include <string>

#include "base/expected.hpp"
#include "rules/profile.hpp"

namespace eboard::daemon {

/// The profile `name_or_path` names. Errors say which built-ins exist, or what is wrong in
/// the file (with its line and column).
[[nodiscard]] Expected<Profile> load_profile(const std::string& name_or_path, bool supervised);

} // namespace eboard::daemon
