// A game under a rules profile: moves, repetition (9.2), claims (9.2, 9.3), automatic ends
// (5.1.1, 5.2.1, 5.2.2, [23] 9.6), takebacks.
#include "rules/game.hpp"

#include "rules/winnable.hpp"

#include <algorithm>
#include <utility>

namespace eboard {

std::string_view to_pgn(Result r) noexcept {
    switch (r) {
    case Result::WhiteWins:
        return "1-0";
    case Result::BlackWins:
        return "0-1";
    case Result::Draw:
        return "1/2-1/2";
    case Result::Ongoing:
        break;
    }
    return "*";
}

std::string_view to_string(Termination t) noexcept {
    switch (t) {
    case Termination::None:
        return "";
    case Termination::Checkmate:
        return "checkmate";
    case Termination::Stalemate:
        return "stalemate";
    case Termination::DeadPosition:
        return "dead_position";
    case Termination::FivefoldRepetition:
        return "fivefold_repetition";
    case Termination::SeventyFiveMoves:
        return "seventy_five_moves";
    case Termination::ThreefoldRepetition:
        return "threefold_repetition";
    case Termination::FiftyMoves:
        return "fifty_moves";
    case Termination::Resignation:
        return "resignation";
    case Termination::Agreement:
        return "agreement";
    case Termination::TimeForfeit:
        return "time_forfeit";
    case Termination::IllegalMoves:
        return "illegal_moves";
    case Termination::Arbiter:
        return "arbiter";
    }
    return "";
}

std::optional<Termination> termination_from_string(std::string_view s) noexcept {
    constexpr Termination all[] = {
        Termination::Checkmate,   Termination::Stalemate,           Termination::DeadPosition,
        Termination::FivefoldRepetition, Termination::SeventyFiveMoves, Termination::ThreefoldRepetition,
        Termination::FiftyMoves,  Termination::Resignation,         Termination::Agreement,
        Termination::TimeForfeit, Termination::IllegalMoves,        Termination::Arbiter};
    for (Termination t : all)
        if (s == to_string(t)) return t;
    // Earlier spellings (stored games, clients written against them).
    struct Alias {
        std::string_view text;
        Termination t;
    };
    constexpr Alias aliases[] = {{"dead position", Termination::DeadPosition},
                                 {"fivefold repetition", Termination::FivefoldRepetition},
                                 {"75-move rule", Termination::SeventyFiveMoves},
                                 {"time forfeit", Termination::TimeForfeit},
                                 {"flag", Termination::TimeForfeit},
                                 {"rules infraction", Termination::IllegalMoves},
                                 {"arbiter decision", Termination::Arbiter},
                                 {"adjudication", Termination::Arbiter}};
    for (const Alias& a : aliases)
        if (s == a.text) return a.t;
    return std::nullopt;
}

std::string_view pgn_termination(Termination t) noexcept {
    switch (t) {
    case Termination::None:
        return "unterminated";
    case Termination::TimeForfeit:
        return "time forfeit";
    case Termination::IllegalMoves:
        return "rules infraction";
    case Termination::Arbiter:
        return "adjudication";
    default:
        return "normal";
    }
}

bool dead_position_by_winnability(const Position& pos) {
    return is_dead_position(pos, WinnableMode::Quick);
}

std::string material_signature(const Position& pos, Color side) {
    std::string sig = "K";
    constexpr std::pair<PieceType, char> kOrder[] = {{PieceType::Queen, 'Q'},
                                                     {PieceType::Rook, 'R'},
                                                     {PieceType::Bishop, 'B'},
                                                     {PieceType::Knight, 'N'},
                                                     {PieceType::Pawn, 'P'}};
    for (const auto& [type, letter] : kOrder) {
        Bitboard b = pos.pieces(side, type);
        for (; b != 0; b &= b - 1) sig += letter;
    }
    return sig;
}

Outcome flag_fall_outcome(const Profile& profile, const Position& pos, Color flagged,
                          const CanMateTest& can_mate) {
    const Color opponent = ~flagged;
    const auto& lone = profile.flag_cannot_win_with;
    const bool material_draw =
        std::find(lone.begin(), lone.end(), material_signature(pos, opponent)) != lone.end();
    const bool helpmate_draw =
        profile.flag_draw_if_cannot_mate &&
        (can_mate ? !can_mate(pos, opponent)
                  : can_checkmate(pos, opponent, WinnableMode::Full) == Winnability::Unwinnable);
    const Result r = material_draw || helpmate_draw ? Result::Draw : win_for(opponent);
    return {r, Termination::TimeForfeit, profile.articles.flag};
}

namespace {

/// SplitMix64 finaliser: spreads a small number over 64 bits.
constexpr std::uint64_t mix(std::uint64_t x) noexcept {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

bool any_castling_right(const Position& p) noexcept {
    for (Color c : {Color::White, Color::Black})
        for (bool king_side : {true, false})
            if (p.has_castling_right(c, king_side)) return true;
    return false;
}

} // namespace

Game::Game(Profile profile, Position start, DeadPositionTest dead_test)
    : profile_(std::move(profile)), start_(start.copy()), pos_(std::move(start)),
      dead_test_(std::move(dead_test)) {
    keys_.push_back(compute_key(pos_));
    outcome_ = evaluate();
}

std::uint64_t Game::compute_key(const Position& p) const {
    std::uint64_t k = p.key();
    // [05]/[01] 9.2: a castling right changed "temporarily" also makes positions differ, so
    // the castling moves possible right now are part of the position. [23] 9.2.2.2 counts
    // only rights lost for good, which Position::key() already holds.
    if (profile_.repetition_castling == RepetitionCastling::TemporaryOrPermanent &&
        any_castling_right(p)) {
        for (Move m : p.legal_moves())
            if (m.is_castling()) k ^= mix(0xC0FFEEull + m.raw());
    }
    return k;
}

int Game::count_key(const std::vector<std::uint64_t>& keys, int upto, int halfmove_clock,
                    std::vector<int>* plies) const {
    // A capture or pawn move can never be undone, so the same position can only lie within
    // the last `halfmove_clock` plies, and only with the same side to move (every 2nd ply).
    const std::uint64_t k = keys[static_cast<std::size_t>(upto)];
    const int lowest = std::max(0, upto - halfmove_clock);
    int n = 0;
    for (int j = upto; j >= lowest; j -= 2) {
        if (keys[static_cast<std::size_t>(j)] != k) continue;
        ++n;
        if (plies) plies->push_back(j);
    }
    if (plies) std::reverse(plies->begin(), plies->end());
    return n;
}

std::vector<int> Game::occurrences() const {
    std::vector<int> plies;
    count_key(keys_, ply(), pos_.halfmove_clock(), &plies);
    return plies;
}

Outcome Game::evaluate() const {
    const Articles& art = profile_.articles;
    const bool no_moves = !pos_.has_legal_move();
    const bool mate = no_moves && pos_.in_check();
    // [23] 9.6.2: N moves by each side without a pawn move or capture; "if the last move
    // resulted in checkmate, that shall take precedence".
    const bool seventy_five =
        profile_.automatic_moves > 0 && pos_.halfmove_clock() >= 2 * profile_.automatic_moves;
    if (mate && (profile_.mate_prevails || !seventy_five))
        return {win_for(~pos_.side_to_move()), Termination::Checkmate, art.checkmate};
    if (no_moves && !mate) return {Result::Draw, Termination::Stalemate, art.stalemate};
    if (profile_.automatic_repetitions > 0 &&
        count_key(keys_, ply(), pos_.halfmove_clock(), nullptr) >= profile_.automatic_repetitions)
        return {Result::Draw, Termination::FivefoldRepetition, art.fivefold};
    if (seventy_five) return {Result::Draw, Termination::SeventyFiveMoves, art.seventy_five_moves};
    if (dead_test_ && dead_test_(pos_))
        return {Result::Draw, Termination::DeadPosition, art.dead_position};
    return {};
}

Position Game::position_at(int ply_index) const {
    Position p = pos_.copy();
    if (ply_index < 0 || ply_index >= ply()) return p;
    // The current position remembers every move since the start (make_move's undo stack).
    for (int i = ply(); i > ply_index; --i) p.unmake_move();
    return p;
}

Expected<Outcome> Game::play(Move m) {
    if (outcome_.ended()) return Error{"the game is over", 0, 0};
    if (!pos_.is_legal(m)) return Error{"illegal move", 0, 0};
    pos_.make_move(m);
    moves_.push_back(m);
    keys_.push_back(compute_key(pos_));
    outcome_ = evaluate();
    return outcome_;
}

Expected<Outcome> Game::play_on(Move m) {
    if (outcome_.ended()) outcome_ = Outcome{};
    return play(m);
}

Expected<Outcome> Game::play_uci(std::string_view uci) {
    if (outcome_.ended()) return Error{"the game is over", 0, 0};
    const Move m = move_from_uci(pos_, uci);
    if (m.is_none()) return Error{"illegal move '" + std::string(uci) + "'", 0, 0};
    return play(m);
}

ClaimVerdict Game::claim_threefold(Move announced) const {
    ClaimVerdict v;
    v.article = profile_.articles.threefold;
    if (announced.is_none()) {
        v.occurrences = occurrences();
    } else {
        if (!pos_.is_legal(announced)) return v;
        Position p = pos_.copy();
        p.make_move(announced);
        std::vector<std::uint64_t> keys = keys_;
        keys.push_back(compute_key(p));
        count_key(keys, ply() + 1, p.halfmove_clock(), &v.occurrences);
    }
    v.valid = static_cast<int>(v.occurrences.size()) >= profile_.claim_repetitions;
    return v;
}

ClaimVerdict Game::claim_fifty_moves(Move announced) const {
    ClaimVerdict v;
    v.article = profile_.articles.fifty_moves;
    int clock = pos_.halfmove_clock();
    if (!announced.is_none()) {
        if (!pos_.is_legal(announced)) return v;
        Position p = pos_.copy();
        p.make_move(announced);
        clock = p.halfmove_clock();
    }
    v.moves_without_capture_or_pawn_move = clock / 2;
    v.valid = clock >= 2 * profile_.claim_moves;
    return v;
}

Game::Claimable Game::claimable_draws() const {
    Claimable c;
    c.threefold_now = claim_threefold().valid;
    c.fifty_moves_now = claim_fifty_moves().valid;
    if (outcome_.ended()) return c;
    Position p = pos_.copy();
    std::vector<std::uint64_t> keys = keys_;
    keys.push_back(0);
    for (Move m : pos_.legal_moves()) {
        p.make_move(m);
        keys.back() = compute_key(p);
        if (count_key(keys, ply() + 1, p.halfmove_clock(), nullptr) >= profile_.claim_repetitions)
            c.threefold_moves.push_back(m);
        if (p.halfmove_clock() >= 2 * profile_.claim_moves) c.fifty_moves_moves.push_back(m);
        p.unmake_move();
    }
    return c;
}

bool Game::take_back_to(int target) {
    if (target < 0 || target > ply()) return false;
    while (ply() > target) {
        pos_.unmake_move();
        moves_.pop_back();
        keys_.pop_back();
    }
    outcome_ = evaluate();
    return true;
}

void Game::set_dead_position_test(DeadPositionTest test) {
    dead_test_ = std::move(test);
    if (!outcome_.ended()) outcome_ = evaluate();
}

} // namespace eboard
