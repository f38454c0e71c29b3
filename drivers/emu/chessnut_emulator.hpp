// ChessnutEmulator: the emulated Chessnut board (ChessnutBoardEmu) as a thread-safe USB HID
// device (UsbReportDevice). Serve it to a driver
//   - through libusb: FakeUsbBus::plug(description, emulator) under umockdev
//     (drivers/emu/umockdev/fake_usb.hpp; eboard-emu's `chessnut` mode), or
//   - in process: a ReportLoopback transport (usb_device.hpp), no libusb.
// The player's side (lift, place, move, ...) is called from any thread.
#pragma once

#include "drivers/emu/chessnut_emu.hpp"
#include "drivers/emu/usb_device.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace eboard::drivers::emu {

class ChessnutEmulator final : public UsbReportDevice {
  public:
    explicit ChessnutEmulator(ChessnutEmulatorOptions options = {});

    // UsbReportDevice (the wire).
    void out_report(std::span<const std::uint8_t> report, TimeMs now) override;
    [[nodiscard]] std::optional<std::vector<std::uint8_t>> in_report(TimeMs now) override;
    void wait_for_activity(int timeout_ms) override;
    void power_on(TimeMs now) override;

    // The simulated player; squares in game numbering.
    void lift(Square s);
    void place(Square s, Piece p);
    /// Lift `from`, (lift the victim on `to`,) place the piece on `to`.
    void move(Square from, Square to);
    void set_position(const BoardReading& b);
    void set_battery(chessnut::Battery b);

    [[nodiscard]] BoardReading position() const;
    [[nodiscard]] ChessnutMode mode() const;
    [[nodiscard]] Bitboard leds() const;
    [[nodiscard]] int beeps() const;
    [[nodiscard]] std::vector<std::vector<std::uint8_t>> commands() const;
    [[nodiscard]] int spacing_violations() const;

    /// Waits until `pred(model)` holds or `timeout_ms` passed (checked after every host report
    /// and every report taken); returns whether it holds. For tests: a condition, not a sleep.
    bool wait_until(const std::function<bool(const ChessnutBoardEmu&)>& pred, int timeout_ms);

  private:
    template <typename F>
    void act(F&& f);

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    ChessnutBoardEmu model_;
    std::deque<std::vector<std::uint8_t>> pending_;
};

} // namespace eboard::drivers::emu
