// The eboardd command line and configuration file (eboardd(8), man/eboardd.8;
// the file format is documented in docs/configuration.md).
//
// Every option of the command line also works in `--config FILE` (key = value, same names
// without the dashes). Per-board settings live in `[board.NAME]` sections of the file:
//
//     pgn-dir = /var/lib/eboardd/pgn
//     event = Club championship 2026
//     [board.table1]
//     uri = dgt:/dev/ttyACM0
//     round = 3
//     white = Carlsen, Magnus
//     black = Nepomniachtchi, Ian
//     driver-options = orientation=rotated,update-mode=update
//
// The command line wins over the file for single-valued options; `board` values from both are
// kept (command-line boards first).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/hall_config.hpp"
#include "daemon/speech_config.hpp"
#include "base/expected.hpp"

namespace eboard::daemon {

/// `--clock`: whether moves are completed by the clock attached to the board.
enum class ClockMode { Board, None };
/// `--white-side`: which side of the clock (seen from its front) is White's.
enum class WhiteSide { Left, Right, Auto };
/// `--illegal-feedback`: when players learn of an illegal move (Art. 7.5.1).
enum class IllegalFeedback { OnCompletion, Immediate };

/// Driver options as configured, key -> value (`driver-options`, driver_options.hpp).
using DriverParams = std::map<std::string, std::string, std::less<>>;

/// One physical board: its URI (`DRIVER:TRANSPORT`), its name and the PGN tags of its games.
/// Empty strings mean "not configured": the tag is written as `?`, the option falls back to
/// the global one.
struct BoardConfig {
    std::string uri;   ///< as given, e.g. "dgt:/dev/ttyACM0"
    std::string name;  ///< the `[board.NAME]` section name, else the URI
    std::string event; ///< PGN Event (default: the global `event`)
    std::string site;  ///< PGN Site (default: the global `site`)
    std::string round; ///< PGN Round
    std::string white; ///< PGN White, "Last, First"
    std::string black; ///< PGN Black
    std::string rules;        ///< rules profile for this board (default: global `rules`)
    std::string time_control; ///< PGN TimeControl for this board (default: global)
    BoardAccessOptions access{}; ///< speech, tactile board, two-board pair (speech_config.hpp)
    DriverParams driver_options{}; ///< `driver-options` of its section (over the global ones)
};

/// Everything eboardd is told by its command line and configuration file.
struct Config {
    std::vector<BoardConfig> boards;
    ClockMode clock = ClockMode::Board;
    WhiteSide white_side = WhiteSide::Auto;
    std::string rules = "fide-2023";
    bool supervised = false;
    std::string time_control;  ///< PGN TimeControl syntax, "" = unknown
    std::string pgn_dir;       ///< "" = no PGN files
    std::string state_dir;     ///< "" until resolved (see resolve_state_dir)
    std::string events;        ///< "" = none, "-" = stdout, else a file path (appended)
    std::string socket;        ///< "" = no client socket
    std::string socket_group;  ///< group owning the socket (mode 0660); "" = the daemon's
    int max_clients = 64;      ///< clients on the socket at once (ClientServer::kDefaultMaxClients)
    std::string http;          ///< --http ADDR:PORT: the arbiters' console (docs/console.md); "" = none
    std::string arbiter_password_file; ///< the console's arbiter password (first line); "" = none
    std::string livechess_api; ///< `--livechess-api ADDR:PORT`, "" = off (livechess_api.hpp)
    std::optional<std::string> simulate; ///< set by --simulate; "" = the embedded game
    IllegalFeedback illegal_feedback = IllegalFeedback::OnCompletion;
    double mismatch_grace_s = 5.0; ///< seconds before position_mismatch is alerted
    double speed = 1.0;            ///< --simulate: how many times faster than human pace
    std::string event;             ///< default PGN Event for every board
    std::string site;              ///< default PGN Site for every board
    std::vector<std::string> trace; ///< log categories traced at run time (e.g. "dgt")
    std::string config_file;       ///< the --config FILE, "" if none (SIGHUP re-reads it)
    SpeechOptions speech;          ///< --speech* (speech_config.hpp)
    DriverParams driver_options;   ///< --driver-options: for every board (a board's own win)
    HallOptions hall;              ///< --mqtt, --host-name, ... (hall_config.hpp)
};

/// What the command line asked for.
struct Invocation {
    Config config;
    bool help = false;    ///< --help: print usage_text() and exit 0
    bool version = false; ///< --version
};

/// Parses the command line (argv[0] excluded) and, if `--config FILE` is given, the file.
/// Errors name the option or the file line: "--clock: 'sometimes' is not board|none".
[[nodiscard]] Expected<Invocation> parse_command_line(const std::vector<std::string>& args);

/// Parses configuration file text, as if it were the only input (used by SIGHUP reload and
/// tests). `origin` names the file in error messages.
[[nodiscard]] Expected<Config> parse_config_text(const std::string& text,
                                                 const std::string& origin);

/// The --help text.
[[nodiscard]] std::string usage_text();

/// The state directory: --state-dir, else $STATE_DIRECTORY (systemd's StateDirectory=; the
/// first of a colon-separated list), else /var/lib/eboardd.
[[nodiscard]] std::string resolve_state_dir(const Config& config);

/// A board's effective PGN tag/option value: its own if set, else the global one.
[[nodiscard]] std::string board_rules(const Config& config, const BoardConfig& board);
[[nodiscard]] std::string board_time_control(const Config& config, const BoardConfig& board);

} // namespace eboard::daemon
