// The tournament the tie-breaks are computed on: players, their rounds, the scoring, the
// format (round robin or Swiss) and the edition of FIDE's tie-break rules (Handbook C.07) in
// force. Built from a TRF file (standings/trf.hpp); docs/standings.md.
#pragma once

#include "base/expected.hpp"
#include "standings/trf.hpp"

#include <string>
#include <vector>

namespace eboard::standings {

/// Points awarded per result (TRF16 XXS may change them; default 1, ½, 0).
struct Scoring {
    double win = 1.0;
    double draw = 0.5;
    double loss = 0.0;
    double forfeit_win = 1.0;   ///< '+'
    double forfeit_loss = 0.0;  ///< '-'
    double full_bye = 1.0;      ///< 'F'
    double half_bye = 0.5;      ///< 'H'
    double zero_bye = 0.0;      ///< 'Z', and a round not paired
    double pairing_bye = 1.0;   ///< 'U' (pairing-allocated bye)

    /// The points of one round entry.
    [[nodiscard]] double points(char result) const;
};

/// The edition of C.07 in force at the tournament's start date (TRF record 042): the rules
/// applied from 1 August 2024 until 28 February 2026, and those applied from 1 March 2026.
enum class Edition { C07_2024, C07_2026 };

/// One participant. `rounds` has one entry per round of the tournament (unpaired rounds blank).
struct Player {
    int startno = 0;
    std::string name;
    int rating = 0;  ///< 0 = unrated
    std::vector<RoundEntry> rounds;
};

/// A tournament ready for the tie-breaks.
struct Tournament {
    std::string name;        ///< TRF 012
    std::string start_date;  ///< TRF 042, as written
    std::vector<Player> players;
    int rounds = 0;          ///< TRF XXR, else the longest record
    bool round_robin = false;  ///< pre-determined pairings (C.07 15.2); else Swiss (Art. 16)
    Edition edition = Edition::C07_2024;
    Scoring scoring;

    /// Index into `players` of a starting number, -1 if none.
    [[nodiscard]] int index_of(int startno) const;
};

/// Builds the tournament of a TRF file. The format is read from record 092 ("Round Robin",
/// "Swiss", ...), else inferred (a round robin when every player is paired with every other);
/// the scoring from XXS (`W=1 D=0.5 FW=1 FL=0 PAB=1 FPB=1 HPB=0.5 ZPB=0 L=0`); the number of
/// rounds from XXR. `notes` receives what the reader inferred or found odd (a points column
/// that differs from the computed score). Errors: a malformed XXS or XXR, with its line.
[[nodiscard]] Expected<Tournament> tournament_of(const TrfFile& file, std::vector<std::string>& notes);

/// A player's score: the sum of the points of his rounds.
[[nodiscard]] double score_of(const Tournament& t, const Player& p);

/// True for the codes of a game played over the board ('1' '=' '0' 'W' 'D' 'L').
[[nodiscard]] bool played(char result);

} // namespace eboard::standings
