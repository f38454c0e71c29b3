// TRF16 writer (standings/trf.hpp): the fixed columns the reader reads, padded in characters.
#include "standings/trf.hpp"

#include <cstddef>

namespace eboard::standings {
namespace {

/// Number of UTF-8 characters in `s`.
std::size_t chars(std::string_view s) {
    std::size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U) ++n;
    return n;
}

/// `s` left-aligned in `width` characters (longer text is written whole; the reader then
/// refuses it, which is why fields are never longer than their columns in a file read).
std::string left(std::string_view s, std::size_t width) {
    std::string out(s);
    for (std::size_t n = chars(s); n < width; ++n) out += ' ';
    return out;
}

std::string right(std::string_view s, std::size_t width) {
    std::string out;
    for (std::size_t n = chars(s); n < width; ++n) out += ' ';
    return out + std::string(s);
}

std::string player_line(const PlayerRecord& p) {
    std::string l = "001 ";
    l += right(std::to_string(p.startno), 4) + ' ';           // 5-8, 9
    l += p.sex;                                               // 10
    l += left(p.title, 3) + ' ';                              // 11-13, 14
    l += left(p.name, 33) + ' ';                              // 15-47, 48
    l += right(p.rating > 0 ? std::to_string(p.rating) : "", 4) + ' ';  // 49-52, 53
    l += left(p.federation, 3) + ' ';                         // 54-56, 57
    l += right(p.fide_id, 11) + ' ';                          // 58-68, 69
    l += left(p.birth, 10) + ' ';                             // 70-79, 80
    l += right(p.points, 4) + ' ';                            // 81-84, 85
    l += right(p.rank, 4);                                    // 86-89
    for (const RoundEntry& r : p.rounds) {
        l += "  ";  // 90-91, then the 10-column block from 92
        if (r == RoundEntry{}) {
            l += std::string(8, ' ');
        } else {
            l += r.opponent == 0 ? std::string("0000") : right(std::to_string(r.opponent), 4);
            l += ' ';
            l += r.colour;
            l += ' ';
            l += r.result;
        }
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l;
}

} // namespace

std::string write_trf(const TrfFile& file) {
    std::string out;
    std::size_t p = 0;
    std::size_t o = 0;
    for (char kind : file.order) {
        if (kind == 'P' && p < file.players.size()) {
            out += player_line(file.players[p++]);
        } else if (kind == 'O' && o < file.others.size()) {
            const OtherRecord& r = file.others[o++];
            out += r.code;
            if (!r.text.empty()) out += ' ' + r.text;
        } else {
            continue;
        }
        out += '\n';
    }
    // Records not named in `order` (a file built in code): players after the others.
    for (; o < file.others.size(); ++o)
        out += file.others[o].code + (file.others[o].text.empty() ? "" : " " + file.others[o].text) + '\n';
    for (; p < file.players.size(); ++p) out += player_line(file.players[p]) + '\n';
    return out;
}

} // namespace eboard::standings
