#include "access/announcer.hpp"

#include <algorithm>

namespace eboard::access {

namespace {

// A line that only follows the moves: the announcements need no ending of their own.
Game follow_line(Position start) { return Game(Profile{}, std::move(start), {}); }

/// The FEN without the halfmove clock and move number: what two boards must agree on.
std::string_view placement_to_ep(std::string_view fen) {
    std::size_t spaces = 0;
    for (std::size_t i = 0; i < fen.size(); ++i)
        if (fen[i] == ' ' && ++spaces == 4) return fen.substr(0, i);
    return fen;
}

/// The ply of the last move made in `pos` when it came from a game start (FEN move number
/// and side to move): 0 at White's first move.
int ply_of(const Position& pos) {
    return (pos.fullmove_number() - 1) * 2 + (pos.side_to_move() == Color::Black ? 1 : 0);
}

bool spoken_side(SpokenSides s, Color mover) {
    switch (s) {
    case SpokenSides::Both:
        return true;
    case SpokenSides::White:
        return mover == Color::White;
    case SpokenSides::Black:
        return mover == Color::Black;
    case SpokenSides::None:
        return false;
    }
    return false;
}

} // namespace

std::optional<SpokenSides> spoken_sides_from_text(std::string_view text) noexcept {
    if (text == "both") return SpokenSides::Both;
    if (text == "white") return SpokenSides::White;
    if (text == "black") return SpokenSides::Black;
    if (text == "none") return SpokenSides::None;
    return std::nullopt;
}

Announcer::Announcer(SpeechSettings settings)
    : settings_(settings), line_(follow_line(Position::startpos())) {}

void Announcer::game_started(std::string_view fen) {
    auto p = Position::from_fen(fen);
    line_ = follow_line(p ? std::move(p.value()) : Position::startpos());
    base_ply_ = ply_of(line_.position());
    white_ms_.reset();
    black_ms_.reset();
}

std::optional<Spoken> Announcer::move_made(int ply, std::string_view uci,
                                           std::string_view fen_after) {
    // A move taken back and made again: go back to the position before this ply.
    if (ply <= base_ply_ + line_.ply()) (void)line_.take_back_to(std::max(0, ply - 1 - base_ply_));
    const Move m = move_from_uci(line_.position(), uci);
    const bool follows = !m.is_none() && ply == base_ply_ + line_.ply() + 1;
    std::string text;
    Color mover = line_.side_to_move();
    if (follows) {
        text = announce_move(line_.position(), m, settings_.announce);
        (void)line_.play_on(m);  // the events go on after an ending: follow them
        if (placement_to_ep(line_.position().fen()) == placement_to_ep(fen_after)) {
            return spoken_side(settings_.moves, mover) ? std::optional(spoken(text, false))
                                                       : std::nullopt;
        }
    }
    // Not from the line we know: take the board's word for it.
    auto p = Position::from_fen(fen_after);
    if (!p) return std::nullopt;
    line_ = follow_line(std::move(p.value()));
    base_ply_ = ply;
    const Position& after = line_.position();
    mover = ~after.side_to_move();
    const Square to = uci.size() >= 4 ? Square::parse(uci.substr(2, 2)) : Square::none();
    if (!follows) {
        if (!to.valid() || after.piece_on(to) == Piece::None) return std::nullopt;
        text = std::string(
                   piece_words(type_of(after.piece_on(to)), settings_.announce.vocabulary)) +
               ' ' + square_words(to, settings_.announce.vocabulary);
    }
    return spoken_side(settings_.moves, mover) ? std::optional(spoken(text, false)) : std::nullopt;
}

void Announcer::taken_back(int ply, std::string_view fen) {
    if (base_ply_ + line_.ply() > ply) (void)line_.take_back_to(std::max(0, ply - base_ply_));
    if (base_ply_ + line_.ply() == ply && placement_to_ep(line_.position().fen()) == placement_to_ep(fen))
        return;
    auto p = Position::from_fen(fen);
    if (!p) return;
    line_ = follow_line(std::move(p.value()));
    base_ply_ = ply;
}

void Announcer::clock_times(std::int64_t white_ms, std::int64_t black_ms) {
    white_ms_ = white_ms;
    black_ms_ = black_ms;
}

std::optional<Spoken> Announcer::alert(std::string_view kind, std::span<const Square> squares,
                                       std::optional<Color> side) const {
    if (!settings_.alerts || !alert_is_spoken(kind)) return std::nullopt;
    return spoken(alert_text(kind, squares, side, settings_.announce.vocabulary), true);
}

Spoken Announcer::answer(const InfoRequest& request) const {
    return spoken(answer_info_request(request, line_.position(), white_ms_, black_ms_, settings_.announce),
                  false);
}

Spoken Announcer::spoken(std::string text, bool important) const {
    return Spoken{std::move(text), words(settings_.announce.vocabulary).language, important};
}

} // namespace eboard::access
