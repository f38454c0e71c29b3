// The hall's pairings: the CSV reader and the rule that places games in rounds live in
// standings/pairings.hpp (eboardctl's TRF export reads the same file); named here for the hub.
#pragma once

#include "standings/pairings.hpp"

namespace eboard::hub {

using standings::Pairing;
using standings::Pairings;
using standings::load_pairings;
using standings::parse_pairings;

} // namespace eboard::hub
