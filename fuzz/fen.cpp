// libFuzzer target: Position::from_fen on arbitrary bytes, standard and Chess960. On success
// the FEN and Shredder-FEN written back must read again to the same position, and every legal
// move must make and unmake cleanly. Any crash, sanitizer report or abort is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/position.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

void exercise(std::string_view text, bool chess960) {
    auto parsed = eboard::Position::from_fen(text, chess960);
    if (!parsed) {
        check(!parsed.error().message.empty());
        return;
    }
    eboard::Position& p = *parsed;
    const std::string fen = p.fen();
    const auto again = eboard::Position::from_fen(fen, chess960);
    check(again.has_value() && again->fen() == fen && again->key() == p.key());
    const auto shredder = eboard::Position::from_fen(p.shredder_fen(), chess960);
    check(shredder.has_value() && shredder->fen() == fen);
    const eboard::MoveList moves = p.legal_moves();
    check(p.has_legal_move() == !moves.empty());
    for (const eboard::Move m : moves) {
        const bool gives = p.gives_check(m);
        check(eboard::move_from_uci(p, eboard::to_uci(p, m)) == m);
        p.make_move(m);
        check(gives == p.in_check());
        p.unmake_move();
    }
    check(p.fen() == fen);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    exercise(text, false);
    exercise(text, true);
    return 0;
}
