// The rules profile (rules/profile.hpp) as the reconstructor needs it (ReconRules): illegal-move
// ladder, 7.5.2/7.5.3, 6.2.1, flag and draw rules, article numbers of the edition.
#pragma once

#include "rules/profile.hpp"
#include "rules/reconstruction.hpp"

namespace eboard {

/// The reconstruction rules of profile `p` (resolved for supervision already).
[[nodiscard]] ReconRules recon_rules_from_profile(const Profile& p);

} // namespace eboard
