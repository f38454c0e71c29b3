// A wire-level DGT board (with its DGT3000/XL clock) as a pure state machine: bytes from the
// host go in with the current time, reply chunks come out. It answers the commands of
// dgt.md section 3 as that document says (checklist: section 20) and turns a simulated
// player's lifts and places into FIELD_UPDATEs with real scan dynamics (section 8).
// DgtEmulator (dgt_emulator.hpp) runs it behind a pty; tests can also drive it directly.
#pragma once

#include "drivers/core/board_state.hpp"
#include "drivers/emu/clock_emu.hpp"
#include "drivers/emu/pty_service.hpp"
#include "drivers/emu/replay.hpp"

#include <deque>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace eboard::drivers::emu {

struct DgtEmulatorOptions {
    BoardReading position = BoardReading::start_position();  ///< what stands on the board
    bool rotated = false;              ///< white sits on the connector's right (dgt.md 7)
    std::string serial = "25805";      ///< 5 digits (record.txt's board)
    int version_major = 3, version_minor = 1;
    std::string long_serial = "3.36012345";
    std::string trademark = "DGT Projects - This DGT board is produced by DGT Projects.";
    std::optional<int> battery_percent;  ///< answer 4c (Bluetooth boards) when set
    bool battery_charging = false;       ///< BATTERY_STATUS status bit 0 (else bit 1, discharging)
    bool start_in_bus_mode = true;     ///< power-up state (dgt.md 2, 16)
    /// DGT Pegasus (dgt.md 18): the board senses occupancy only and reports an occupied
    /// square as code 01 in dumps and field updates.
    bool occupancy_only = false;
    /// DGT Pegasus (dgt.md 18): when set, the board ignores every command until the host sent
    /// `63 07 k1..k6 00` with this key (after power-up).
    std::optional<std::array<std::uint8_t, 6>> developer_key;

    // Scan dynamics (dgt.md 8).
    TimeMs scan_period_ms = 0;         ///< 0: report every change at once; else one scan per period,
                                       ///< changed fields reported in field order (a8..h1)
    double bounce_probability = 0;     ///< a placed piece is reported, then empty, then again
    double noise_probability = 0;      ///< garbage bytes / a bad header before a message
    unsigned seed = 1;                 ///< for the probabilities above and fragmentation

    // Clock.
    ClockEmuOptions clock;
    TimeMs ack_latency_ms = 0;         ///< ACKs arrive this long after the command (0.1-2 s real)
    int drop_acks = 0;                 ///< this many clock ACKs are lost (tests the retries)

    std::size_t input_buffer = 0;      ///< > 0: bytes beyond this in one burst are dropped (dgt.md 1)
    std::size_t fragment_max = 0;      ///< > 0: DgtEmulator writes replies in 1..N byte pieces
    std::vector<RecordedExchange> replay;  ///< answer with these recorded replies (record.txt)
};

/// The board's mode (dgt.md 2).
enum class BoardMode : std::uint8_t { Bus, Idle, UpdateBoard, Update, UpdateNice };

class DgtBoardEmu final : public WireModel {
  public:
    explicit DgtBoardEmu(DgtEmulatorOptions options = {});

    /// Bytes the host wrote, at time `now`.
    void receive(std::span<const std::uint8_t> bytes, TimeMs now) override;
    /// Runs scans, the clock and delayed ACKs up to `now`.
    void tick(TimeMs now) override;
    /// The next of: a delayed ACK, a scan with a change to report (scans of an unchanged board
    /// say nothing and are skipped, keeping their phase), BWTIME (UPDATE: a second after the
    /// last; UPDATE_NICE: when the running side's seconds change); kNoTick when none applies.
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    /// Reply chunks produced so far (each a message, or a recorded chunk); clears them.
    [[nodiscard]] std::vector<std::vector<std::uint8_t>> take_output() override;

    // The simulated player (squares in game numbering; the board converts with `rotated`).
    void lift(Square s, TimeMs now);
    void place(Square s, Piece p, TimeMs now);
    void set_position(const BoardReading& b, TimeMs now);
    void press_lever(ClockSide side, TimeMs now);
    void press_button(int button, TimeMs now);
    void set_clock_connected(bool connected, TimeMs now);
    void set_drop_acks(int n) { opt_.drop_acks = n; }
    /// What the next 4c answers (none: no answer, a board without a battery).
    void set_battery(std::optional<int> percent, bool charging) {
        opt_.battery_percent = percent;
        opt_.battery_charging = charging;
    }
    /// Power comes back after an unplug: the power-up mode (dgt.md 2), no partial command, no
    /// pending ACK, the scan memory re-read; the pieces and the clock (own battery) stay.
    void power_on(TimeMs now) override;

    [[nodiscard]] const BoardReading& position() const { return board_; }
    [[nodiscard]] BoardMode mode() const { return mode_; }
    [[nodiscard]] const ClockEmu& clock() const { return clock_; }
    [[nodiscard]] const std::vector<std::uint8_t>& received() const { return received_; }
    [[nodiscard]] int acks_dropped() const { return acks_dropped_; }
    [[nodiscard]] int error_acks_sent() const { return error_acks_; }

  private:
    /// The 64 codes the board reports for what stands on it (01 for any piece when occupancy_only).
    [[nodiscard]] std::array<std::uint8_t, 64> wire_codes() const;
    /// The code reported for `p` on a square.
    [[nodiscard]] std::uint8_t wire_code(Piece p) const;
    void command(std::uint8_t c, std::span<const std::uint8_t> frame, TimeMs now);
    void emit(std::vector<std::uint8_t> message);
    void emit_raw(std::vector<std::uint8_t> chunk);
    void maybe_noise();
    void report_field(int field, std::uint8_t code);
    void scan(TimeMs now);
    void keep_scan_phase(TimeMs now);
    [[nodiscard]] bool scan_pending() const;
    void send_ack(const dgt::ClockAck& ack);
    bool replay(std::uint8_t c);
    [[nodiscard]] bool update_mode() const;
    [[nodiscard]] std::size_t frame_size(std::span<const std::uint8_t> in) const;

    DgtEmulatorOptions opt_;
    BoardReading board_;                       // physical position, game numbering
    std::array<std::uint8_t, 64> reported_{};  // what the host was last told, field numbering
    BoardMode mode_;
    bool authorised_ = false;  ///< the developer key arrived (developer_key)
    ClockEmu clock_;
    std::vector<std::uint8_t> in_;           // partial host command
    std::vector<std::uint8_t> received_;     // every host byte, for tests
    std::vector<std::vector<std::uint8_t>> out_;
    std::mt19937 rng_;
    TimeMs next_scan_ = 0, last_bwtime_ = 0;
    std::array<std::uint8_t, 10> last_report_{};
    struct PendingAck { TimeMs due; dgt::ClockAck ack; };
    std::deque<PendingAck> acks_;
    int acks_dropped_ = 0, error_acks_ = 0;
    std::vector<bool> replay_used_;  // recorded exchanges already answered
};

} // namespace eboard::drivers::emu
