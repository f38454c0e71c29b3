// eboard-emu: serves an emulated board on a pseudo-terminal: a DGT board with a DGT3000 (or XL)
// clock (default, or `dgt`), or a Millennium ChessLink board (`millennium`). Prints the pty's
// slave path on stdout (one line), then serves until SIGINT/SIGTERM.
// Commands on stdin (one per line) play the board: "lift e2", "place e4 P", "move e2 e4",
// "fen <placement>"; DGT only: "lever left|right", "button 0..4", "clock on|off".
#include "drivers/emu/dgt_emulator.hpp"
#include "drivers/emu/millennium_emulator.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <poll.h>
#include <sstream>
#include <unistd.h>

using namespace eboard;
using namespace eboard::drivers;

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) {
    g_stop = 1;
}

void usage() {
    std::fprintf(
        stderr,
        "usage: eboard-emu [dgt] [--fen PLACEMENT] [--replay FILE] [--rotated] [--xl]\n"
        "                  [--no-clock] [--scan-ms N] [--noise P] [--fragment N] [--seed N]\n"
        "       eboard-emu millennium [--fen PLACEMENT] [--replay TRACE] [--order "
        "h1-first|a8-first]\n"
        "                  [--version MAJOR.MINOR] [--no-parity] [--no-ack] [--instant]\n"
        "                  [--noise P] [--fragment N] [--seed N]\n");
}

/// The player's commands every board understands; false if `line` is not one of them.
template <typename Emulator>
bool player_command(Emulator& e, const std::string& verb, const std::string& a,
                    const std::string& b) {
    if (verb == "lift" && Square::parse(a).valid())
        e.lift(Square::parse(a));
    else if (verb == "place" && Square::parse(a).valid() && b.size() == 1 &&
             piece_from_char(b[0]) != Piece::None)
        e.place(Square::parse(a), piece_from_char(b[0]));
    else if (verb == "move" && Square::parse(a).valid() && Square::parse(b).valid())
        e.move(Square::parse(a), Square::parse(b));
    else if (verb == "fen") {
        auto placed = BoardState::from_placement(a);
        if (!placed) return false;
        e.set_position(placed.value());
    } else
        return false;
    return true;
}

bool dgt_command(emu::DgtEmulator& e, const std::string& line) {
    std::istringstream in(line);
    std::string verb, a, b;
    in >> verb >> a >> b;
    if (player_command(e, verb, a, b)) return true;
    if (verb == "lever" && (a == "left" || a == "right"))
        e.press_lever(a == "left" ? ClockSide::Left : ClockSide::Right);
    else if (verb == "button" && a.size() == 1 && a[0] >= '0' && a[0] <= '4')
        e.press_button(a[0] - '0');
    else if (verb == "clock" && (a == "on" || a == "off"))
        e.set_clock_connected(a == "on");
    else
        return false;
    return true;
}

bool millennium_command(emu::MillenniumEmulator& e, const std::string& line) {
    std::istringstream in(line);
    std::string verb, a, b;
    in >> verb >> a >> b;
    return player_command(e, verb, a, b);
}

/// Prints the pty, then runs stdin commands until a signal; stdin closing does not stop it.
int serve(const std::string& pty, const std::function<bool(const std::string&)>& command) {
    std::printf("%s\n", pty.c_str());
    std::fflush(stdout);
    bool stdin_open = true;
    std::string pending;
    while (!g_stop) {
        pollfd p{0, POLLIN, 0};
        if (::poll(&p, stdin_open ? 1 : 0, 100) > 0 && (p.revents & (POLLIN | POLLHUP))) {
            char buf[256];
            const ssize_t n = ::read(0, buf, sizeof buf);
            if (n <= 0) {
                stdin_open = false; // keep serving; only a signal ends us
                continue;
            }
            pending.append(buf, static_cast<std::size_t>(n));
            for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
                const std::string line = pending.substr(0, nl);
                pending.erase(0, nl + 1);
                if (!line.empty() && !command(line))
                    std::fprintf(stderr, "eboard-emu: ? %s\n", line.c_str());
            }
        }
    }
    return 0;
}

