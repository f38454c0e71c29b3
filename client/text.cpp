#include "client/text.hpp"

#include <sstream>

#include "rules/pgn.hpp"

namespace eboard::client {

std::string text_of(const ojson& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string clock_text(std::int64_t ms) { return format_clock(ms < 0 ? 0 : ms - ms % 1000); }

std::string move_number(const ojson& e) {
    std::istringstream fields(text_of(e, "fen"));
    std::string placement, side, castling, en_passant, halfmove;
    long fullmove = 0;
    if (fields >> placement >> side >> castling >> en_passant >> halfmove >> fullmove && fullmove > 0) {
        if (side == "b") return std::to_string(fullmove) + ". ";                    // White moved
        if (side == "w" && fullmove > 1) return std::to_string(fullmove - 1) + "... "; // Black moved
    }
    return text_of(e, "ply") + ". ";
}

std::string describe(const ojson& e) {
    const std::string cls = text_of(e, "class");
    const std::string where = text_of(e, "board") + (e.contains("game") ? " " + text_of(e, "game") : "");
    if (cls == "MOVE") {
        std::string s = where + "  " + move_number(e) + text_of(e, "san") + " (" + text_of(e, "status") + ")";
        if (e.contains("clock") && e["clock"].is_object())
            s += "  white " + clock_text(e["clock"].value("white_ms", std::int64_t{0})) + "  black " +
                 clock_text(e["clock"].value("black_ms", std::int64_t{0}));
        return s;
    }
    if (cls == "ALERT")
        return where + "  ALERT " + text_of(e, "kind") + " (" + text_of(e, "article") + "): " + text_of(e, "text");
    if (cls == "RESULT")
        return where + "  RESULT " + text_of(e, "result") + " " + text_of(e, "termination") +
               (e.value("confirmed", false) ? " (confirmed)" : " (not confirmed)");
    if (cls == "GAME") return where + "  game " + text_of(e, "event") + "  " + text_of(e, "fen");
    if (cls == "BOARD") {
        std::string s = where + "  board " + text_of(e, "state") + " (" + text_of(e, "driver") + ")";
        if (const auto b = e.find("battery"); b != e.end() && b->is_object())
            s += "  battery " + text_of(*b, "percent") + "%" + (b->value("charging", false) ? " charging" : "");
        return s;
    }
    if (cls == "TOUCH") return where + "  " + text_of(e, "action") + " " + text_of(e, "square") + " " + text_of(e, "piece");
    return e.dump();
}

std::string reply_text(const ojson& reply) {
    const std::string cls = text_of(reply, "class");
    std::ostringstream out;
    if (cls == "BOARDS") {
        for (const auto& b : reply["boards"])
            out << text_of(b, "board") << "\t" << text_of(b, "state") << "\t"
                << (b.contains("game") ? text_of(b, "game") + " ply " + text_of(b, "ply") : "-") << "\n";
    } else if (cls == "GAMES") {
        for (const auto& g : reply["games"])
            out << text_of(g, "game") << "\t" << text_of(g, "board") << "\t" << text_of(g, "result") << "\t"
                << text_of(g, "plies") << " plies" << (g.value("ended", false) ? "" : "\tin progress") << "\n";
    } else if (cls == "INFO") {
        out << text_of(reply, "text") << "\n";
    } else if (reply.contains("attached") || reply.contains("detached")) {
        const bool done = reply.value("attached", false) || reply.value("detached", false);
        const std::string verb = reply.contains("attached") ? "attached" : "detached";
        out << (reply.contains("board") ? text_of(reply, "board") + " " : std::string())
            << (done ? verb : "already " + std::string(verb == "attached" ? "open" : "closed")) << "\n";
    } else {
        out << "ok" << (reply.contains("game") ? " (game " + text_of(reply, "game") + ")" : "") << "\n";
    }
    return out.str();
}

} // namespace eboard::client
