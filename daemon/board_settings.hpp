// What a board's driver learnt that must outlive the process (--state-dir, the SQLite store's
// board_settings table, per board name): the Certabo calibration (RFID tag -> piece, learned
// from the start position, certabo-sentio.md 3.1) and the Millennium orientation (which square
// the board reports first, learned from the start position, millennium.md 5). Given back to
// the driver when the board is opened again, so that a restart does not need the start
// position set up again. (A replug keeps the driver object, and with it what it learnt.)
#pragma once

#include <map>
#include <optional>
#include <string>

#include "drivers/core/driver.hpp"
#include "drivers/core/registry.hpp"

namespace eboard::daemon {

/// key -> value, e.g. {"calibration", "3 0 84 252 153 K\n..."}, {"orientation", "a8-first"}.
using BoardSettings = std::map<std::string, std::string>;

/// Watches a board's driver (on its device thread) for what it learnt.
class LearnedSettings {
  public:
    /// New or changed settings since the last call; nullopt when nothing changed. Cheap: called
    /// after every poll of the session.
    [[nodiscard]] std::optional<BoardSettings> poll(drivers::Driver& driver);

  private:
    BoardSettings reported_;
};

/// The driver options that give `settings` back to the driver of `uri` ("certabo:...",
/// "emu-certabo..."): Millennium `orientation`; Certabo `calibration`, a file written to
/// `dir` (the state directory) for the driver to read. Unknown keys are ignored.
[[nodiscard]] drivers::DriverOptions options_from_settings(const std::string& uri, const std::string& board,
                                                          const BoardSettings& settings, const std::string& dir);

} // namespace eboard::daemon
