// The eboardd process against emulated DGT boards (drivers/emu DgtEmulator on ptys, reached
// through a symlink as udev's /dev/eboard-* would be): an event log read from `--events -`,
// boards that can be unplugged and plugged in again, and simulated players who replay a
// source game move by move, each move waiting for the daemon to announce it completed.
// Waits are on events and emulator states with deadlines; the only pauses are the players'
// own handling times (rules/handling.hpp), divided by the speed.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/simulated_player.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "rules/pgn.hpp"
#include "tests/support/process.hpp"
#include "tests/support/test_io.hpp"

namespace eboard::test {

using ojson = nlohmann::ordered_json;

/// Every event eboardd writes on stdout (`--events -`), parsed, as it arrives.
class EventLog {
  public:
    explicit EventLog(Process& p) : process_(p), thread_([this] { run(); }) {}
    ~EventLog() { stop(); }
    EventLog(const EventLog&) = delete;
    EventLog& operator=(const EventLog&) = delete;

    /// Stops reading (the reader notices within 200 ms).
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        if (thread_.joinable()) thread_.join();
    }

    /// Waits until `pred(events)` holds; false after `timeout_ms` or once stdout closed.
    bool wait(const std::function<bool(const std::vector<ojson>&)>& pred, int timeout_ms = 30000) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                 [&] { return pred(events_) || eof_; }) &&
               pred(events_);
    }
    /// Waits for an event of `cls` on `board` that `match` accepts; returns it (null if none).
    /// `since`: only events after the first `since` ones count (a mark taken with size()).
    ojson wait_for(const std::string& cls, const std::string& board,
                   const std::function<bool(const ojson&)>& match = {}, int timeout_ms = 30000,
                   std::size_t since = 0) {
        ojson found;
        (void)wait(
            [&](const std::vector<ojson>& all) {
                for (std::size_t i = since; i < all.size(); ++i)
                    if (const ojson& e = all[i];
                        e.value("class", "") == cls && e.value("board", "") == board && (!match || match(e))) {
                        found = e;
                        return true;
                    }
                return false;
            },
            timeout_ms);
        return found;
    }
    /// Waits until `n` events of `cls` on `board` that `match` accepts have arrived.
    bool wait_count(const std::string& cls, const std::string& board, std::size_t n,
                    const std::function<bool(const ojson&)>& match = {}, int timeout_ms = 30000) {
        return wait(
            [&](const std::vector<ojson>& all) {
                std::size_t c = 0;
                for (const auto& e : all)
                    if (e.value("class", "") == cls && e.value("board", "") == board && (!match || match(e))) ++c;
                return c >= n;
            },
            timeout_ms);
    }
    /// Waits for `board`'s completed MOVE at `ply`.
    bool wait_completed(const std::string& board, int ply, int timeout_ms = 30000, std::size_t since = 0) {
        return !wait_for("MOVE", board, [ply](const ojson& e) {
                    return e.value("ply", 0) == ply && e.value("status", "") == "completed";
                }, timeout_ms, since).is_null();
    }
    /// How many events have arrived so far: a mark for waiting on what comes after it.
    std::size_t size() {
        std::lock_guard lock(mutex_);
        return events_.size();
    }
    /// A copy of the events so far.
    std::vector<ojson> events() {
        std::lock_guard lock(mutex_);
        return events_;
    }
    /// The events of `cls` on `board` so far.
    std::vector<ojson> of(const std::string& cls, const std::string& board) {
        std::vector<ojson> out;
        for (const auto& e : events())
            if (e.value("class", "") == cls && e.value("board", "") == board) out.push_back(e);
        return out;
    }

  private:
    void run() {
        for (;;) {
            {
                std::lock_guard lock(mutex_);
                if (stop_) return;
            }
            auto l = process_.line(200);
            std::lock_guard lock(mutex_);
            if (!l) {
                if (::kill(process_.pid(), 0) != 0) eof_ = true; // gone (not merely quiet)
                changed_.notify_all();
                continue;
            }
            ojson j = ojson::parse(*l, nullptr, false);
            if (j.is_object()) events_.push_back(std::move(j));
            changed_.notify_all();
        }
    }

    Process& process_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<ojson> events_;
    bool stop_ = false;
    bool eof_ = false;
    std::thread thread_;
};

