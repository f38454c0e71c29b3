// eboardctl: the arbiter's command-line client of eboardd (docs/client-api.md).
//
// Exit status: 0 done; 1 the daemon refused the request (its ERROR message is printed);
// 2 usage error; 3 cannot reach the daemon or it hung up.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "client/connection.hpp"
#include "client/text.hpp"
#include "standings/pairings.hpp"
#include "standings/pairings_trf.hpp"

namespace {

using eboard::client::Connection;
using eboard::client::ojson;
using eboard::client::text_of;

constexpr const char* kDefaultSocket = "/run/eboardd/eboardd.sock";

const char* const kUsage =
    "Usage: eboardctl [--socket PATH] [--json] COMMAND [ARGS]\n"
    "The arbiter's client of eboardd.\n\n"
    "Commands:\n"
    "  watch                      print every event as it happens (Ctrl-C to stop)\n"
    "  boards                     the boards, their state and game\n"
    "  games [LIMIT]              the recorded games, newest first\n"
    "  new BOARD [FEN]            start a new game (default: the standard position)\n"
    "  position BOARD FEN         set the position (a position of the game: taken back to it)\n"
    "  takeback BOARD PLY         take the game back to PLY (0 = the start)\n"
    "  result BOARD RESULT [TERMINATION] [--unconfirmed]\n"
    "                             RESULT = 1-0, 0-1 or 1/2-1/2; TERMINATION: resignation,\n"
    "                             agreement, time_forfeit, arbiter (default), ... (eboardctl(1))\n"
    "  penalty BOARD apply|decline  the penalty of the last illegal move (Art. 7.5.5)\n"
    "  clock BOARD WHITE BLACK    set the clock, times as h:mm:ss, m:ss or milliseconds; +T or -T\n"
    "                             adjusts the time the clock shows (e.g. clock t1 +2:00 0)\n"
    "  info BOARD REQUEST         tell (and speak) a visually impaired player (App. D.2.10.4):\n"
    "                             clocks, moves, last [N], position, square SQ, rank N, file F\n"
    "  attach URI [--name NAME]   open a board now (URI as eboardd --board takes it)\n"
    "  attach --device NODE       open the board udev knows at NODE (eboardd-device@.service)\n"
    "  detach BOARD               close a board (its game stays, unfinished, until it is back)\n"
    "  detach --device NODE       close the board attached by NODE\n"
    "  trf PAIRINGS [--host NAME] [--event TEXT] [--site TEXT] [--start-date YYYY/MM/DD]\n"
    "                             the store's games placed on the pairings (eboard-hub's CSV),\n"
    "                             printed as FIDE's TRF16 for eboard-standings; --host: the\n"
    "                             pairings' <host> of this eboardd (needed when they name more)\n\n"
    "Options:\n"
    "  --socket PATH   the daemon's socket (default $EBOARD_SOCKET, else /run/eboardd/eboardd.sock)\n"
    "  --json          print the daemon's replies and events as JSON lines\n"
    "  -h, --help      this help\n\n"
    "Exit status: 0 done, 1 refused by the daemon, 2 usage error, 3 daemon unreachable.\n";

int usage_error(const std::string& message) {
    std::cerr << "eboardctl: " << message << "\nTry 'eboardctl --help'.\n";
    return 2;
}

// "1:30:00", "5:00", "90000" (ms) -> milliseconds.
std::optional<std::int64_t> parse_time(const std::string& text) {
    if (text.empty()) return std::nullopt;
    std::int64_t total = 0;
    std::int64_t part = 0;
    int colons = 0;
    bool digits = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            part = part * 10 + (c - '0');
            digits = true;
            if (part > 360000000) return std::nullopt;
        } else if (c == ':' && digits && colons < 2) {
            total = total * 60 + part;
            part = 0;
            ++colons;
            digits = false;
        } else {
            return std::nullopt;
        }
    }
    if (!digits) return std::nullopt;
    if (colons == 0) return part; // milliseconds
    return (total * 60 + part) * 1000;
}

// A clock argument: an absolute time, or +T / -T added to the time the clock shows.
struct ClockArg {
    std::int64_t ms = 0;
    bool relative = false;
    int sign = 1;
    [[nodiscard]] std::int64_t apply(std::int64_t shown) const { return relative ? shown + sign * ms : ms; }
};

