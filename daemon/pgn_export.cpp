#include "daemon/pgn_export.hpp"

#include "rules/game.hpp"
#include "rules/position.hpp"

namespace eboard::daemon {

namespace {

// PGN 9.8.1 allows only a few Termination values (rules/game.hpp pgn_termination); the exact
// reason, the RESULT event's `termination`, goes in a comment.
std::string termination_tag(const std::string& t) {
    if (auto known = termination_from_string(t)) return std::string(pgn_termination(*known));
    if (t == "abandoned" || t == "emergency" || t == "death" || t == "unterminated") return t;
    return "normal";
}

// A comment's text: braces would end or nest the comment in some readers.
std::string comment_text(const std::string& c) {
    std::string out;
    for (char ch : c) out.push_back(ch == '{' ? '(' : ch == '}' ? ')' : ch == '\n' ? ' ' : ch);
    return out;
}

void append_comment(std::string& to, const std::string& text) {
    if (text.empty()) return;
    if (!to.empty()) to += ' ';
    to += comment_text(text);
}

// Whole seconds, rounded down: the contract's `[%clk h:mm:ss]` (the rules writer would add a
// fraction for a reading that is not whole).
std::int64_t whole_seconds(std::int64_t ms) { return ms < 0 ? 0 : ms - ms % 1000; }

// A start position that only Chess960 explains (X-FEN/Shredder-FEN castling).
bool chess960_only(const std::string& fen) {
    return !Position::from_fen(fen, false) && Position::from_fen(fen, true);
}

// A record with the game's tags, starting from `fen`.
eboard::GameRecord new_record(const StoredGame& g, const std::string& fen) {
    eboard::GameRecord r;
    r.set_tag("Event", g.tags.event.empty() ? "?" : g.tags.event);
    r.set_tag("Site", g.tags.site.empty() ? "?" : g.tags.site);
    r.set_tag("Date", g.tags.date.empty() ? "????.??.??" : g.tags.date);
    r.set_tag("Round", g.tags.round.empty() ? "?" : g.tags.round);
    r.set_tag("White", g.tags.white.empty() ? "?" : g.tags.white);
    r.set_tag("Black", g.tags.black.empty() ? "?" : g.tags.black);
    if (!g.tags.board.empty()) r.set_tag("Board", g.tags.board);
    if (!g.tags.time_control.empty()) r.set_tag("TimeControl", g.tags.time_control);
    if (fen != kStandardFen) {
        r.start_fen = fen;
        r.chess960 = chess960_only(fen);
    }
    return r;
}

// Whether White moves first from the position `fen` (a game's start position).
bool white_to_move(const std::string& fen) {
    const auto pos = Position::from_fen(fen, chess960_only(fen));
    return !pos || pos->side_to_move() == Color::White;
}

} // namespace

std::string clock_text(std::int64_t ms) { return format_clock(whole_seconds(ms)); }

std::vector<eboard::GameRecord> to_pgn_records(const StoredGame& g) {
    std::vector<eboard::GameRecord> out;
    out.push_back(new_record(g, g.start_fen));
    for (const auto& c : g.comments) append_comment(out.back().comment, c);
    bool white = white_to_move(g.start_fen);
    for (const auto& m : g.moves) {
        eboard::GameRecord& r = out.back();
        if (m.illegal_stands) {
            // The illegal move is no move of PGN: end this record, continue in the next one.
            std::string note = std::string(white ? "White" : "Black") + "'s illegal move " + m.san +
                               " stood, unclaimed before the opponent's next move; the game "
                               "continues in the next record from the position after it";
            std::string& where = r.moves.empty() ? r.comment : r.moves.back().comment;
            append_comment(where, note);
            for (const auto& c : m.comments) append_comment(where, c);
            r.result = "*";
            out.push_back(new_record(g, m.fen));
            out.back().comment = "continued after an illegal move that stood (" + m.san + ")";
            white = white_to_move(m.fen);
            continue;
        }
        GameMove gm;
        gm.san = m.san;
        if (m.completed && m.clock) gm.clock_ms = whole_seconds(white ? m.clock->white_ms : m.clock->black_ms);
        for (const auto& c : m.comments) append_comment(gm.comment, c);
        r.moves.push_back(std::move(gm));
        white = !white;
    }
    eboard::GameRecord& last = out.back();
    last.result = g.result.empty() ? "*" : g.result;
    if (!g.termination.empty()) {
        const std::string tag = termination_tag(g.termination);
        last.set_tag("Termination", tag);
        if (tag != g.termination)
            append_comment(last.moves.empty() ? last.comment : last.moves.back().comment, g.termination);
    }
    return out;
}

std::string to_pgn(const StoredGame& g) {
    std::string text;
    for (const auto& r : to_pgn_records(g)) {
        if (!text.empty()) text += '\n';
        text += write_pgn(r);
    }
    return text;
}

} // namespace eboard::daemon
