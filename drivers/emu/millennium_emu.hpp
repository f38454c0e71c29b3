// A wire-level Millennium ChessLink board as a pure state machine: bytes from the host go in
// with the current time, reply chunks come out. It follows the emulator checklist of
// docs/protocols/millennium.md section 9: odd parity on every byte (optionally never
// set, as some eONE firmware), the block check on every message, commands with a bad parity
// bit or block check ignored without a reply, status reports per E2ROM 02 (every scan at
// 40.96 ms by default, on change, timed, debounced) that may come between a command and its
// acknowledgement, both square orders, `T` (silence, then reports restart with LEDs off),
// LEDs, and an E2ROM that outlives the emulator when copied into the next one.
// MillenniumEmulator (millennium_emulator.hpp) serves it on a pty.
#pragma once

#include "drivers/core/board_state.hpp"
#include "drivers/core/events.hpp"
#include "drivers/emu/pty_service.hpp"
#include "drivers/emu/replay.hpp"
#include "drivers/millennium/protocol.hpp"

#include <array>
#include <deque>
#include <random>
#include <string>
#include <vector>

namespace eboard::drivers::emu {

/// The E2ROM of a new board: everything 0 except the scan time (20 x 2.048 ms, 7).
[[nodiscard]] std::array<std::uint8_t, 256> default_millennium_e2rom();

struct MillenniumEmulatorOptions {
    BoardReading position = BoardReading::start_position();               ///< what stands on the board
    millennium::SquareOrder order = millennium::SquareOrder::H1First; ///< how it reports (5)
    int version_major = 1, version_minor = 3; ///< "v010374": the reply in python-mchess's BLE log
    bool parity_bit = true;                   ///< false: bit 7 never set (eONE firmware, 2)
    bool check_host_parity = true; ///< ignore commands whose bytes have a wrong parity bit (2)
    bool acknowledge = true;       ///< false: `L` and `X` get no reply (Performance boards, 4)
    std::array<std::uint8_t, 256> e2rom = default_millennium_e2rom(); ///< (7)
    bool instant_scan = false;    ///< tests: scan at once after every player action, not every
                                  ///< E2ROM 01 period (the report rules stay the same)
    TimeMs reset_ms = 3000;       ///< `T`: silence before the board runs again (4)
    TimeMs reply_latency_ms = 0;  ///< replies come this late; reports go out meanwhile (3)
    double noise_probability = 0; ///< before a message: garbage, a cut report, a bad parity
                                  ///< bit, or the message itself damaged (bad block check)
    unsigned seed = 1;            ///< for the noise and fragmentation
    std::size_t fragment_max = 0; ///< > 0: MillenniumEmulator writes in 1..N byte pieces
    std::vector<RecordedExchange> replay; ///< answer only with these recorded replies (a
                                          ///< trace log), in their order; no reports of its own
};

class MillenniumBoardEmu final : public WireModel {
  public:
    explicit MillenniumBoardEmu(MillenniumEmulatorOptions options = {});

    /// Bytes the host wrote, at time `now`.
    void receive(std::span<const std::uint8_t> bytes, TimeMs now) override;
    /// Runs scans, reports and delayed replies up to `now`.
    void tick(TimeMs now) override;
    /// The next of: the end of a `T` reset, a late reply, the next scan (each scan counts for
    /// the debounce and timed reports, so scans are never skipped; none with instant_scan).
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    /// Reply chunks produced so far (each a message, or a recorded chunk); clears them.
    [[nodiscard]] std::vector<std::vector<std::uint8_t>> take_output() override;
    /// Power returns (after an unplug): no partial command or pending reply, LEDs off, reports
    /// start again; pieces and E2ROM stay.
    void power_on(TimeMs now) override;

    // The simulated player (squares in game numbering; the board converts with its order).
    void lift(Square s, TimeMs now);
    void place(Square s, Piece p, TimeMs now);
    void set_position(const BoardReading& b, TimeMs now);

    [[nodiscard]] const BoardReading& position() const { return board_; }
    [[nodiscard]] const std::array<std::uint8_t, 256>& e2rom() const { return opt_.e2rom; }
    [[nodiscard]] const std::array<std::uint8_t, millennium::led_count>& leds() const {
        return leds_;
    }
    [[nodiscard]] std::uint8_t led_slot_time() const { return slot_time_; }
    [[nodiscard]] int e2rom_writes() const { return e2rom_writes_; }
    /// Commands dropped for a bad parity bit, block check or payload (no reply, 2).
    [[nodiscard]] int commands_ignored() const { return ignored_; }
    [[nodiscard]] int status_reports() const { return reports_; }
    [[nodiscard]] const std::vector<std::uint8_t>& received() const { return received_; }
    /// Every command the board accepted, as text without its check ("V", "R02", "L20...").
    [[nodiscard]] const std::vector<std::string>& commands() const { return commands_; }
    /// The next status report is cut after `keep` bytes; the rest never comes (tests: a
    /// disconnect in the middle of a message).
    void cut_next_report(std::size_t keep) { cut_at_ = keep; }

  private:
    void command(const std::string& text, std::span<const std::uint8_t> raw, TimeMs now);
    void reply(const std::string& message, TimeMs now);
    void emit(const std::string& message);
    void emit_raw(std::vector<std::uint8_t> chunk);
    [[nodiscard]] std::vector<std::uint8_t> wire(const std::string& message) const;
    void maybe_noise(std::vector<std::uint8_t>& message);
    void scan(TimeMs now);
    void report();
    bool replay(std::span<const std::uint8_t> raw);
    [[nodiscard]] TimeMs scan_period_us() const;
    [[nodiscard]] bool running(TimeMs now) const { return now >= reset_until_; }

    MillenniumEmulatorOptions opt_;
    BoardReading board_;    // physical position, game numbering
    BoardReading scanned_;  // what the last scan saw
    BoardReading reported_; // what the last report said
    bool has_reported_ = false;
    int stable_scans_ = 0;
    std::array<std::uint8_t, millennium::led_count> leds_{};
    std::uint8_t slot_time_ = 0;
    std::vector<std::uint8_t> in_;
    std::vector<std::uint8_t> received_;
    std::vector<std::string> commands_;
    std::vector<std::vector<std::uint8_t>> out_;
    struct Pending {
        TimeMs due;
        std::string message;
    };
    std::deque<Pending> replies_;
    std::mt19937 rng_;
    TimeMs next_scan_us_ = 0, last_timed_report_ = 0, reset_until_ = 0;
    int e2rom_writes_ = 0, ignored_ = 0, reports_ = 0;
    std::size_t cut_at_ = 0;
    std::size_t replay_next_ = 0; // first recorded exchange not played yet
};

} // namespace eboard::drivers::emu
