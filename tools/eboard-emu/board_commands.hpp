// What eboard-emu's modes share: the player's stdin commands every board understands
// ("lift e2", "place e4 P", "move e2 e4", "fen <placement>") and a line reader for stdin.
#pragma once

#include "base/placement.hpp"
#include "drivers/core/board_state.hpp"

#include <functional>
#include <poll.h>
#include <sstream>
#include <string>
#include <unistd.h>

namespace eboard::tools {

/// Runs one of the common player commands on `e` (anything with lift, place, move and
/// set_position); false if `verb` is not one of them or its arguments are bad.
template <typename Emulator>
bool board_command(Emulator& e, const std::string& verb, const std::string& a, const std::string& b) {
    if (verb == "lift" && Square::parse(a).valid()) e.lift(Square::parse(a));
    else if (verb == "place" && Square::parse(a).valid() && b.size() == 1 && piece_from_char(b[0]) != Piece::None)
        e.place(Square::parse(a), piece_from_char(b[0]));
    else if (verb == "move" && Square::parse(a).valid() && Square::parse(b).valid())
        e.move(Square::parse(a), Square::parse(b));
    else if (verb == "fen") {
        auto board = read_placement(a, true);
        if (!board) return false;
        e.set_position(board.value());
    } else
        return false;
    return true;
}

/// Lines from stdin, read without blocking longer than asked.
class StdinLines {
  public:
    /// Waits up to `timeout_ms` for input and calls `on_line` for every complete line. Once
    /// stdin is closed it only waits (the emulator keeps serving until a signal ends it).
    void poll(int timeout_ms, const std::function<void(const std::string&)>& on_line) {
        pollfd p{0, POLLIN, 0};
        if (::poll(&p, open_ ? 1 : 0, timeout_ms) <= 0 || !(p.revents & (POLLIN | POLLHUP))) return;
        char buf[256];
        const ssize_t n = ::read(0, buf, sizeof buf);
        if (n <= 0) {
            open_ = false;
            return;
        }
        pending_.append(buf, static_cast<std::size_t>(n));
        for (auto nl = pending_.find('\n'); nl != std::string::npos; nl = pending_.find('\n')) {
            const std::string line = pending_.substr(0, nl);
            pending_.erase(0, nl + 1);
            if (!line.empty()) on_line(line);
        }
    }

  private:
    bool open_ = true;
    std::string pending_;
};

} // namespace eboard::tools
