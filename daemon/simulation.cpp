#include "daemon/simulation.hpp"

#include <chrono>

#include "daemon/emu_board.hpp"
#include "daemon/emu_player.hpp"
#include "daemon/log.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "daemon/simulated_player.hpp"
#include "daemon/small_file.hpp"
#include "rules/time_control.hpp"

namespace eboard::daemon {

namespace {

// How long the player waits for the daemon to complete a move before going on anyway
// (the daemon will then alert what it saw).
constexpr int kMoveTimeoutMs = 10000;

std::string tag_or_empty(const eboard::GameRecord& g, const char* name) {
    const std::string* v = g.tag(name);
    return v && *v != "?" ? *v : std::string();
}

} // namespace

Simulation::Simulation(eboard::GameRecord game, double speed, bool clock)
    : game_(std::move(game)), speed_(speed), clock_(clock) {}

Simulation::~Simulation() { stop(); }

Expected<std::unique_ptr<Simulation>> Simulation::open(const std::string& pgn_path, double speed,
                                                       bool clock) {
    std::string text = embedded_simulation_pgn();
    if (!pgn_path.empty()) {
        // Bounded and never blocking, as an emu-KIND:PGN board's game (a FIFO or a device is
        // refused, not waited on).
        auto read = read_small_file(pgn_path, EmuPlayer::kMaxGameFileBytes);
        if (!read) return Error{"--simulate: " + read.error().message};
        text = std::move(*read);
    }
    auto game = read_pgn_game(text);
    if (!game) {
        const Error& e = game.error();
        return Error{"--simulate: " + (pgn_path.empty() ? std::string("embedded game") : pgn_path) +
                     ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message};
    }
    if (game->moves.empty()) return Error{"--simulate: the game has no moves"};
    auto start = game->start_position();
    if (!start) return Error{"--simulate: start position: " + start.error().message};
    std::unique_ptr<Simulation> sim(new Simulation(std::move(*game), speed, clock));

    drivers::emu::DgtEmulatorOptions options;
    for (int s = 0; s < 64; ++s) options.position.set(Square(s), start->piece_on(Square(s)));
    const std::int64_t t0 = clock_start_ms(sim->time_control());
    options.clock.left_ms = t0; // White plays on the left of the clock
    options.clock.right_ms = t0;
    try {
        sim->emulator_ = std::make_unique<drivers::emu::DgtEmulator>(options);
    } catch (const std::exception& e) {
        return Error{std::string("--simulate: cannot open the emulated board: ") + e.what()};
    }
    return sim;
}

BoardConfig Simulation::board() const {
    BoardConfig b;
    b.uri = "dgt:" + emulator_->pty_slave_path();
    b.name = "simulated";
    b.event = tag_or_empty(game_, "Event");
    b.site = tag_or_empty(game_, "Site");
    b.round = tag_or_empty(game_, "Round");
    b.white = tag_or_empty(game_, "White");
    b.black = tag_or_empty(game_, "Black");
    b.time_control = time_control();
    return b;
}

std::string Simulation::time_control() const { return tag_or_empty(game_, "TimeControl"); }

bool Simulation::resume(const Position& at, int plies, bool last_completed) {
    auto pos = game_.start_position();
    if (!pos || plies > static_cast<int>(game_.moves.size())) return false;
    for (int i = 0; i < plies; ++i) pos->make_move(game_.moves[static_cast<std::size_t>(i)].move);
    if (pos->fen() != at.fen()) {
        log_notice("--simulate: the unfinished game of the state directory is not this game; a new one is set up");
        return false;
    }
    BoardReading shown;
    for (int s = 0; s < 64; ++s) shown.set(Square(s), at.piece_on(Square(s)));
    emulator_->set_position(shown);
    std::lock_guard lock(mutex_);
    from_ply_ = made_ply_ = plies;
    completed_ply_ = last_completed ? plies : plies - 1;
    press_first_ = !last_completed && clock_;
    log_info("--simulate: the game goes on from ply " + std::to_string(plies));
    return true;
}

void Simulation::observe(const Event& event) {
    std::lock_guard lock(mutex_);
    if (const auto* b = std::get_if<BoardEvent>(&event)) connected_ = b->connected;
    if (const auto* g = std::get_if<GameEvent>(&event)) {
        if (g->kind == GameEvent::Kind::Start) started_ = true;
        else if (g->kind == GameEvent::Kind::End) ended_ = true;
    } else if (const auto* m = std::get_if<MoveEvent>(&event)) {
        if (m->is_completed()) completed_ply_ = m->ply;
        made_ply_ = m->ply;
    } else if (std::holds_alternative<ResultEvent>(event)) {
        ended_ = true;
    }
    changed_.notify_all();
}

bool Simulation::wait_for(const std::function<bool()>& pred, int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return stop_ || pred(); }) &&
           !stop_;
}

void Simulation::start(std::function<void(const std::string&)> finish) {
    finish_ = std::move(finish);
    thread_ = std::thread([this] { play(); });
}

void Simulation::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Simulation::play() {
    // The board stands in the start position: wait for the daemon to see the game start (a
    // resumed game: for the board to be connected).
    if (!wait_for([this] { return started_ || (from_ply_ > 0 && connected_); }, 30000)) {
        if (!stop_) log_error("--simulate: the daemon did not see the game start");
        if (!stop_ && finish_) finish_("");
        return;
    }
    auto start = game_.start_position();
    const int from = from_ply_;
    for (int i = 0; i < from; ++i) start->make_move(game_.moves[static_cast<std::size_t>(i)].move);
    SimulatedPlayer player(*emulator_, *start, 1997 + static_cast<std::uint64_t>(from), speed_);
    if (press_first_) {
        // The last move was made before the restart, not pressed: its player presses now
        // (White plays on the left of the clock).
        emulator_->press_lever(start->side_to_move() == Color::White ? drivers::ClockSide::Right
                                                                     : drivers::ClockSide::Left);
        if (!wait_for([this, from] { return completed_ply_ >= from || ended_; }, kMoveTimeoutMs) && !stop_)
            log_warning("--simulate: ply " + std::to_string(from) + " was not completed in time");
    }
    auto wait = [this](std::chrono::microseconds pause) {
        std::unique_lock lock(mutex_);
        return !changed_.wait_for(lock, pause, [this] { return stop_; });
    };
    int ply = from;
    for (std::size_t i = static_cast<std::size_t>(from); i < game_.moves.size(); ++i) {
        if (!player.play(game_.moves[i].move, wait)) return;
        ++ply;
        const int want = ply;
        // Without a clock (--clock none) this move is completed by the next one: go on once made.
        if (!wait_for([this, want] { return completed_ply_ >= want || (!clock_ && made_ply_ >= want) || ended_; },
                      kMoveTimeoutMs)) {
            if (stop_) return;
            log_warning("--simulate: ply " + std::to_string(want) + " was not completed in time");
        }
        if (ended_) break;
    }
    if (!stop_ && finish_) finish_(game_.result);
}

} // namespace eboard::daemon
