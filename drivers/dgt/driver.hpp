// The DGT serial board driver (dgt.md): start-up, board dump and field updates with
// orientation, serial/version/battery, keep-alive, and the DGT3000 / DGT XL clock driven
// through the board. See drivers/dgt/README.md for the quirks it handles.
#pragma once

#include "drivers/core/driver.hpp"
#include "drivers/core/registry.hpp"
#include "drivers/dgt/clock_queue.hpp"
#include "drivers/dgt/protocol.hpp"

#include <array>
#include <optional>
#include <span>
#include <string>

namespace eboard::drivers::dgt {

/// How the board stands (dgt.md 7).
enum class Orientation : std::uint8_t {
    Normal,   ///< connector (and clock) on white's left: field 0 = a8
    Rotated,  ///< white sits on the connector's right: field f = game square 63 - f
    Auto,     ///< decided from dumps whose home ranks hold only one colour each
};

/// Quirk flags of DGT models (ModelInfo::quirks).
namespace quirk {
inline constexpr std::uint32_t bluetooth = 1u << 0;      ///< half-speed scans; has a battery (4c)
inline constexpr std::uint32_t long_serial = 1u << 1;    ///< answers 55 (Revelation II, BT)
/// DGT Pegasus (dgt.md 18): occupancy only (any non-zero code is "occupied"), authorised with
/// the developer key (`63 07 k1..k6 00`) before it reports.
inline constexpr std::uint32_t pegasus = 1u << 2;
}

struct DgtOptions {
    Orientation orientation = Orientation::Auto;
    std::uint32_t quirks = 0;
    bool update_nice = true;           ///< UPDATE_NICE (4b) rather than UPDATE (43)
    TimeMs startup_delay_ms = 300;     ///< quiet time after open before the first command (15)
    TimeMs version_retry_ms = 2000;    ///< resend 4d until a VERSION arrives (15)
    TimeMs keepalive_ms = 1500;        ///< send 45 after this much silence (15)
    int max_missed_keepalives = 3;     ///< then the board counts as gone; start-up again
    TimeMs clock_probe_ms = 10000;     ///< ask for the clock version again when none answered
    /// quirk::bluetooth: ask the battery (4c, dgt.md 4.1) this often once ready, beside the
    /// start-up's request (a board says it only when asked).
    TimeMs battery_poll_ms = 60000;
    ClockCommandQueue::Options clock;  ///< ACK timeout and retries (11)
    /// The Pegasus developer key (6 bytes, DGT gives it to developers; dgt.md 18), sent as
    /// `63 07 k1..k6 00` before the start-up commands. Empty: none is sent.
    std::vector<std::uint8_t> developer_key;

    /// Reads "orientation" (normal|rotated|auto), "update-mode" (nice = UPDATE_NICE 4b, the
    /// default | update = UPDATE 43, a time report every second, dgt.md 3), "ack-timeout-ms",
    /// "startup-delay-ms", "battery-poll-ms", "developer-key" (12 hex digits).
    [[nodiscard]] static Expected<DgtOptions> from_params(const DriverOptions& o);
};

class DgtDriver final : public Driver, public ClockControl {
  public:
    explicit DgtDriver(const DgtOptions& options = {});

    [[nodiscard]] const drivers::FrameRule& frame_rule() const override { return rule_; }
    [[nodiscard]] std::string_view trace_name() const override { return "dgt"; }
    void start(DriverHost& host, TimeMs now) override;
    void on_packet(std::span<const std::uint8_t> packet, TimeMs now) override;
    void on_resync(TimeMs now) override;
    void on_link_down(TimeMs now) override;
    void on_tick(TimeMs now) override;
    /// The start-up delay, the VERSION retry, the keep-alive (dgt.md 15 step 7: `45` after
    /// keepalive_ms of silence), the clock probe while no clock answered, the clock command's
    /// ACK wait (11), a Bluetooth board's battery poll (4.1); nothing else: the board reports changes and a running clock's times
    /// itself (UPDATE_NICE, dgt.md 3).
    [[nodiscard]] TimeMs next_tick_ms(TimeMs now) const override;
    void request_board_dump() override;
    [[nodiscard]] ClockControl* clock() override { return this; }

    void set_and_run(TimeMs left_ms, TimeMs right_ms, ClockRun run) override;
    void show_text(std::string_view text, bool beep) override;
    void beep(TimeMs duration_ms) override;
    void end_display() override;
    void request_version() override;
    void request_times() override;

    /// The board as last decoded (dumps + field updates), oriented.
    [[nodiscard]] BoardReading board() const;
    /// What a square with piece code `code` holds (occupied-unknown for a Pegasus, 18).
    [[nodiscard]] SquareReading reading(std::uint8_t code) const;
    [[nodiscard]] bool rotated() const noexcept { return rotated_; }
    [[nodiscard]] bool ready() const noexcept { return state_ == State::Ready; }
    [[nodiscard]] ClockModel clock_model() const noexcept { return clock_model_; }

  private:
    enum class State : std::uint8_t { Opening, WaitVersion, Ready };
    void send(std::initializer_list<std::uint8_t> bytes);
    /// Bluetooth boards: asks for the battery (SEND_BATTERY_STATUS) and notes when, for the
    /// next poll every battery-poll-ms.
    void request_battery(TimeMs now);
    void send_clock(std::uint8_t command, std::vector<std::uint8_t> frame);
    void on_board_dump(std::span<const std::uint8_t, 64> codes, TimeMs now);
    void on_field_update(std::uint8_t field, std::uint8_t code, TimeMs now);
    void on_bwtime(std::span<const std::uint8_t, 7> data, TimeMs now);
    void on_clock_ack(const ClockAck& ack, TimeMs now);
    void on_version(int major, int minor, TimeMs now);
    void lost(TimeMs now, const std::string& why);

    DgtOptions opt_;
    FrameRule rule_;
    const TraceChannel& trace_;
    DriverHost* host_ = nullptr;
    State state_ = State::Opening;
    /// Whether packet `p` shows that the board is there (keep-alive, 15): a message a board
    /// sends, valid; not one that noise on the line framed by chance.
    [[nodiscard]] bool proves_alive(std::span<const std::uint8_t> p) const;
    std::string alive_serial_; ///< the serial number the board answered since it was ready
    TimeMs started_at_ = 0, last_rx_ = 0, last_version_request_ = 0, last_ping_ = 0;
    TimeMs last_clock_probe_ = 0, last_battery_request_ = 0;
    int missed_ = 0;
    bool linked_ = false;
    DeviceInfo info_;
    std::array<std::uint8_t, 64> codes_{};  // shadow board in field numbering (python-asyncdgt)
    bool rotated_ = false;
    bool reported_rotated_ = false; ///< the orientation the host was told (BoardOrientation)
    bool have_dump_ = false;
    ClockModel clock_model_ = ClockModel::None;
    bool clock_probe_pending_ = false;
    std::optional<ClockSide> last_lever_;
    std::optional<ClockReport> last_report_;  ///< the last time report, for whose time went down
    std::optional<bool> last_connected_;
    ClockCommandQueue clock_queue_;
};

} // namespace eboard::drivers::dgt