std::optional<ClockArg> parse_clock_arg(const std::string& text) {
    ClockArg a;
    std::string t = text;
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
        a.relative = true;
        a.sign = t[0] == '-' ? -1 : 1;
        t.erase(0, 1);
    }
    auto ms = parse_time(t);
    if (!ms) return std::nullopt;
    a.ms = *ms;
    return a;
}

// `clock BOARD +T -T`: adjust what the clock shows.
struct ClockAdjust {
    std::string board;
    ClockArg white;
    ClockArg black;
};

// `trf PAIRINGS [--host NAME] [--event TEXT] [--site TEXT] [--start-date D]`.
struct TrfExport {
    eboard::standings::Pairings pairings;
    std::string host; ///< the pairings' <host> whose sources are this daemon's boards
    eboard::standings::ReportHeader header;
};

// Reads the trf command's arguments (args[0] == "trf"); an error message, or "" when they are right.
std::string parse_trf_args(const std::vector<std::string>& args, TrfExport& x) {
    const char* const usage = "trf PAIRINGS [--host NAME] [--event TEXT] [--site TEXT] [--start-date YYYY/MM/DD]";
    std::string file;
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string* value = args[i] == "--host"         ? &x.host
                             : args[i] == "--event"      ? &x.header.event
                             : args[i] == "--site"       ? &x.header.site
                             : args[i] == "--start-date" ? &x.header.start_date
                                                         : nullptr;
        if (value && i + 1 < args.size()) *value = args[++i];
        else if (!value && file.empty()) file = args[i];
        else return usage;
    }
    if (file.empty()) return usage;
    auto pairings = eboard::standings::load_pairings(file);
    if (!pairings) return "trf: " + pairings.error().message;
    x.pairings = std::move(*pairings);
    std::set<std::string> hosts;
    for (const auto& p : x.pairings.lines)
        if (!p.source.empty()) hosts.insert(p.source.substr(0, p.source.find('/')));
    if (x.host.empty() && hosts.size() == 1) x.host = *hosts.begin();
    if (x.host.empty() && hosts.size() > 1)
        return "trf: the pairings name more than one host: say which is this eboardd's with --host";
    return {};
}

// The TRF of the daemon's games (a GAMES reply) on the pairings: a game's result counts once it
// ended (GAME end follows the confirmed result, Art. 8.7).
std::string trf_of_games(const ojson& games_reply, const TrfExport& x) {
    std::vector<eboard::standings::StartedGame> started;
    std::vector<std::string> results;
    const ojson& games = games_reply["games"];
    for (auto it = games.rbegin(); it != games.rend(); ++it) { // GAMES is newest first
        started.push_back({x.host + "/" + text_of(*it, "board"), it->value("plies", 0)});
        results.push_back(it->value("ended", false) ? text_of(*it, "result") : std::string());
    }
    const auto lines = eboard::standings::games_of_lines(x.pairings, eboard::standings::counted_games(started));
    std::vector<std::string> line_results;
    line_results.reserve(lines.size());
    for (const auto& g : lines) line_results.push_back(g ? results[*g] : std::string());
    return eboard::standings::write_trf(eboard::standings::trf_of_pairings(x.pairings, line_results, x.header));
}

int print_reply(const ojson& reply, bool json) {
    const std::string cls = text_of(reply, "class");
    if (cls == "ERROR") {
        std::cerr << "eboardctl: " << text_of(reply, "message") << "\n";
        return 1;
    }
    if (json) std::cout << reply.dump() << "\n";
    else std::cout << eboard::client::reply_text(reply);
    return 0;
}

} // namespace

