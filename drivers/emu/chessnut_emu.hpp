// A wire-level Chessnut board (chessnut.md) as a pure state machine: host output reports go in
// with the current time, input reports come out. It answers every command of section 3 as the
// document describes (section 10's checklist): silent until realtime mode, a position report
// on every change in realtime mode (and, optionally, repeated ones), LEDs and beeps stored,
// MCU/BLE versions, battery in either encoding (optionally unsolicited), stored-game count and
// the upload-mode file download, reports padded to the HID report size, writes closer than
// 200 ms tolerated but counted, invalid nibbles and garbled reports on request, and replay of a
// recorded `--trace chessnut` conversation. ChessnutEmulator (chessnut_emulator.hpp) serves it
// to a transport.
#pragma once

#include "drivers/chessnut/protocol.hpp"
#include "drivers/core/board_state.hpp"
#include "drivers/emu/replay.hpp"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace eboard::drivers::emu {

struct ChessnutEmulatorOptions {
    BoardReading position = BoardReading::start_position();  ///< what stands on the board (game squares)
    bool rotated = false;        ///< pieces set up with white at the board's far side (section 7)
    std::string mcu_version = "CN_DVT9_210659";  ///< section 3's examples
    std::string ble_version = "CNCA100_V201";
    chessnut::Battery battery{88, false};
    bool battery_bit7 = false;   ///< official encoding (charging in bit 7); else picochess's
    TimeMs battery_report_ms = 0;  ///< > 0: unsolicited battery reports this often (section 6)
    TimeMs repeat_ms = 0;        ///< > 0: the position is sent again this often in realtime mode
    std::size_t report_size = 64;  ///< input reports are padded with zeros to this; 0 = exact
    std::vector<BoardReading> stored_games;  ///< positions sent by the upload-mode file download
    double invalid_probability = 0;  ///< a report with an invalid nibble (13..15) before a real one
    double noise_probability = 0;    ///< a garbage or cut-short report before a real one
    unsigned seed = 1;
    TimeMs min_write_spacing_ms = chessnut::min_write_spacing_ms;  ///< closer writes are counted
    /// Answer host reports with these recorded reports (parse_trace_log of a `--trace
    /// chessnut` log), verbatim; a command the recording does not answer gets no answer.
    std::vector<RecordedExchange> replay;
};

/// What the board is doing (section 3).
enum class ChessnutMode : std::uint8_t { Idle, Realtime, Upload };

class ChessnutBoardEmu {
  public:
    explicit ChessnutBoardEmu(ChessnutEmulatorOptions options = {});

    /// The board is powered (plugged in): idle, nothing queued, LEDs off.
    void power_on(TimeMs now);
    /// One output report from the host at `now`.
    void receive(std::span<const std::uint8_t> report, TimeMs now);
    /// Runs the timers (repeats, unsolicited battery) up to `now`.
    void tick(TimeMs now);
    /// Input reports produced so far, in order; clears them.
    [[nodiscard]] std::vector<std::vector<std::uint8_t>> take_output();

    // The simulated player; squares in game numbering.
    void lift(Square s, TimeMs now);
    void place(Square s, Piece p, TimeMs now);
    void set_position(const BoardReading& b, TimeMs now);
    void set_battery(chessnut::Battery b) { opt_.battery = b; }

    [[nodiscard]] const BoardReading& position() const { return board_; }
    [[nodiscard]] ChessnutMode mode() const { return mode_; }
    /// Lit LEDs in game squares (as the board's owner sees them).
    [[nodiscard]] Bitboard leds() const { return leds_; }
    [[nodiscard]] int beeps() const { return beeps_; }
    /// Frequency (Hz) and duration (ms) of the last beep.
    [[nodiscard]] std::pair<int, int> last_beep() const { return last_beep_; }
    /// Every host report so far (as received, padding included).
    [[nodiscard]] const std::vector<std::vector<std::uint8_t>>& commands() const { return commands_; }
    /// Host writes that came sooner than min_write_spacing_ms after the previous one.
    [[nodiscard]] int spacing_violations() const { return spacing_violations_; }
    /// Host reports the board did not understand.
    [[nodiscard]] int unknown_commands() const { return unknown_; }
    /// Position reports sent.
    [[nodiscard]] int position_reports() const { return position_reports_; }

  private:
    void send(std::span<const std::uint8_t> report);
    void send_position();
    void maybe_bad_report();
    void command(std::span<const std::uint8_t> c, TimeMs now);
    bool replay(std::span<const std::uint8_t> c);

    ChessnutEmulatorOptions opt_;
    BoardReading board_;
    ChessnutMode mode_ = ChessnutMode::Idle;
    Bitboard leds_ = 0;
    int beeps_ = 0;
    std::pair<int, int> last_beep_{0, 0};
    std::vector<std::vector<std::uint8_t>> out_;
    std::vector<std::vector<std::uint8_t>> commands_;
    std::optional<TimeMs> last_command_;
    int spacing_violations_ = 0, unknown_ = 0, position_reports_ = 0;
    TimeMs next_repeat_ = 0, next_battery_ = 0;
    std::mt19937 rng_;
    std::vector<bool> replay_used_;
};

} // namespace eboard::drivers::emu
