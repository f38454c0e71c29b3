// eboard-emu: serves an emulated board on a pseudo-terminal: a DGT board with a DGT3000 (or XL)
// clock (the default), a Certabo / Tabutronic Sentio board (`--board certabo|sentio`), or a
// Millennium ChessLink board (`--board millennium`).
// Prints the pty's slave path on stdout (one line), then serves until SIGINT/SIGTERM.
// Commands on stdin (one per line) play the board: "lift e2", "place e4 P", "move e2 e4",
// "fen <placement>"; DGT only: "lever left|right", "button 0..4", "clock on|off"; Certabo and
// Sentio: "calibrate" (start position + spare queens on d3/d6), "leds" (prints the lit squares);
// DGT and Millennium: "unplug", "plug" (--link PATH: a symlink that follows the board's new pty).
// `eboard-emu chessnut ...` (or `--board chessnut ...`) serves a Chessnut board as a fake USB
// device under umockdev instead (chessnut_usb.hpp).
#include "base/placement.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "drivers/emu/line_emulator.hpp"
#include "drivers/emu/millennium_emulator.hpp"
#include "tools/eboard-emu/board_commands.hpp"
#include "tools/eboard-emu/chessnut_usb.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <poll.h>
#include <sstream>
#include <unistd.h>

using namespace eboard;
using namespace eboard::drivers;

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

void usage() {
    std::fprintf(stderr,
                 "usage: eboard-emu [dgt] [--fen PLACEMENT] [--replay FILE] [--rotated] [--xl]\n"
                 "                  [--no-clock] [--scan-ms N] [--noise P] [--fragment N] [--seed N]\n"
                 "                  [--battery PERCENT] [--link PATH]\n"
                 "       eboard-emu --board certabo|sentio [--fen PLACEMENT] [--rotated] [--frame-ms N]\n"
                 "                  [--empty-noise P] [--drop P] [--swap P] [--bounce P] [--noise P] [--lf N]\n"
                 "                  [--rgb] [--glue-acks] [--second-set] [--write-calibration FILE]\n"
                 "                  [--fragment N] [--seed N]\n"
                 "       eboard-emu --board millennium [--fen PLACEMENT] [--replay TRACE]\n"
                 "                  [--order h1-first|a8-first] [--version MAJOR.MINOR] [--no-parity]\n"
                 "                  [--no-ack] [--instant] [--noise P] [--fragment N] [--seed N]\n"
                 "                  [--link PATH]\n"
                 "       eboard-emu chessnut [--fen PLACEMENT] [--rotated] [--model air|pro|air-plus|go]\n"
                 "                  [--address N] [--no-out-endpoint] [--battery PERCENT] [--repeat-ms N]\n"
                 "                  [--noise P] [--invalid P] [--seed N] [--trace] [-- COMMAND [ARGS...]]\n");
}

/// "unplug" / "plug": the cable pulled and put back (a new pty behind the --link path).
template <typename Emulator>
bool plug_command(Emulator& e, const std::string& verb) {
    if (verb == "unplug") e.unplug();
    else if (verb == "plug") e.replug();
    else return false;
    return true;
}

bool command(emu::DgtEmulator& e, const std::string& verb, const std::string& a, const std::string& b) {
    if (tools::board_command(e, verb, a, b) || plug_command(e, verb)) return true;
    if (verb == "lever" && (a == "left" || a == "right"))
        e.press_lever(a == "left" ? ClockSide::Left : ClockSide::Right);
    else if (verb == "button" && a.size() == 1 && a[0] >= '0' && a[0] <= '4') e.press_button(a[0] - '0');
    else if (verb == "clock" && (a == "on" || a == "off")) e.set_clock_connected(a == "on");
    else if (verb == "battery" && !a.empty() && a.size() <= 3 && a.find_first_not_of("0123456789") == std::string::npos)
        e.set_battery(std::min(std::stoi(a), 100), b == "charging");
    else
        return false;
    return true;
}

bool command(emu::LineEmulator& e, const std::string& verb, const std::string& a, const std::string& b) {
    if (tools::board_command(e, verb, a, b)) return true;
    if (verb == "calibrate") {
        e.set_calibration_position();
    } else if (verb == "leds") {
        std::string lit;
        for (int i = 0; i < 64; ++i)
            if (e.leds() & bb(Square(i))) {
                if (!lit.empty()) lit += ' ';
                lit += Square(i).name();
            }
        std::printf("leds %s\n", lit.empty() ? "-" : lit.c_str());
        std::fflush(stdout);
    } else {
        return false;
    }
    return true;
}

bool command(emu::MillenniumEmulator& e, const std::string& verb, const std::string& a, const std::string& b) {
    return tools::board_command(e, verb, a, b) || plug_command(e, verb);
}