int main(int argc, char** argv) try {
    std::vector<std::string> args;
    std::string socket_path = std::getenv("EBOARD_SOCKET") ? std::getenv("EBOARD_SOCKET") : kDefaultSocket;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            return 0;
        }
        if (a == "--json") json = true;
        else if (a == "--socket") {
            if (i + 1 >= argc) return usage_error("--socket needs a PATH");
            socket_path = argv[++i];
        } else if (a.rfind("--socket=", 0) == 0) socket_path = a.substr(9);
        else if (a == "--name" || a == "--device" || a == "--host" || a == "--event" || a == "--site" ||
                 a == "--start-date") {
            if (i + 1 >= argc) return usage_error(a + " needs a value");
            args.push_back(a);
            args.push_back(argv[++i]);
        }
        else if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9') && // "-0:30" is a time
                 a != "--unconfirmed")
            return usage_error("unknown option " + a);
        else args.push_back(a);
    }
    if (args.empty()) return usage_error("no command");
    const std::string cmd = args[0];
    auto need = [&](std::size_t lo, std::size_t hi) { return args.size() >= lo + 1 && args.size() <= hi + 1; };

    ojson request;
    std::optional<ClockAdjust> adjust;
    std::optional<TrfExport> trf;
    if (cmd == "watch") {
        if (!need(0, 0)) return usage_error("watch takes no arguments");
        request = {{"class", "WATCH"}, {"enable", true}};
    } else if (cmd == "boards") {
        if (!need(0, 0)) return usage_error("boards takes no arguments");
        request = {{"class", "BOARDS"}};
    } else if (cmd == "games") {
        if (!need(0, 1)) return usage_error("games [LIMIT]");
        request = {{"class", "GAMES"}};
        if (args.size() == 2) {
            char* end = nullptr;
            const long limit = std::strtol(args[1].c_str(), &end, 10);
            if (*end || limit < 1) return usage_error("games: LIMIT must be a positive number");
            request["limit"] = limit;
        }
    } else if (cmd == "new") {
        if (!need(1, 2)) return usage_error("new BOARD [FEN]");
        request = {{"class", "NEW_GAME"}, {"board", args[1]}};
        if (args.size() == 3) request["fen"] = args[2];
    } else if (cmd == "position") {
        if (!need(2, 2)) return usage_error("position BOARD FEN (the FEN quoted as one argument)");
        request = {{"class", "SET_POSITION"}, {"board", args[1]}, {"fen", args[2]}};
    } else if (cmd == "takeback") {
        if (!need(2, 2)) return usage_error("takeback BOARD PLY");
        char* end = nullptr;
        const long ply = std::strtol(args[2].c_str(), &end, 10);
        if (*end || ply < 0) return usage_error("takeback: PLY must be a number >= 0");
        request = {{"class", "TAKEBACK"}, {"board", args[1]}, {"ply", ply}};
    } else if (cmd == "result") {
        bool confirmed = true;
        std::vector<std::string> rest;
        for (const auto& a : args)
            if (a == "--unconfirmed") confirmed = false;
            else rest.push_back(a);
        if (rest.size() < 3 || rest.size() > 4) return usage_error("result BOARD 1-0|0-1|1/2-1/2 [TERMINATION]");
        if (rest[2] != "1-0" && rest[2] != "0-1" && rest[2] != "1/2-1/2")
            return usage_error("result: '" + rest[2] + "' is not 1-0, 0-1 or 1/2-1/2");
        request = {{"class", "RESULT"}, {"board", rest[1]}, {"result", rest[2]}, {"confirmed", confirmed}};
        if (rest.size() == 4) request["termination"] = rest[3];
    } else if (cmd == "penalty") {
        if (!need(2, 2) || (args[2] != "apply" && args[2] != "decline"))
            return usage_error("penalty BOARD apply|decline");
        request = {{"class", "PENALTY"}, {"board", args[1]}, {"decision", args[2]}};
    } else if (cmd == "clock") {
        if (!need(3, 3)) return usage_error("clock BOARD WHITE BLACK");
        auto w = parse_clock_arg(args[2]);
        auto b = parse_clock_arg(args[3]);
        if (!w || !b) return usage_error("clock: times are h:mm:ss, m:ss or milliseconds, +T/-T to adjust");
        if (w->relative || b->relative) adjust = ClockAdjust{args[1], *w, *b};
        request = {{"class", "CLOCK"}, {"board", args[1]}, {"white_ms", w->ms}, {"black_ms", b->ms}};
    } else if (cmd == "info") {
        if (args.size() < 3) return usage_error("info BOARD clocks|moves|last [N]|position|square SQ|rank N|file F");
        std::string what;
        for (std::size_t i = 2; i < args.size(); ++i) what += (i > 2 ? " " : "") + args[i];
        request = {{"class", "INFO"}, {"board", args[1]}, {"request", what}};
    } else if (cmd == "attach" || cmd == "detach") {
        // attach URI [--name NAME] | attach --device NODE [--name NAME]; detach BOARD | detach --device NODE
        std::string target, name, device;
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--name" && i + 1 < args.size() && cmd == "attach") name = args[++i];
            else if (args[i] == "--device" && i + 1 < args.size()) device = args[++i];
            else if (target.empty() && args[i].rfind("--", 0) != 0) target = args[i];
            else return usage_error(cmd == "attach" ? "attach URI [--name NAME] | attach --device NODE"
                                                    : "detach BOARD | detach --device NODE");
        }
        if (target.empty() == device.empty())
            return usage_error(cmd == "attach" ? "attach URI [--name NAME] | attach --device NODE"
                                               : "detach BOARD | detach --device NODE");
        if (cmd == "attach") {
            request = {{"class", "ATTACH"}};
            if (!target.empty()) request["uri"] = target;
            else request["device"] = device;
            if (!name.empty()) request["name"] = name;
        } else {
            request = {{"class", "DETACH"}};
            if (!target.empty()) request["board"] = target;
            else request["device"] = device;
        }
    } else if (cmd == "trf") {
        trf.emplace();
        if (const std::string why = parse_trf_args(args, *trf); !why.empty()) return usage_error(why);
        request = {{"class", "GAMES"}, {"limit", 100000}};
    } else {
        return usage_error("unknown command '" + cmd + "'");
    }

    Connection conn;
    std::string error;
    if (!conn.open(socket_path, error)) {
        std::cerr << "eboardctl: " << error << "\n";
        return 3;
    }
    auto version = conn.receive();
    if (!version || text_of(*version, "class") != "VERSION") {
        std::cerr << "eboardctl: " << socket_path << " did not greet with VERSION\n";
        return 3;
    }
    if (version->value("proto_major", 0) != 1) {
        std::cerr << "eboardctl: the daemon speaks protocol " << text_of(*version, "proto_major")
                  << ", this eboardctl speaks 1\n";
        return 3;
    }
    if (adjust) {
        // +T/-T: from the times the board's clock showed last (BOARDS `clock`).
        if (!conn.send(ojson{{"class", "BOARDS"}})) {
            std::cerr << "eboardctl: the daemon hung up\n";
            return 3;
        }
        auto boards = conn.receive();
        if (!boards) {
            std::cerr << "eboardctl: the daemon hung up\n";
            return 3;
        }
        const ojson* clock = nullptr;
        for (const auto& b : (*boards)["boards"])
            if ((text_of(b, "board") == adjust->board || text_of(b, "uri") == adjust->board) && b.contains("clock"))
                clock = &b["clock"];
        if (!clock) {
            std::cerr << "eboardctl: no clock times known for board '" << adjust->board << "'\n";
            return 1;
        }
        const std::int64_t w = adjust->white.apply((*clock).value("white_ms", std::int64_t{0}));
        const std::int64_t b = adjust->black.apply((*clock).value("black_ms", std::int64_t{0}));
        if (w < 0 || b < 0) {
            std::cerr << "eboardctl: the adjusted time would be negative\n";
            return 1;
        }
        request["white_ms"] = w;
        request["black_ms"] = b;
    }
    if (!conn.send(request)) {
        std::cerr << "eboardctl: the daemon hung up\n";
        return 3;
    }
    auto reply = conn.receive();
    if (!reply) {
        std::cerr << "eboardctl: the daemon hung up\n";
        return 3;
    }
    if (trf && text_of(*reply, "class") == "GAMES") {
        std::cout << trf_of_games(*reply, *trf);
        return 0;
    }
    if (cmd != "watch") return print_reply(*reply, json);
    if (text_of(*reply, "class") == "ERROR") return print_reply(*reply, json);
    // As JSON lines the watch is an event stream: the VERSION line first, as on every event
    // stream (docs/client-api.md "Events"), then the WATCH reply (watching from here on).
    if (json) std::cout << version->dump() << '\n' << reply->dump() << std::endl;
    while (auto e = conn.receive()) std::cout << (json ? e->dump() : eboard::client::describe(*e)) << std::endl;
    std::cerr << "eboardctl: the daemon hung up\n";
    return 3;
} catch (const std::exception& e) { // out of memory, or a reply the JSON library rejects
    std::fprintf(stderr, "eboardctl: %s\n", e.what());
    return 1;
}
