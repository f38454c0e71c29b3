// `--board emu-KIND[:PGN]` as a name (docs/configuration.md): which built-in emulator a board
// URI asks for. Only the parsing: the emulators themselves are in the emulators library
// (emu_board.hpp, emulated_boards.hpp), which the daemon's core does not link.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/expected.hpp"

namespace eboard::daemon {

/// A parsed `emu-KIND[:PGN]` URI.
struct EmuUri {
    std::string kind; ///< "dgt", "certabo", "sentio", "millennium", "chessnut" (the driver)
    std::string pgn;  ///< the game the simulated player replays; "" = nobody plays
};

/// nullopt when `uri` is not an `emu-` URI; an error names an unknown kind.
[[nodiscard]] Expected<std::optional<EmuUri>> parse_emu_uri(std::string_view uri);

} // namespace eboard::daemon
