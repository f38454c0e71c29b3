// MillenniumEmulator: the emulated Millennium ChessLink board (MillenniumBoardEmu) served on a
// pseudo-terminal by a PtyService, for eboard-emu and the tests. Every public method is
// thread-safe. Open device_path() (a link that survives unplug()/replug()) or
// pty_slave_path() with the "millennium" driver.
#pragma once

#include "drivers/core/session.hpp"
#include "drivers/emu/millennium_emu.hpp"
#include "drivers/emu/pty_service.hpp"

#include <functional>
#include <string>

namespace eboard::drivers::emu {

class MillenniumEmulator {
  public:
    /// Opens the pty and starts serving. Throws std::runtime_error if no pty can be opened.
    explicit MillenniumEmulator(MillenniumEmulatorOptions options = {});
    ~MillenniumEmulator();
    MillenniumEmulator(const MillenniumEmulator&) = delete;
    MillenniumEmulator& operator=(const MillenniumEmulator&) = delete;

    [[nodiscard]] std::string pty_slave_path() const { return service_.slave_path(); }
    [[nodiscard]] const std::string& device_path() const { return service_.device_path(); }
    [[nodiscard]] PtyService& service() { return service_; }

    // The simulated player; squares in game numbering (a1=0 .. h8=63).
    void lift(Square s);
    void place(Square s, Piece p);
    void set_position(const BoardState& b);
    /// Lift `from`, (lift the victim on `to`,) place the piece on `to`: one plain move by hand.
    void move(Square from, Square to);
    /// The next status report stops after `keep` bytes (see MillenniumBoardEmu).
    void cut_next_report(std::size_t keep);

    [[nodiscard]] BoardState position() const;
    /// A copy of the model (E2ROM, LEDs, counters, commands received).
    [[nodiscard]] MillenniumBoardEmu snapshot() const;
    /// Waits until `pred(model)` holds (checked after every service step) or `timeout_ms` passed.
    bool wait_until(const std::function<bool(const MillenniumBoardEmu&)>& pred, int timeout_ms);

    void unplug() { service_.unplug(); }
    void replug() { service_.replug(); }

  private:
    template <typename F>
    void act(F&& f) {
        {
            const std::lock_guard lock(service_.mutex());
            f(model_, steady_now_ms());
        }
        service_.wake();
    }

    MillenniumBoardEmu model_;
    PtyService service_; // last: its thread stops before the model goes
};

} // namespace eboard::drivers::emu
