#include "daemon/console.hpp"

#include <cstdio>

#include "daemon/pgn_export.hpp"

namespace eboard::daemon {

void print_console_line(const std::string& line) {
    std::fputs(line.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

namespace {

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

void print_event(const Event& event) {
    if (const auto* m = std::get_if<MoveEvent>(&event)) {
        if (!m->is_completed()) return;
        // Ply 1 is White's first move of a standard game; the position after it says whose
        // move it was.
        const auto after = Position::from_fen(m->fen);
        const bool black_moved = after && after->side_to_move() == Color::White;
        const int number = (m->ply + 1) / 2;
        std::string line = pad(std::to_string(number) + (black_moved ? "... " : ". ") + m->san, 16);
        if (m->clock)
            line += "white " + clock_text(m->clock->white_ms) + "  black " + clock_text(m->clock->black_ms);
        print_console_line(line);
    } else if (const auto* a = std::get_if<AlertEvent>(&event)) {
        std::string line = std::string("ALERT ") + to_string(a->kind);
        if (!a->article.empty()) line += " (Art. " + a->article + ")";
        line += ": " + a->text;
        if (!a->penalty.empty()) line += " [penalty " + a->penalty + "]";
        print_console_line(line);
    } else if (const auto* r = std::get_if<ResultEvent>(&event)) {
        print_console_line("Result " + r->result + " (" + r->termination + ")" +
                           (r->confirmed ? ", confirmed" : ", to be confirmed"));
    } else if (const auto* g = std::get_if<GameEvent>(&event)) {
        if (g->kind == GameEvent::Kind::Takeback)
            print_console_line("Game " + g->game + " taken back to ply " + std::to_string(g->ply.value_or(0)));
        else
            print_console_line(std::string(g->kind == GameEvent::Kind::Start ? "Game " : "End of game ") + g->game +
                               " on " + g->board);
    } else if (const auto* b = std::get_if<BoardEvent>(&event)) {
        print_console_line("Board " + b->board + (b->connected ? " connected" : " disconnected") + " (" +
                           b->driver + ")");
    }
}

} // namespace

Recorder::Sink console_sink() {
    return [](const Event& e, const std::string&) { print_event(e); };
}

} // namespace eboard::daemon
