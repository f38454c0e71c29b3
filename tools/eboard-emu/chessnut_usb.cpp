#include "base/placement.hpp"
#include "tools/eboard-emu/chessnut_usb.hpp"

#include "drivers/core/trace.hpp"
#include "drivers/emu/chessnut_emulator.hpp"
#include "drivers/emu/umockdev/fake_usb.hpp"
#include "tools/eboard-emu/board_commands.hpp"

#include <csignal>
#include <fcntl.h>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace eboard::tools {

namespace {

using namespace eboard::drivers;

volatile std::sig_atomic_t g_signal = 0;
void on_signal(int sig) { g_signal = sig; }

void usage() {
    std::fprintf(stderr,
                 "usage: eboard-emu chessnut [--fen PLACEMENT] [--rotated] [--model air|pro|air-plus|go]\n"
                 "                           [--address N] [--no-out-endpoint] [--battery PERCENT]\n"
                 "                           [--repeat-ms N] [--noise P] [--invalid P] [--seed N] [--trace]\n"
                 "                           [-- COMMAND [ARGS...]]\n"
                 "Serves a Chessnut board as a fake USB device (umockdev) and prints UMOCKDEV_DIR=...;\n"
                 "run clients with that UMOCKDEV_DIR and LD_PRELOAD=libumockdev-preload.so.0, e.g.\n"
                 "  eboard-emu chessnut -- eboardd --board chessnut:usb --events -\n");
}

/// Starts `args` with the preload library in its environment (UMOCKDEV_DIR is already ours).
pid_t spawn(const std::vector<std::string>& args) {
    std::string preload = "libumockdev-preload.so.0";
    if (const char* p = std::getenv("LD_PRELOAD"); p && *p)
        preload = std::string(p).find("libumockdev-preload") != std::string::npos ? p : preload + ":" + p;
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    ::setenv("LD_PRELOAD", preload.c_str(), 1);
    // Stdin stays ours (the player's commands).
    if (const int null = ::open("/dev/null", O_RDONLY); null >= 0) ::dup2(null, 0);
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "eboard-emu: cannot run %s\n", args[0].c_str());
    ::_exit(127);
}

} // namespace

int run_chessnut(int argc, char** argv) {
    emu::ChessnutEmulatorOptions opt;
    emu::FakeUsbDescription usb;
    std::vector<std::string> child;
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
            if (arg == "--") {
                child.assign(argv + i + 1, argv + argc);
                break;
            }
            if (arg == "--fen") {
                auto b = read_placement(value(), true);
                if (!b) {
                    std::fprintf(stderr, "eboard-emu: bad FEN: %s\n", b.error().message.c_str());
                    return 2;
                }
                opt.position = b.value();
            } else if (arg == "--rotated") opt.rotated = true;
            else if (arg == "--model") {
                const std::string m = value();
                if (m == "air") usb.pid = 0x8002, usb.product = "Chessnut Air";
                else if (m == "pro") usb.pid = 0x8101, usb.product = "Chessnut Pro";
                else if (m == "air-plus") usb.pid = 0x8202, usb.product = "Chessnut Air+";
                else if (m == "go") usb.pid = 0x8501, usb.product = "Chessnut Go";
                else {
                    std::fprintf(stderr, "eboard-emu: unknown model %s\n", m.c_str());
                    return 2;
                }
            } else if (arg == "--address") usb.address = std::stoi(value());
            else if (arg == "--no-out-endpoint") usb.out_endpoint = 0;
            else if (arg == "--battery") opt.battery.percent = std::stoi(value());
            else if (arg == "--repeat-ms") opt.repeat_ms = std::stoll(value());
            else if (arg == "--noise") opt.noise_probability = std::stod(value());
            else if (arg == "--invalid") opt.invalid_probability = std::stod(value());
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
    if (usb.address < 1 || usb.address > 127) {
        std::fprintf(stderr, "eboard-emu: --address must be 1..127\n");
        return 2;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGPIPE, SIG_IGN);
    try {
        emu::FakeUsbBus bus;
        auto board = std::make_shared<emu::ChessnutEmulator>(opt);
        usb.port = std::to_string(usb.address);
        int id = bus.plug(usb, board);
        std::printf("UMOCKDEV_DIR=%s\n", bus.dir().c_str());
        std::fflush(stdout);
        const pid_t pid = child.empty() ? -1 : spawn(child);
        int status = 0;
        bool forwarded = false;
        StdinLines in;
        while (true) {
            if (g_signal && pid > 0 && !forwarded) ::kill(pid, g_signal);
            forwarded = forwarded || g_signal;
            if (g_signal && pid <= 0) break;
            if (pid > 0 && ::waitpid(pid, &status, WNOHANG) == pid) break;
            in.poll(50, [&](const std::string& line) {
                std::istringstream words(line);
                std::string verb, a, b;
                words >> verb >> a >> b;
                if (board_command(*board, verb, a, b)) return;
                if (verb == "battery" && !a.empty() && a.find_first_not_of("0123456789") == std::string::npos)
                    board->set_battery({std::stoi(a), b == "charging"});
                else if (verb == "unplug") bus.unplug(id);
                else if (verb == "plug") {
                    bus.unplug(id);
                    usb.address = usb.address % 127 + 1;
                    usb.port = std::to_string(usb.address);
                    id = bus.plug(usb, board);
                } else
                    std::fprintf(stderr, "eboard-emu: ? %s\n", line.c_str());
            });
        }
        if (pid > 0) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    } catch (const std::exception& ex) {
        std::fprintf(stderr, "eboard-emu: %s\n", ex.what());
        return 1;
    }
    return 0;
}

} // namespace eboard::tools