/// A recorded conversation: record.txt (DGT) or our own wire trace; exits on errors.
std::vector<emu::RecordedExchange> read_replay(const std::string& path, bool trace_only) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "eboard-emu: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    std::stringstream ss;
    ss << f.rdbuf();
    auto r = trace_only ? emu::parse_trace_log(ss.str()) : emu::parse_record_log(ss.str());
    if (r && r->empty() && !trace_only) r = emu::parse_trace_log(ss.str());
    if (!r) {
        std::fprintf(stderr, "eboard-emu: %s:%d: %s\n", path.c_str(), r.error().line,
                     r.error().message.c_str());
        std::exit(2);
    }
    return std::move(r.value());
}

} // namespace

int main(int argc, char** argv) {
    emu::DgtEmulatorOptions opt;
    emu::MillenniumEmulatorOptions mopt;
    bool millennium = false;
    bool dgt_only = false, millennium_only = false; // options given that only one board has
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "eboard-emu: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        try {
            if (i == 1 && (arg == "dgt" || arg == "emu-dgt")) continue;
            if (i == 1 && (arg == "millennium" || arg == "emu-millennium")) {
                millennium = true;
                continue;
            }
            if (arg == "--fen") {
                auto b = BoardState::from_placement(value());
                if (!b) {
                    std::fprintf(stderr, "eboard-emu: bad FEN: %s (column %d)\n",
                                 b.error().message.c_str(), b.error().column);
                    return 2;
                }
                opt.position = mopt.position = b.value();
            } else if (arg == "--replay") {
                const std::string path = value();
                opt.replay = read_replay(path, false);
                mopt.replay = read_replay(path, true);
            } else if (arg == "--rotated") {
                opt.rotated = true;
                dgt_only = true;
            } else if (arg == "--xl") {
                opt.clock.model = ClockModel::DgtXl;
                dgt_only = true;
            } else if (arg == "--no-clock") {
                opt.clock.connected = false;
                dgt_only = true;
            } else if (arg == "--scan-ms") {
                opt.scan_period_ms = std::stoll(value());
                dgt_only = true;
            } else if (arg == "--order") {
                const std::string o = value();
                if (o != "h1-first" && o != "a8-first") throw std::invalid_argument(o);
                mopt.order = o == "a8-first" ? millennium::SquareOrder::A8First
                                             : millennium::SquareOrder::H1First;
                millennium_only = true;
            } else if (arg == "--version") {
                const std::string v = value();
                const auto dot = v.find('.');
                mopt.version_major = std::stoi(v.substr(0, dot));
                mopt.version_minor = dot == std::string::npos ? 0 : std::stoi(v.substr(dot + 1));
                millennium_only = true;
            } else if (arg == "--no-parity") {
                mopt.parity_bit = false;
                millennium_only = true;
            } else if (arg == "--no-ack") {
                mopt.acknowledge = false;
                millennium_only = true;
            } else if (arg == "--instant") {
                mopt.instant_scan = true;
                millennium_only = true;
            } else if (arg == "--noise")
                opt.noise_probability = mopt.noise_probability = std::stod(value());
            else if (arg == "--fragment")
                opt.fragment_max = mopt.fragment_max = std::stoul(value());
            else if (arg == "--seed")
                opt.seed = mopt.seed = static_cast<unsigned>(std::stoul(value()));
            else if (arg == "--trace")
                (void)enable_traces("all");
            else if (arg == "-h" || arg == "--help") {
                usage();
                return 0;
            } else {
                usage();
                return 2;
            }
        } catch (const std::exception&) {
            std::fprintf(stderr, "eboard-emu: bad value for %s\n", arg.c_str());
            return 2;
        }
    }
    if ((millennium && dgt_only) || (!millennium && millennium_only)) {
        std::fprintf(stderr, "eboard-emu: option not available for the %s board\n",
                     millennium ? "millennium" : "dgt");
        usage();
        return 2;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGPIPE, SIG_IGN);
    try {
        if (millennium) {
            emu::MillenniumEmulator e(mopt);
            return serve(e.pty_slave_path(),
                         [&](const std::string& line) { return millennium_command(e, line); });
        }
        emu::DgtEmulator e(opt);
        return serve(e.pty_slave_path(),
                     [&](const std::string& line) { return dgt_command(e, line); });
    } catch (const std::exception& ex) {
        std::fprintf(stderr, "eboard-emu: %s\n", ex.what());
        return 1;
    }
}
