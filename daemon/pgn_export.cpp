#include "daemon/pgn_export.hpp"

#include <cstdio>
#include <sstream>

namespace eboard::daemon {

namespace {

// A tag value in PGN: backslash and quote escaped (PGN 8.1.1).
std::string tag_value(const std::string& v) {
    if (v.empty()) return "?";
    std::string out;
    for (char c : v) {
        if (c == '\\' || c == '"') out.push_back('\\');
        if (c == '\n' || c == '\r') c = ' ';
        out.push_back(c);
    }
    return out;
}

// Side to move and fullmove number of a FEN (fields 2 and 6), for move numbers.
void fen_counters(const std::string& fen, bool& white_to_move, int& fullmove) {
    std::istringstream in(fen);
    std::string placement, side, castling, ep;
    int halfmove = 0;
    white_to_move = true;
    fullmove = 1;
    in >> placement >> side >> castling >> ep >> halfmove >> fullmove;
    white_to_move = side != "b";
    if (fullmove < 1) fullmove = 1;
}

// Appends tokens and wraps lines at 79 columns (PGN 8.2.2: at most 79 characters).
class Wrapper {
  public:
    void add(const std::string& token) {
        if (col_ > 0 && col_ + 1 + token.size() > 79) {
            out_ += '\n';
            col_ = 0;
        } else if (col_ > 0) {
            out_ += ' ';
            ++col_;
        }
        out_ += token;
        col_ += token.size();
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
    std::size_t col_ = 0;
};

std::string comment_text(const std::string& c) {
    std::string out;
    for (char ch : c) out.push_back(ch == '{' ? '(' : ch == '}' ? ')' : ch == '\n' ? ' ' : ch);
    return out;
}

// PGN 9.8.1 allows only a few Termination values; the exact reason goes in a comment.
std::string termination_tag(const std::string& t) {
    if (t == "flag" || t == "time forfeit" || t == "flag fall") return "time forfeit";
    if (t == "rules infraction" || t == "illegal move") return "rules infraction";
    if (t == "arbiter decision" || t == "adjudication") return "adjudication";
    if (t == "abandoned" || t == "emergency" || t == "death" || t == "unterminated") return t;
    return "normal";
}

} // namespace

std::string clock_text(std::int64_t ms) {
    if (ms < 0) ms = 0;
    const std::int64_t s = ms / 1000;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>((s / 60) % 60), static_cast<long long>(s % 60));
    return buf;
}

std::string to_pgn(const GameRecord& g) {
    std::string out;
    auto tag = [&](const char* name, const std::string& value) {
        out += "[";
        out += name;
        out += " \"" + tag_value(value) + "\"]\n";
    };
    tag("Event", g.tags.event);
    tag("Site", g.tags.site);
    tag("Date", g.tags.date.empty() ? "????.??.??" : g.tags.date);
    tag("Round", g.tags.round);
    tag("White", g.tags.white);
    tag("Black", g.tags.black);
    tag("Result", g.result);
    if (!g.tags.board.empty()) tag("Board", g.tags.board);
    if (!g.tags.time_control.empty()) tag("TimeControl", g.tags.time_control);
    if (g.start_fen != kStandardFen) {
        tag("SetUp", "1");
        tag("FEN", g.start_fen);
    }
    if (!g.termination.empty()) tag("Termination", termination_tag(g.termination));
    out += "\n";

    bool white = true;
    int number = 1;
    fen_counters(g.start_fen, white, number);
    Wrapper w;
    bool need_number = true; // after a comment Black's move needs "N..." (PGN 8.2.2.2)
    for (const auto& c : g.comments) w.add("{" + comment_text(c) + "}");
    for (const auto& m : g.moves) {
        if (white) w.add(std::to_string(number) + ".");
        else if (need_number) w.add(std::to_string(number) + "...");
        w.add(m.san);
        need_number = false;
        if (m.completed && m.clock) {
            w.add("{[%clk " + clock_text(white ? m.clock->white_ms : m.clock->black_ms) + "]}");
            need_number = true;
        }
        for (const auto& c : m.comments) {
            w.add("{" + comment_text(c) + "}");
            need_number = true;
        }
        if (!white) ++number;
        white = !white;
    }
    if (!g.termination.empty() && termination_tag(g.termination) != g.termination)
        w.add("{" + comment_text(g.termination) + "}");
    w.add(g.result);
    out += w.take();
    out += "\n";
    return out;
}

} // namespace eboard::daemon
