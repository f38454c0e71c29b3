// LineEmulator: the emulated Certabo or Sentio board (LineBoardEmu) served on a pseudo-terminal
// (PtyService), for eboard-emu and the tests. Every public method is thread-safe. Open
// pty_slave_path() with the "certabo" or "sentio" driver; disconnect() makes the device vanish
// as on a USB unplug.
#pragma once

#include "drivers/emu/line_board_emu.hpp"
#include "drivers/emu/pty_service.hpp"

#include <functional>
#include <string>

namespace eboard::drivers::emu {

class LineEmulator {
  public:
    /// Opens the pty and starts streaming. Throws std::runtime_error if no pty can be opened.
    explicit LineEmulator(const LineEmulatorOptions& options = {});
    LineEmulator(const LineEmulator&) = delete;
    LineEmulator& operator=(const LineEmulator&) = delete;

    [[nodiscard]] std::string pty_slave_path() const { return pty_.slave_path(); }
    /// A symlink to the current pty that stays valid across unplug() and replug().
    [[nodiscard]] const std::string& device_path() const { return pty_.device_path(); }
    /// The pty service: add_link() puts the same board behind another node (a umockdev tty).
    [[nodiscard]] PtyService& service() { return pty_; }

    // The simulated player; squares in game numbering (a1=0 .. h8=63).
    void lift(Square s);
    void place(Square s, Piece p);
    /// Lift `from`, (lift the victim on `to`,) place the piece on `to`.
    void move(Square from, Square to);
    void set_position(const BoardReading& b);
    /// The start position plus spare queens on d3 and d6, for calibration (3.1).
    void set_calibration_position();
    /// The next frame reads `s` the other way (a bounce caught by one frame, LineBoardEmu).
    void bounce_next_frame(Square s);
    /// The next frame stops after `keep` bytes; nothing more until replug() (LineBoardEmu).
    void cut_next_frame(std::size_t keep);

    [[nodiscard]] BoardReading position() const;
    [[nodiscard]] Bitboard leds() const;
    [[nodiscard]] int led_commands() const;
    [[nodiscard]] int frames_sent() const;
    [[nodiscard]] std::vector<std::uint8_t> received() const;
    [[nodiscard]] certabo::Calibration full_calibration() const;

    /// Waits until `pred(model)` holds (checked after every service step) or `timeout_ms`
    /// passed; returns whether it holds.
    bool wait_until(const std::function<bool(const LineBoardEmu&)>& pred, int timeout_ms);

    /// Closes the pty master (the client sees the device vanish) and stops the thread.
    void disconnect() { pty_.disconnect(); }
    /// The USB cable is pulled: the pty closes, the board has no power.
    void unplug() { pty_.unplug(); }
    /// Plugged in again behind device_path(): frames start again.
    void replug() { pty_.replug(); }

  private:
    LineBoardEmu model_;  // before pty_: the service thread uses it
    PtyService pty_;
};

} // namespace eboard::drivers::emu
