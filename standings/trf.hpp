// FIDE's Tournament Report File (TRF16, FIDE Handbook C.04 Annex 2, with the later XX codes):
// the model, the reader and the writer. docs/standings.md describes the columns read.
#pragma once

#include "base/expected.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace eboard::standings {

/// One round of a player's record: the 10-character block of a 001 line
/// (columns 92-95 opponent, 97 colour, 99 result; the next block 10 columns on).
struct RoundEntry {
    int opponent = 0;   ///< starting number of the opponent; 0 = none (a bye, or not paired)
    char colour = '-';  ///< 'w', 'b' or '-' (none)
    /// The TRF result code: '1' '=' '0' (played), 'W' 'D' 'L' (played, unrated), '+' '-'
    /// (forfeit win, loss), 'H' (half-point bye), 'F' (full-point bye), 'U' (pairing-allocated
    /// bye), 'Z' (zero-point bye), ' ' (not paired; counts as 'Z').
    char result = ' ';

    friend bool operator==(const RoundEntry&, const RoundEntry&) = default;
};

/// A 001 record: a player and his rounds. Text fields are kept as written (trailing spaces cut).
struct PlayerRecord {
    int startno = 0;
    char sex = ' ';
    std::string title;       ///< columns 11-13
    std::string name;        ///< columns 15-47
    int rating = 0;          ///< columns 49-52; 0 = unrated
    std::string federation;  ///< columns 54-56
    std::string fide_id;     ///< columns 58-68
    std::string birth;       ///< columns 70-79
    std::string points;      ///< columns 81-84, as written (the tools compute their own)
    std::string rank;        ///< columns 86-89, as written
    std::vector<RoundEntry> rounds;
    int line = 0;  ///< 1-based line in the file read; 0 when built in code

    friend bool operator==(const PlayerRecord& a, const PlayerRecord& b) {
        return a.startno == b.startno && a.sex == b.sex && a.title == b.title &&
               a.name == b.name && a.rating == b.rating && a.federation == b.federation &&
               a.fide_id == b.fide_id && a.birth == b.birth && a.points == b.points &&
               a.rank == b.rank && a.rounds == b.rounds;
    }
};

/// Any other record (012 name, 042 start date, 092 type, XXR, 013 teams, unknown codes...):
/// its three-character code and the rest of the line (from column 5), kept verbatim.
struct OtherRecord {
    std::string code;
    std::string text;
    friend bool operator==(const OtherRecord&, const OtherRecord&) = default;
};

/// A TRF file: records in file order (players and others interleaved as read).
struct TrfFile {
    std::vector<OtherRecord> others;   ///< every non-001 record, in file order
    std::vector<PlayerRecord> players; ///< the 001 records, in file order
    /// Where each record sits: 'P' = next of players, 'O' = next of others (so that writing
    /// keeps the file's order).
    std::string order;

    /// The text of the first record with this code (e.g. "042"), or "" when absent.
    [[nodiscard]] std::string header(std::string_view code) const;
    friend bool operator==(const TrfFile&, const TrfFile&) = default;
};

/// Reads a TRF16 file (UTF-8; LF or CRLF). Fixed columns as TRF16 defines them; unknown record
/// codes are kept. Errors carry the 1-based line and column (in bytes) of the offending field:
/// a field that is not a number, an unknown colour or result code, a duplicate starting
/// number, an opponent that is not in the file, a game whose two sides disagree.
[[nodiscard]] Expected<TrfFile> read_trf(std::string_view text);

/// Writes `file` in TRF16's fixed columns; read_trf(write_trf(f)) == f for every file read.
[[nodiscard]] std::string write_trf(const TrfFile& file);

} // namespace eboard::standings
