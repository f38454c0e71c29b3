// A board's device pipeline: driver (drivers/core DeviceSession over its transport, read on
// a device thread: device_thread.hpp) -> Reconstructor (one per board, on the event loop's
// thread) -> the BoardSession (game, store, PGN, events). Driver events cross to the loop with
// asio::post; driver commands (clock) cross back through a queue the device thread runs between
// polls. DeviceLink translates: driver events into the reconstruction's inputs (the clock's
// sides into players by WhiteSideLearner, white_side.hpp), its outputs into the session's game.
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

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "daemon/board_link.hpp"
#include "daemon/board_settings.hpp"
#include "daemon/board_session.hpp"
#include "daemon/config.hpp"
#include "daemon/deadlines.hpp"
#include "daemon/device_thread.hpp"
#include "daemon/white_side.hpp"
#include "daemon/winnability_worker.hpp"
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
    void open_after(std::shared_future<void> closed) override { device_.open_after(std::move(closed)); }
    [[nodiscard]] Expected<bool> set_clock(std::int64_t white_ms, std::int64_t black_ms) override;
    [[nodiscard]] Expected<PenaltyOutcome> penalty(bool apply) override;
    void restart_game() override;

    /// Opens the board's driver session (default: drivers::open_device of the board's URI);
    /// set before start(). Called on the device thread.
    using Opener = DeviceThread::Opener;
    void set_opener(Opener opener) { device_.set_opener(std::move(opener)); }
    /// Called (on the loop's thread) with what the driver learnt (board_settings.hpp).
    void on_learned(std::function<void(const BoardSettings&)> f) { on_learned_ = std::move(f); }

  private:
    void on_driver_event(const drivers::DriverEvent& e);
    void on_clock_times(const drivers::ClockReport& t);
    void feed(const SensorEvent& e);
    /// The clock's first time report since the daemon started or the board came back, once
    /// the board was read: a press made meanwhile completes the move it was for
    /// (Reconstructor::lever_seen).
    void lever_first_seen(const drivers::ClockReport& t);
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
    /// `--white-side auto`: the side kept with the game (the store) is taken up again
    /// (WhiteSideLearner::game_begins).
    void keep_white_side();
    /// What the white-side learning decided: a side learnt is kept with the game (and said in
    /// the log when it changes); a press is fed to the reconstruction.
    void apply(const std::vector<WhiteSideLearner::Action>& actions);
    /// The game as the white-side learning needs to know it.
    [[nodiscard]] WhiteSideLearner::Game side_game() const;
    /// The game entered its quickplay finish: the profile's quickplay ladder applies.
    void update_quickplay();
    /// The players learn of an illegal move: a short text on the clock and a beep.
    void show_on_clock(const std::string& dgt3000, const std::string& xl);
    /// Back to the times once the irregularity is over.
    void clear_clock_text();
    [[nodiscard]] ReconConfig recon_config() const;

    boost::asio::io_context& io_;
    BoardSession& session_;
    const Config& config_;
    Reconstructor recon_;
    std::shared_ptr<const Profile> recon_profile_; ///< the profile recon_ was built with
    Deadlines::Slot deadline_;
    DeviceThread device_;
    WhiteSideLearner sides_; ///< which side of the clock is White's (--white-side)
    std::optional<drivers::ClockReport> last_times_;
    drivers::ClockModel clock_model_ = drivers::ClockModel::None;
    bool clock_connected_ = false;
    bool clock_text_shown_ = false;
    bool restarting_ = false;
    bool board_read_ = false; ///< a full reading (BoardSnapshot) came in this driver session
    /// No full reading came since the daemon started: one that shows the start position with
    /// a first move made, and no game, starts the game with that move (the daemon was down
    /// when it began).
    bool first_reading_ = true;
    /// The clock's first time report of this driver session, until the board was read
    /// (lever_first_seen waits for it).
    std::optional<drivers::ClockReport> unchecked_lever_;
    /// The game's ply at which the reconstruction's line starts (0, or the last illegal move
    /// that stood; GameTracker::line_start()): its plies count from there.
    int ply_offset_ = 0;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    std::function<void(const BoardSettings&)> on_learned_;
    /// The full winnability search of a flag fall (Art. 6.9), off the loop; made when first
    /// needed.
    std::unique_ptr<WinnabilityWorker> winnability_;
};

} // namespace eboard::daemon
