// Helpers for the libserialport tests: a fake USB serial port (FakeTty) whose node leads to
// an emulator's pty, a session opened by URI the way the daemon opens one, and a game played
// on an emulator with the driver following every move. Run under umockdev-wrapper.
#pragma once

#include "drivers/emu/pty_service.hpp"
#include "drivers/emu/umockdev/fake_tty.hpp"
#include "tests/drivers/harness.hpp"
#include "tests/drivers/pgn_moves.hpp"

#include <sys/ioctl.h>

namespace eboard::drivers::test {

/// A fake USB serial port whose node leads to an emulator's pty.
struct FakePort {
    emu::FakeTty tty;
    explicit FakePort(emu::FakeTtyDescription d) : tty(std::move(d)) {
        INFO("run this test under umockdev-wrapper (ctest does): libserialport would see the real "
             "/dev");
        REQUIRE(tty.usable());
    }
    /// The emulator behind it.
    void attach(emu::PtyService& pty) { pty.add_link(tty.node()); }
    [[nodiscard]] bool dtr() const { return (tty.modem_bits() & TIOCM_DTR) != 0; }
    [[nodiscard]] bool rts() const { return (tty.modem_bits() & TIOCM_RTS) != 0; }
    /// True if the program explicitly cleared `bit` (TIOCMBIC, or TIOCMSET without it).
    [[nodiscard]] bool cleared(int bit) const {
        for (const auto& r : tty.modem_requests())
            if ((r.request == TIOCMBIC && (r.bits & bit)) ||
                (r.request == TIOCMSET && !(r.bits & bit)))
                return true;
        return false;
    }
};

/// A session opened the way the daemon opens one: by URI, through the registry.
struct UriSession : SessionHarness {
    UriSession(const std::string& uri, DriverOptions options, ReconnectPolicy reconnect = {}) {
        if (const char* t = std::getenv("EBOARD_TRACE")) (void)enable_traces(t);
        auto s = open_device(
            uri, [this](const DriverEvent& e) { events.push_back(e); }, std::move(options),
            steady_now_ms, reconnect);
        INFO(uri << ": " << (s ? "" : s.error().message));
        REQUIRE(s.has_value());
        session = std::move(s.value());
        session->start();
    }
    template <typename D>
    D& driver() {
        return dynamic_cast<D&>(session->driver());
    }
};

/// Plays `g` on `emu`; the driver's board must follow every move.
template <typename Emulator, typename Board>
void play(SessionHarness& h, Emulator& e, const PgnGame& g, Board&& board) {
    const auto boards = game_boards(g);
    REQUIRE(boards.size() == g.san.size() + 1);
    for (std::size_t i = 1; i < boards.size(); ++i) {
        INFO("move " << i << " " << g.san[i - 1]);
        play_on_board(e, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return board() == boards[i]; }));
    }
}

inline PgnGame first_game(const char* file) {
    return read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/" + file, 1).at(0);
}

} // namespace eboard::drivers::test