/// The first game of a PGN file of data/games, or game `index` (0-based).
inline GameRecord source_game(const std::string& file, int index = 0) {
    const std::string text = slurp(std::filesystem::path(EBOARD_REPO_DATA) / "games" / file);
    PgnReader reader(text);
    for (int i = 0;; ++i) {
        auto g = reader.next();
        REQUIRE(g.has_value());
        if (i == index) {
            REQUIRE(g->has_value());
            // cppcheck-suppress returnStdMoveLocal ; moves out of the optional, no local to elide
            return std::move(g->value());
        }
    }
}

/// The SAN of a game's moves, without check marks (as bare_san compares them).
std::vector<std::string> sans_of(const GameRecord& g);

/// An emulated DGT board with a DGT3000 clock behind the stable path `link` (a symlink to
/// the emulator's pty), and a simulated player who replays `game` on it.
class EmulatedBoard {
  public:
    /// `white_side`: the side of the clock White presses (Black the other).
    EmulatedBoard(std::string name, std::filesystem::path link, GameRecord game, std::uint64_t seed,
                  double speed, std::int64_t clock_ms = 10 * 60 * 1000,
                  drivers::ClockSide white_side = drivers::ClockSide::Left)
        : name_(std::move(name)), link_(std::move(link)), game_(std::move(game)), seed_(seed), speed_(speed),
          white_side_(white_side) {
        auto start = game_.start_position();
        REQUIRE(start.has_value());
        plug(*start, clock_ms, clock_ms);
    }

    [[nodiscard]] const std::string& name() const { return name_; }
    [[nodiscard]] std::string uri() const { return "dgt:" + link_.string(); }
    [[nodiscard]] const GameRecord& game() const { return game_; }
    [[nodiscard]] drivers::emu::DgtEmulator& emulator() { return *emulator_; }
    [[nodiscard]] daemon::SimulatedPlayer& player() { return *player_; }
    /// Plies played so far.
    [[nodiscard]] int ply() const { return ply_; }

    /// The position after `ply` plies of the source game.
    [[nodiscard]] Position position_at(int ply) const {
        Position pos = game_.start_position().value().copy();
        for (int i = 0; i < ply; ++i) pos.make_move(game_.moves[static_cast<std::size_t>(i)].move);
        return pos;
    }
    /// The pieces are put back to the position after `ply` (a take-back on the board); the
    /// player goes on from there.
    void rewind(int ply) {
        const Position pos = position_at(ply);
        emulator_->set_position(state_of(pos));
        ply_ = ply;
        player_ = std::make_unique<daemon::SimulatedPlayer>(*emulator_, pos, seed_ + static_cast<std::uint64_t>(ply_) + 1000,
                                                            speed_, white_side_);
    }

    /// A (new) board showing `pos` with the clock at these times (and this increment at each
    /// press), behind the same path.
    void plug(const Position& pos, std::int64_t left_ms, std::int64_t right_ms, std::int64_t increment_ms = 0) {
        drivers::emu::DgtEmulatorOptions o;
        o.position = state_of(pos);
        o.clock.left_ms = left_ms;
        o.clock.right_ms = right_ms;
        o.clock.increment_ms = increment_ms;
        o.clock.lever_high = white_side_; // White's side up: his first press counts
        emulator_ = std::make_unique<drivers::emu::DgtEmulator>(o);
        std::error_code ec;
        std::filesystem::remove(link_, ec);
        std::filesystem::create_symlink(emulator_->pty_slave_path(), link_);
        player_ = std::make_unique<daemon::SimulatedPlayer>(*emulator_, pos, seed_ + static_cast<std::uint64_t>(ply_),
                                                            speed_, white_side_);
    }
    /// Waits until the daemon's driver has set the board up (it asked for the clock's version,
    /// which it does after the dump and the update mode, whose first time report gives it the
    /// lever's position): a press before that would happen before anyone listened.
    /// `nth`: how many driver sessions must have done so (a restarted daemon is the 2nd).
    bool wait_driver_ready(std::size_t nth = 1, int timeout_ms = 20000) {
        static const std::vector<std::uint8_t> version{0x2b, 0x03, 0x03, 0x09, 0x00};
        return emulator_->wait_until([nth](const drivers::emu::DgtBoardEmu& m) {
            const auto& r = m.received();
            std::size_t n = 0;
            for (auto it = r.begin(); (it = std::search(it, r.end(), version.begin(), version.end())) != r.end(); ++it)
                ++n;
            return n >= nth;
        }, timeout_ms);
    }

