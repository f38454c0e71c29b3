// A board's driver options (docs/configuration.md, "Driver options"): what an arbiter sets with
// `driver-options = KEY=VALUE[,KEY=VALUE...]` (in a `[board.NAME]` section, or globally for every
// board, `--driver-options`), checked at start against the options the board's driver declares in
// the registry (drivers/core/registry.hpp, DriverInfo::options) and by the driver's own
// validation, so that a misspelt key or a bad value stops eboardd at once - even for a board that
// is not plugged in yet. What eboardd learnt itself (board_settings.hpp) comes under them: a
// configured value wins.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/config.hpp"
#include "drivers/core/registry.hpp"
#include "base/expected.hpp"

namespace eboard::daemon {

/// `KEY=VALUE[,KEY=VALUE...]` as key -> value; spaces around keys and values are dropped, an
/// empty text is no option. Errors: "'x' is not KEY=VALUE", "'k' is given twice".
[[nodiscard]] Expected<DriverParams> parse_driver_options(std::string_view text);

/// The driver name of a board URI: "dgt" for "dgt.bluetooth:/dev/rfcomm0", "emu-dgt" and
/// "emu-dgt:game.pgn" (an emulated board is read by the driver of its kind).
[[nodiscard]] std::string uri_driver(std::string_view uri);

/// The options an arbiter configured for `board`: the global `driver-options`, overridden key by
/// key by the board's own; checked against its driver (drivers::check_configured_options). An
/// error names the board: "board table1: driver-options: unknown option 'x' (dgt knows: ...)".
/// A URI of an unknown driver has nothing to check here (its error comes from the URI's check).
[[nodiscard]] Expected<DriverParams> configured_driver_options(const Config& config, const BoardConfig& board);

/// configured_driver_options() for every board of `config`: the first error. A misspelt key or
/// a bad value is an error of the configuration, even for a board not plugged in.
[[nodiscard]] Expected<bool> check_driver_options(const Config& config);

/// The options a board's driver is opened with: `learned` (what the store gives back,
/// board_settings.hpp) with `configured` over it. `overridden` gets key -> learnt value where
/// both give a key with different values (the configured value is taken).
[[nodiscard]] drivers::DriverOptions merge_driver_options(drivers::DriverOptions learned,
                                                          const DriverParams& configured,
                                                          DriverParams& overridden);

/// For `--help`: one line per driver, its settable options with their values:
/// "  dgt: orientation=auto|normal|rotated, update-mode=nice|update, ...".
[[nodiscard]] std::string driver_options_summary();

/// The Markdown table of every registered driver's options (docs/configuration.md holds it;
/// a test checks that the two agree): driver, option, values, meaning, who sets it.
[[nodiscard]] std::string driver_options_table();

} // namespace eboard::daemon
