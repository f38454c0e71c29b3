// The speech and accessibility options of eboardd ([23] Appendix D; docs/configuration.md,
// "Speech and visually impaired players"). Kept apart from config.cpp so that the options of
// issue 6 stay in one place: config.cpp only adds this table and these keys.
#pragma once

#include "base/expected.hpp"

#include <boost/program_options.hpp>
#include <string>

namespace eboard::daemon {

/// Global speech options.
struct SpeechOptions {
    std::string output = "none";           ///< --speech: auto|speechd|espeak|wav:DIR|none
    std::string address;                   ///< --speech-address: speech-dispatcher's, "" = default
    std::string vocabulary = "appendix-d"; ///< --speech-vocabulary: appendix-d|en|nl|de|af|fr
    std::string moves = "both";            ///< --speech-moves: both|white|black|none
    bool long_form = false;                ///< --speech-long-form yes: departure squares too
};

/// Per-board accessibility settings (`[board.NAME]` keys). Empty = the global option.
struct BoardAccessOptions {
    std::string vocabulary; ///< speech-vocabulary
    std::string moves;      ///< speech-moves: whose moves are announced at this board
    bool tactile = false;   ///< tactile = yes: a visually impaired player's board (D.2.2-D.2.3)
    std::string pair; ///< pair = OTHER: this board and OTHER are one game's two boards (D.2.9)
};

/// The speech options for the options table.
[[nodiscard]] boost::program_options::options_description speech_options_table();

/// Reads the speech options from `vm` into `out`; errors name the option and its values.
[[nodiscard]] Expected<bool> apply_speech_options(const boost::program_options::variables_map& vm,
                                                  SpeechOptions& out);

/// A `[board.NAME]` key of this table: true if `field` is one (stored in `out`), false if it
/// is not ours; an error for a bad value.
[[nodiscard]] Expected<bool>
apply_board_access_key(const std::string& field, const std::string& value, BoardAccessOptions& out);

/// The names of the per-board keys, for error messages: "speech-vocabulary, ...".
[[nodiscard]] const char* board_access_keys();

} // namespace eboard::daemon