    /// The player to move puts one of his pieces (not the king) one square aside where it
    /// cannot legally go, and presses the clock (an illegal move completed, Art. 7.5.1).
    /// Returns the squares (from, to) so that the test can put it back.
    std::pair<Square, Square> illegal_move_and_press(drivers::ClockSide side) {
        const Position& pos = player_->position();
        const MoveList legal = pos.legal_moves();
        for (int s = 0; s < 64; ++s) {
            const Piece p = pos.piece_on(Square(s));
            if (p == Piece::None || color_of(p) != pos.side_to_move() || type_of(p) == PieceType::King) continue;
            for (int df = -1; df <= 1; ++df)
                for (int dr = -1; dr <= 1; ++dr) {
                    const int f = Square(s).file() + df, r = Square(s).rank() + dr;
                    if ((df == 0 && dr == 0) || f < 0 || f > 7 || r < 0 || r > 7) continue;
                    const Square to = Square::at(f, r);
                    if (pos.piece_on(to) != Piece::None) continue;
                    bool is_legal = false;
                    for (Move m : legal) is_legal = is_legal || (m.from() == Square(s) && m.to() == to);
                    if (is_legal) continue;
                    emulator_->move(Square(s), to);
                    emulator_->press_lever(side);
                    return {Square(s), to};
                }
        }
        FAIL("no illegal step found");
        return {};
    }
    /// While the board was away its player made the next move of the game: the board comes
    /// back showing the position after it (nobody pressed the clock yet).
    void plug_after_next_move(std::int64_t left_ms, std::int64_t right_ms) {
        Position pos = player_->position().copy();
        pos.make_move(game_.moves[static_cast<std::size_t>(ply_)].move);
        ++ply_;
        plug(pos, left_ms, right_ms);
    }
    /// The source game's next move (the one play() would make now).
    [[nodiscard]] Move next_move() const { return game_.moves[static_cast<std::size_t>(ply_)].move; }
    /// The player makes the next move on the board (Art. 4.7) without pressing the clock.
    void make_next_move() {
        player_->play(next_move(), [](std::chrono::microseconds) { return true; }, false);
        ++ply_;
    }
    /// The board already shows the position after `ply` (the test moved the pieces by hand):
    /// the player goes on from there.
    void resync(int ply) { rewind(ply); }
    /// The players change sides of the clock (White now presses `white`) and set up the
    /// position after `ply` (0: a new game); the player goes on from there.
    void seat_white(drivers::ClockSide white, int ply) {
        white_side_ = white;
        rewind(ply);
    }
    /// The cable is pulled: the pty closes and the path goes away.
    void unplug() {
        std::error_code ec;
        std::filesystem::remove(link_, ec);
        emulator_->disconnect();
    }

    /// A ply whose player cannot press the clock (his side of the lever is already down after
    /// an illegal move was pressed): it is completed by the next move ([23] 6.2.1), so play()
    /// waits for it to be made only.
    void no_press_at(int ply) { made_only_.insert(ply); }