/// Prints the pty path (the readiness line), then reads commands until a signal.
template <typename Emulator>
void serve(Emulator& e) {
    std::printf("%s\n", e.pty_slave_path().c_str());
    std::fflush(stdout);
    tools::StdinLines in;
    while (!g_stop) {
        in.poll(100, [&](const std::string& line) {
            std::istringstream words(line);
            std::string verb, a, b;
            words >> verb >> a >> b;
            if (!command(e, verb, a, b)) std::fprintf(stderr, "eboard-emu: ? %s\n", line.c_str());
        });
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 2 && std::string(argv[1]) == "--board" &&
        (std::string(argv[2]) == "chessnut" || std::string(argv[2]) == "emu-chessnut"))
        return tools::run_chessnut(argc - 2, argv + 2);
    if (argc > 1 && (std::string(argv[1]) == "chessnut" || std::string(argv[1]) == "emu-chessnut"))
        return tools::run_chessnut(argc - 1, argv + 1);
    emu::DgtEmulatorOptions opt;
    emu::LineEmulatorOptions line;
    emu::MillenniumEmulatorOptions mill;
    bool line_board = false, millennium = false;
    std::string replay_text;
    std::string calibration_out, link;
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
            if (arg == "dgt" || arg == "emu-dgt") continue;
            if (arg == "--board" || arg == "certabo" || arg == "sentio" || arg == "emu-certabo" || arg == "emu-sentio" ||
                arg == "millennium" || arg == "emu-millennium") {
                const std::string b = arg == "--board" ? value() : arg;
                if (b == "dgt" || b == "emu-dgt") continue;
                if (b == "millennium" || b == "emu-millennium") {
                    millennium = true;
                    continue;
                }
                if (b != "certabo" && b != "sentio" && b != "emu-certabo" && b != "emu-sentio") {
                    std::fprintf(stderr, "eboard-emu: --board must be dgt, certabo, sentio or millennium, not '%s'\n",
                                 b.c_str());
                    return 2;
                }
                line_board = true;
                line.kind = b.find("sentio") != std::string::npos ? emu::LineBoardKind::Sentio : emu::LineBoardKind::Certabo;
            } else if (arg == "--fen") {
                auto b = read_placement(value(), true);
                if (!b) {
                    std::fprintf(stderr, "eboard-emu: bad FEN: %s (column %d)\n", b.error().message.c_str(), b.error().column);
                    return 2;
                }
                opt.position = line.position = mill.position = b.value();
            } else if (arg == "--replay") {
                const std::string path = value();
                std::ifstream f(path, std::ios::binary);
                if (!f) {
                    std::fprintf(stderr, "eboard-emu: cannot read %s\n", path.c_str());
                    return 2;
                }
                std::stringstream ss;
                ss << f.rdbuf();
                replay_text = ss.str();  // a millennium board replays it as a trace (below)
                auto r = emu::parse_record_log(ss.str());
                if (!r) {
                    std::fprintf(stderr, "eboard-emu: %s:%d: %s\n", path.c_str(), r.error().line, r.error().message.c_str());
                    return 2;
                }
                opt.replay = std::move(r.value());
            } else if (arg == "--rotated") opt.rotated = line.rotated = true;
            else if (arg == "--xl") opt.clock.model = ClockModel::DgtXl;
            else if (arg == "--no-clock") opt.clock.connected = false;
            else if (arg == "--battery") opt.battery_percent = std::min(std::stoi(value()), 100);
            else if (arg == "--scan-ms") opt.scan_period_ms = std::stoll(value());
            else if (arg == "--noise")
                opt.noise_probability = line.garbage_probability = mill.noise_probability = std::stod(value());
            else if (arg == "--fragment") opt.fragment_max = line.fragment_max = mill.fragment_max = std::stoul(value());
            else if (arg == "--seed") opt.seed = line.seed = mill.seed = static_cast<unsigned>(std::stoul(value()));
            else if (arg == "--order") {
                const std::string o = value();
                if (o != "h1-first" && o != "a8-first") throw std::invalid_argument(o);
                mill.order = o == "a8-first" ? millennium::SquareOrder::A8First : millennium::SquareOrder::H1First;
            } else if (arg == "--version") {
                const std::string v = value();
                const auto dot = v.find('.');
                mill.version_major = std::stoi(v.substr(0, dot));
                mill.version_minor = dot == std::string::npos ? 0 : std::stoi(v.substr(dot + 1));
            } else if (arg == "--no-parity") mill.parity_bit = false;
            else if (arg == "--no-ack") mill.acknowledge = false;
            else if (arg == "--instant") mill.instant_scan = true;
            else if (arg == "--frame-ms") line.frame_period_ms = std::stoll(value());
            else if (arg == "--empty-noise") line.empty_noise = std::stod(value());
            else if (arg == "--drop") line.drop_probability = std::stod(value());
            else if (arg == "--bounce") line.bounce_probability = std::stod(value());
            else if (arg == "--swap") line.swap_probability = std::stod(value());
            else if (arg == "--lf") line.lf_every = std::stoul(value());
            else if (arg == "--rgb") line.rgb_leds = true;
            else if (arg == "--glue-acks") line.glue_acks = true;
            else if (arg == "--second-set") line.extra_sets = 1;
            else if (arg == "--write-calibration") calibration_out = value();
            else if (arg == "--link") link = value();
            else if (arg == "--trace") (void)enable_traces("all");
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
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGPIPE, SIG_IGN);
    try {
        if (millennium) {
            if (!replay_text.empty()) {
                auto r = emu::parse_trace_log(replay_text, "millennium");
                if (!r || r->empty()) {
                    std::fprintf(stderr, "eboard-emu: --replay: no millennium trace lines (%s)\n",
                                 r ? "none found" : r.error().message.c_str());
                    return 2;
                }
                mill.replay = std::move(r.value());
            }
            emu::MillenniumEmulator e(mill);
            if (!link.empty()) e.service().add_link(link);
            serve(e);
            return 0;
        }
        if (!line_board) {
            emu::DgtEmulator e(opt);
            if (!link.empty()) e.service().add_link(link);
            serve(e);
            return 0;
        }
        emu::LineEmulator e(line);
        if (!calibration_out.empty()) {  // for `certabo:...` with calibration=FILE
            std::ofstream f(calibration_out);
            f << e.full_calibration().to_text();
            if (!f) {
                std::fprintf(stderr, "eboard-emu: cannot write %s\n", calibration_out.c_str());
                return 2;
            }
        }
        serve(e);
    } catch (const std::exception& ex) {
        std::fprintf(stderr, "eboard-emu: %s\n", ex.what());
        return 1;
    }
    return 0;
}
