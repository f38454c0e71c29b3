// Replay of a real DGT session (../shared/data/dgt/record.txt, see its README): one board dump
// per second while a game was played, decoded here with a small frame parser (protocols/dgt.md
// sections 4-7), fed as board snapshots to an identity-board reconstructor without a clock.
#include <catch2/catch.hpp>

#include <cctype>

#include "recon_support.hpp"

using namespace eboard;
using namespace eboard::test;

namespace {

/// The bytes the board sent, in order (chunks concatenated; "write" lines are the host's).
std::vector<int> received_bytes(const std::string& path) {
    std::ifstream in(path);
    std::vector<int> bytes;
    std::string line, acc;
    bool open = false;
    while (std::getline(in, line)) {
        if (!open) {
            if (line.rfind("write", 0) == 0 || line.empty() || line[0] != '[') continue;
            acc.clear();
            open = true;
        }
        acc += line + " ";
        if (line.find(']') == std::string::npos) continue;
        open = false;
        int v = -1;
        for (char c : acc) {
            if (std::isdigit(static_cast<unsigned char>(c))) {
                v = (v < 0 ? 0 : v * 10) + (c - '0');
            } else if (v >= 0) {
                bytes.push_back(v);
                v = -1;
            }
        }
    }
    return bytes;
}

/// Board dumps (message 0x86, 64 piece codes, field 0 = a8) as readings a1=0..h8=63.
std::vector<BoardReading> board_dumps(const std::vector<int>& b) {
    static const Piece kCodes[13] = {Piece::None,  Piece::WPawn,   Piece::WRook,   Piece::WKnight,
                                     Piece::WBishop, Piece::WKing, Piece::WQueen,  Piece::BPawn,
                                     Piece::BRook, Piece::BKnight, Piece::BBishop, Piece::BKing,
                                     Piece::BQueen};
    std::vector<BoardReading> dumps;
    std::size_t i = 0;
    while (i + 3 <= b.size()) {
        if (!(b[i] & 0x80)) { ++i; continue; }  // resynchronise on a message id
        std::size_t len = static_cast<std::size_t>((b[i + 1] << 7) | b[i + 2]);
        if (len < 3 || i + len > b.size()) break;
        if (b[i] == 0x86 && len == 67) {
            BoardReading r{};
            for (int f = 0; f < 64; ++f) {
                int code = b[i + 3 + static_cast<std::size_t>(f)];
                Piece p = code >= 1 && code <= 12 ? kCodes[code] : Piece::None;
                Square s = Square::at(f % 8, 7 - f / 8);
                r[static_cast<std::size_t>(s.index())] = SquareReading::of(p);
            }
            dumps.push_back(r);
        }
        i += len;
    }
    return dumps;
}

} // namespace

TEST_CASE("DGT record.txt replays into its game: 1.a4 e5 2.Nf3 Nc6 3.d3 a5 4.c4 Qf6 ...") {
    auto dumps = board_dumps(received_bytes(std::string(EBOARD_SHARED_DATA) + "/dgt/record.txt"));
    REQUIRE(dumps.size() == 178);
    std::size_t distinct = 1;
    for (std::size_t k = 1; k < dumps.size(); ++k) distinct += dumps[k] == dumps[k - 1] ? 0u : 1u;
    CHECK(distinct == 56);

    ReconConfig cfg;
    cfg.clock = false;
    Run r(cfg);
    TimeMs t = 0;
    for (const BoardReading& d : dumps) {
        r.take(r.rec.feed(BoardSnapshot{t, d}));
        for (int k = 1; k < 10; ++k) r.take(r.rec.feed(Tick{t + 100 * k}));
        t += 1000;
    }
    REQUIRE(r.games_started == 1);
    std::vector<std::string> opening{"a2a4", "e7e5", "g1f3", "b8c6", "d2d3", "a7a5", "c2c4", "d8f6"};
    REQUIRE(r.made.size() >= opening.size());
    CHECK(std::vector<std::string>(r.made.begin(), r.made.begin() + 8) == opening);
    INFO(r.alert_list());
    std::string game;
    for (const std::string& m : r.made) game += m + " ";
    INFO(game);
    CHECK(r.made.size() >= 34);
    CHECK(r.made.back().substr(2, 2) == "c2");  // the last one: a black queen landing on c2
    CHECK(r.rec.position().piece_on(Square::parse("c2")) == Piece::BQueen);
    CHECK(r.count(AlertKind::IllegalMove) == 0);
    CHECK(r.count(AlertKind::PositionMismatch) == 0);
}