    /// Plays the source game's moves [ply(), to_ply), each waiting for the daemon's completed
    /// MOVE; `before(ply)` runs before each move (to inject irregularities). False on a time out.
    bool play(EventLog& log, int to_ply, const std::function<void(int)>& before = {}) {
        auto pace = [](std::chrono::microseconds d) {
            std::this_thread::sleep_for(d); // the player's own handling time
            return true;
        };
        while (ply_ < to_ply && ply_ < static_cast<int>(game_.moves.size())) {
            if (before) before(ply_ + 1);
            // After a take-back the log already holds this ply's MOVE from before it: only
            // what the daemon says after this move was made counts.
            const std::size_t mark = log.size();
            player_->play(game_.moves[static_cast<std::size_t>(ply_)].move, pace);
            ++ply_;
            const int want = ply_;
            const bool made_only = made_only_.count(want) > 0;
            if (made_only ? log.wait_for("MOVE", name_, [want](const ojson& e) { return e.value("ply", 0) == want; },
                                         30000, mark)
                                .is_null()
                          : !log.wait_completed(name_, want, 30000, mark)) {
                UNSCOPED_INFO("board " << name_ << ": ply " << ply_ << " was not completed");
                return false;
            }
        }
        return true;
    }

  private:
    static BoardReading state_of(const Position& pos) {
        BoardReading b;
        for (int s = 0; s < 64; ++s) b.set(Square(s), pos.piece_on(Square(s)));
        return b;
    }

    std::string name_;
    std::filesystem::path link_;
    GameRecord game_;
    std::uint64_t seed_;
    double speed_;
    drivers::ClockSide white_side_;
    int ply_ = 0;
    std::set<int> made_only_;
    std::unique_ptr<drivers::emu::DgtEmulator> emulator_;
    std::unique_ptr<daemon::SimulatedPlayer> player_;
};

inline std::vector<std::string> sans_of(const GameRecord& g) {
    std::vector<std::string> out;
    for (const auto& m : g.moves) {
        std::string s = m.san;
        while (!s.empty() && (s.back() == '+' || s.back() == '#')) s.pop_back();
        out.push_back(s);
    }
    return out;
}

/// One request on the client API socket at `socket` (after its VERSION line) and the reply
/// object (docs/client-api.md).
inline ojson request(const std::string& socket, const ojson& req) {
    LineSocket s(socket);
    REQUIRE(s.line().has_value()); // VERSION
    REQUIRE(s.send(req.dump() + "\n"));
    auto reply = s.line();
    REQUIRE(reply.has_value());
    return ojson::parse(*reply);
}

/// The eboardd and eboardctl binaries.
inline std::string eboardd_bin() { return std::string(EBOARD_BIN_DIR) + "/eboardd"; }
inline std::string eboardctl_bin() { return std::string(EBOARD_BIN_DIR) + "/eboardctl"; }

/// Writes `config` to `<dir>/eboardd.conf` and returns eboardd's arguments for a test:
/// `--config` that file, `--state-dir <dir>/state`, `--events -`, then `more`.
inline std::vector<std::string> config_args(const std::filesystem::path& dir, const std::string& config,
                                            const std::vector<std::string>& more = {}) {
    std::ofstream(dir / "eboardd.conf") << config;
    std::vector<std::string> args{"--config", (dir / "eboardd.conf").string(), "--state-dir",
                                  (dir / "state").string(), "--events", "-"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

/// The eboardd process on `args`, with NOTIFY_SOCKET `<dir>/notify<tag>` and its stderr in
/// `<dir>/stderr<tag>`; constructed once it said READY=1 (the test fails if it does not).
struct ReadyDaemon {
    NotifySocket notify;
    Process process;
    ReadyDaemon(const std::filesystem::path& dir, const std::vector<std::string>& args, const std::string& tag = "")
        : notify((dir / ("notify" + tag)).string()),
          process(eboardd_bin(), args, notify.path(), (dir / ("stderr" + tag)).string()) {
        REQUIRE(notify.wait_for("READY=1"));
    }
};

} // namespace eboard::test
