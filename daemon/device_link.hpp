// A board's device pipeline: driver (drivers/core DeviceSession over its transport, read on
// a device thread) -> Reconstructor (one per board, on the event loop's thread) -> the
// BoardSession (game, store, PGN, events). Driver events cross to the loop with asio::post;
// driver commands (clock) cross back through a queue the device thread runs between polls.
//
// Unplug and replug: the driver session reports LinkStatus false/true (BOARD events); the
// reconstruction keeps its game and takes the board's fresh dump as it takes any reading, so
// the board's position is checked against the game when it is back (a legal move made while
// it was away is made; anything else is a position_mismatch). While the board is away the
// reconstruction's timers stand still.
//
// Timers, event-driven: the device thread sleeps until input, a queued command (wake()) or the
// driver's next timer (drivers/core/session.hpp); the reconstruction's timers are one slot of
// the daemon's shared Deadlines, set to Reconstructor::next_deadline() after each input. An
// idle board costs no wake-up on either side.
#pragma once

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "daemon/board_link.hpp"
#include "daemon/board_settings.hpp"
#include "daemon/board_session.hpp"
#include "daemon/config.hpp"
#include "daemon/deadlines.hpp"
#include "drivers/core/driver.hpp"
#include "drivers/core/events.hpp"
#include "drivers/core/session.hpp"
#include "rules/reconstruction.hpp"

namespace eboard::daemon {

class DeviceLink final : public BoardLink {
  public:
    /// The board's reconstruction timers run on `deadlines` (one timer for all boards).
    DeviceLink(boost::asio::io_context& io, Deadlines& deadlines, BoardSession& session, const Config& config);
    ~DeviceLink() override;

    void start() override;
    void stop() override;
    void request_stop() override;
    void join() override;
    void open_after(std::shared_future<void> closed) override { previous_closed_ = std::move(closed); }
    [[nodiscard]] Expected<bool> set_clock(std::int64_t white_ms, std::int64_t black_ms) override;
    [[nodiscard]] Expected<std::string> penalty(bool apply) override;
    void restart_game() override;

    /// Opens the board's driver session (default: drivers::open_device of the board's URI);
    /// set before start(). Called on the device thread.
    using Opener = std::function<Expected<std::unique_ptr<drivers::DeviceSession>>(
        drivers::DeviceSession::EventSink)>;
    void set_opener(Opener opener) { opener_ = std::move(opener); }
    /// Called (on the loop's thread) with what the driver learnt (board_settings.hpp).
    void on_learned(std::function<void(const BoardSettings&)> f) { on_learned_ = std::move(f); }

  private:
    void device_thread();
    /// open_after(): until the previous link closed the device, stop() or the bound.
    void wait_for_previous_link();
    void on_driver_event(const drivers::DriverEvent& e);
    void on_clock_times(const drivers::ClockTimes& t);
    void feed(const SensorEvent& e);
    /// The clock's first time report since the daemon started or the board came back, once
    /// the board was read: a press made meanwhile completes the move it was for
    /// (Reconstructor::lever_seen).
    void lever_first_seen(const drivers::ClockTimes& t);
    void handle(const ReconEvent& e);
    void handle_move(const eboard::MoveEvent& m, std::int64_t now);
    void handle_alert(const eboard::AlertEvent& a, std::int64_t now);
    /// A reconstruction timer is due (Deadlines): a Tick at `now` (steady ms).
    void on_deadline(std::int64_t now);
    /// The deadline set to the reconstruction's next timer (none when none runs).
    void arm_deadline();
    /// The first reading since the daemon started, no game: a board that shows the start
    /// position with White's first move made begins the game with it (see first_reading_).
    void begin_with_first_move(const BoardSnapshot& snap);
    /// `--white-side auto`: the side found for the game is kept with it (the store), so that
    /// a resumed game (a restart, kill -9) reads the lever as before; a game that has none yet
    /// learns its own, the side found earlier standing in meanwhile.
    void keep_white_side();
    /// `--white-side auto`: White plays on `white` in this game (kept in the store; said once
    /// in the log when it changes). `how`: what showed it.
    void learn_white_side(drivers::ClockSide white, const char* how);
    /// `--white-side auto`, before the first move: the lever's high side is the side whose
    /// clock runs (or will run when started) - the first mover's (dgt.md 10.1 status bit 1;
    /// eboardd(8) `--white-side`: "the side whose clock runs when the game starts").
    void learn_from_lever(drivers::ClockSide high);
    /// The held press (held_press_) is decided: by a touch reported `touch_ms` after it (within
    /// the board's lag it was the first mover's press, later the clock was being set up), or
    /// by time passing without one (`touch_ms` nullopt: set up).
    void decide_held_press(std::optional<TimeMs> touch_ms);
    /// The game is at its start (no move made) and White's side is to be learnt (auto).
    [[nodiscard]] bool sides_open() const;
    /// The game entered its quickplay finish: the profile's quickplay ladder applies.
    void update_quickplay();
    void queue_command(std::function<void(drivers::Driver&)> command);
    /// The players learn of an illegal move: a short text on the clock and a beep.
    void show_on_clock(const std::string& dgt3000, const std::string& xl);
    /// Back to the times once the irregularity is over.
    void clear_clock_text();
    [[nodiscard]] Color color_of_side(drivers::ClockSide side) const;
    [[nodiscard]] drivers::ClockSide side_of(Color c) const;
    [[nodiscard]] ReconConfig recon_config() const;

    boost::asio::io_context& io_;
    BoardSession& session_;
    const Config& config_;
    Reconstructor recon_;
    std::shared_ptr<const Profile> recon_profile_; ///< the profile recon_ was built with
    Deadlines::Slot deadline_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<std::function<void(drivers::Driver&)>> commands_;
    drivers::DeviceSession* live_ = nullptr; ///< the open session (under mutex_), for wake()
    // Which side of the clock is White's (--white-side; auto: learnt per game, see
    // learn_white_side()).
    std::optional<drivers::ClockSide> white_side_;
    /// auto: White's side is known for this game (the store, its lever before the first
    /// move, or its first press); until then the previous game's side stands in.
    bool side_learnt_ = false;
    /// auto: the board reported a piece touched in this game before its first move.
    bool touched_at_start_ = false;
    /// auto: a lever change before the first move, before any piece was touched: either the
    /// first mover's press with the board reporting his move late, or the clock being set up
    /// (Black starting White's clock, the arbiter turning it). Held until the board speaks.
    std::optional<drivers::ClockLever> held_press_;
    std::optional<TimeMs> held_touch_; ///< the first touch reported after held_press_
    std::optional<drivers::ClockTimes> last_times_;
    drivers::ClockModel clock_model_ = drivers::ClockModel::None;
    bool clock_connected_ = false;
    bool clock_text_shown_ = false;
    bool restarting_ = false;
    bool board_read_ = false; ///< a full reading (BoardDump) came in this driver session
    /// No full reading came since the daemon started: one that shows the start position with
    /// a first move made, and no game, starts the game with that move (the daemon was down
    /// when it began).
    bool first_reading_ = true;
    /// The clock's first time report of this driver session, until the board was read
    /// (lever_first_seen waits for it).
    std::optional<drivers::ClockTimes> unchecked_lever_;
    /// The game's ply at which the reconstruction started (a resumed game, a take-back): its
    /// plies count from there.
    int ply_offset_ = 0;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    Opener opener_;
    std::function<void(const BoardSettings&)> on_learned_;
    std::shared_future<void> previous_closed_; ///< open_after()
};

} // namespace eboard::daemon
