// The DGT3000 / DGT XL clock as the DGT board relays it (dgt.md 10-13): times counting down
// for the running side, lever, flags, buttons, text, beep, version, and the ACK each clock
// command earns. Pure state machine; time is passed in.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/events.hpp"
#include "drivers/dgt/protocol.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace eboard::drivers::emu {

struct ClockEmuOptions {
    bool connected = true;                      ///< false: BWTIME says "no clock" (bit 5)
    ClockModel model = ClockModel::Dgt3000;     ///< DGT3000 answers version 2.0, XL 1.2
    bool mode23 = true;                         ///< SETNRUN only works in mode 23 (11)
    TimeMs left_ms = 5 * 60 * 1000, right_ms = 5 * 60 * 1000;
    /// The lever's side that is up at power-on: White's, so that his first press counts
    /// (Left: White plays on the left).
    ClockSide lever_high = ClockSide::Left;
    /// Fischer increment added to the presser's time at his press while his clock runs, as a
    /// real DGT3000 does: the report that shows the press shows it (ply 1 of a real 3+2 game:
    /// 2:59 before the press, 3:01 after).
    TimeMs increment_ms = 0;
};

/// What the clock shows and did, for tests.
struct ClockEmuState {
    ClockReport times;          ///< t_ms unused
    ClockRun run = ClockRun::None;
    std::string text;          ///< current text (DGT3000 ASCII or XL segments decoded), "" = times
    int beeps = 0;             ///< beeps requested (BEEP, or text with beep)
    int commands = 0;          ///< clock commands received
    std::vector<std::uint8_t> last_command;  ///< last clock frame received
};

class ClockEmu {
  public:
    explicit ClockEmu(ClockEmuOptions o = {});

    /// Advances the running side's time to `now` (flag at zero).
    void advance(TimeMs now);
    /// A complete `2b` frame from the host; returns the ACK to send (nullopt: none, e.g. no
    /// clock or an XL receiving ASCII).
    [[nodiscard]] std::optional<dgt::ClockAck> command(std::span<const std::uint8_t> frame);
    /// The player on `side` presses the lever down (move completed): the other side runs; the
    /// increment is added to `side`'s time if his clock was the one running.
    void press_lever(ClockSide side);
    /// Button 0..4 (left to right): the auto-ACK the clock sends (section 13).
    [[nodiscard]] std::optional<dgt::ClockAck> press_button(int button);
    void set_connected(bool connected);
    /// The 10-byte BWTIME time report for the current state.
    [[nodiscard]] std::array<std::uint8_t, 10> time_report() const;
    [[nodiscard]] const ClockEmuState& state() const { return st_; }
    [[nodiscard]] bool connected() const { return opt_.connected; }

  private:
    ClockEmuOptions opt_;
    ClockEmuState st_;
    TimeMs last_ = -1;
};

} // namespace eboard::drivers::emu
