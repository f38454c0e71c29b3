// eboard-emu: serves an emulated DGT board with a DGT3000 (or XL) clock on a pseudo-terminal.
// Prints the pty's slave path on stdout (one line), then serves until SIGINT/SIGTERM.
// Commands on stdin (one per line) play the board: "lift e2", "place e4 P", "move e2 e4",
// "lever left|right", "button 0..4", "fen <placement>", "clock on|off".
// `eboard-emu chessnut ...` serves a Chessnut board as a fake USB device instead
// (chessnut_usb.hpp).
#include "drivers/emu/dgt_emulator.hpp"
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
                 "       eboard-emu chessnut --help   (a Chessnut board on USB, under umockdev)\n");
}

bool command(emu::DgtEmulator& e, const std::string& line) {
    std::istringstream in(line);
    std::string verb, a, b;
    in >> verb >> a >> b;
    if (tools::board_command(e, verb, a, b)) return true;
    if (verb == "lever" && (a == "left" || a == "right"))
        e.press_lever(a == "left" ? ClockSide::Left : ClockSide::Right);
    else if (verb == "button" && a.size() == 1 && a[0] >= '0' && a[0] <= '4') e.press_button(a[0] - '0');
    else if (verb == "clock" && (a == "on" || a == "off")) e.set_clock_connected(a == "on");
    else
        return false;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && (std::string(argv[1]) == "chessnut" || std::string(argv[1]) == "emu-chessnut"))
        return tools::run_chessnut(argc - 1, argv + 1);
    emu::DgtEmulatorOptions opt;
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
            if (arg == "--fen") {
                auto b = BoardState::from_placement(value());
                if (!b) {
                    std::fprintf(stderr, "eboard-emu: bad FEN: %s (column %d)\n", b.error().message.c_str(), b.error().column);
                    return 2;
                }
                opt.position = b.value();
            } else if (arg == "--replay") {
                const std::string path = value();
                std::ifstream f(path, std::ios::binary);
                if (!f) {
                    std::fprintf(stderr, "eboard-emu: cannot read %s\n", path.c_str());
                    return 2;
                }
                std::stringstream ss;
                ss << f.rdbuf();
                auto r = emu::parse_record_log(ss.str());
                if (!r) {
                    std::fprintf(stderr, "eboard-emu: %s:%d: %s\n", path.c_str(), r.error().line, r.error().message.c_str());
                    return 2;
                }
                opt.replay = std::move(r.value());
            } else if (arg == "--rotated") opt.rotated = true;
            else if (arg == "--xl") opt.clock.model = ClockModel::DgtXl;
            else if (arg == "--no-clock") opt.clock.connected = false;
            else if (arg == "--scan-ms") opt.scan_period_ms = std::stoll(value());
            else if (arg == "--noise") opt.noise_probability = std::stod(value());
            else if (arg == "--fragment") opt.fragment_max = std::stoul(value());
            else if (arg == "--seed") opt.seed = static_cast<unsigned>(std::stoul(value()));
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
        emu::DgtEmulator e(opt);
        std::printf("%s\n", e.pty_slave_path().c_str());
        std::fflush(stdout);
        tools::StdinLines in;
        while (!g_stop) {
            in.poll(100, [&](const std::string& line) {
                if (!command(e, line)) std::fprintf(stderr, "eboard-emu: ? %s\n", line.c_str());
            });
        }
    } catch (const std::exception& ex) {
        std::fprintf(stderr, "eboard-emu: %s\n", ex.what());
        return 1;
    }
    return 0;
}
