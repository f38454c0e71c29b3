#include "daemon/emu_player.hpp"

#include <chrono>

#include "daemon/log.hpp"
#include "daemon/small_file.hpp"

namespace eboard::daemon {

namespace {

// How long the player waits for the daemon to announce a move before going on anyway (the
// daemon then alerts what it saw).
constexpr int kMoveTimeoutMs = 10000;
// How long it waits for the game to start (a Certabo calibrates first).
constexpr int kStartTimeoutMs = 60000;
// The shortest pause of the player's hands that is slept (see play()).
constexpr std::chrono::microseconds kShortestPause{1000};

} // namespace

EmuPlayer::EmuPlayer(GameRecord game, Position start, double speed)
    : game_(std::move(game)), start_(std::move(start)), speed_(speed) {}

EmuPlayer::~EmuPlayer() { stop(); }

Expected<std::unique_ptr<EmuPlayer>> EmuPlayer::open(const std::string& pgn_path, double speed) {
    auto text = read_small_file(pgn_path, kMaxGameFileBytes);
    if (!text) return text.error();
    // The errors name the place, never the content: the file may be anything the daemon can read.
    auto game = read_pgn_game(*text);
    if (!game) {
        const Error& e = game.error();
        return Error{pgn_path + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) +
                     ": not a PGN game the player can replay"};
    }
    auto start = game->start_position();
    if (!start) return Error{pgn_path + ": the game's start position (SetUp/FEN) does not read"};
    Position pos = start->copy();
    return std::unique_ptr<EmuPlayer>(new EmuPlayer(std::move(*game), std::move(pos), speed));
}

std::string EmuPlayer::time_control() const {
    const std::string* tc = game_.tag("TimeControl");
    return tc && *tc != "?" ? *tc : std::string();
}

bool EmuPlayer::passes_through(const Position& pos, int plies) const {
    if (plies > static_cast<int>(game_.moves.size())) return false;
    Position p = start_.copy();
    for (int i = 0; i < plies; ++i) p.make_move(game_.moves[static_cast<std::size_t>(i)].move);
    return p.fen() == pos.fen();
}

void EmuPlayer::start(EmuBoard& board, int from_ply, bool resumed) {
    {
        std::lock_guard lock(mutex_);
        resumed_ = resumed;
        made_ply_ = completed_ply_ = from_ply;
    }
    thread_ = std::thread([this, &board, from_ply] { play(board, from_ply, board.has_clock()); });
}

void EmuPlayer::observe(const Event& event) {
    std::lock_guard lock(mutex_);
    if (const auto* g = std::get_if<GameEvent>(&event)) {
        if (g->kind == GameEvent::Kind::Start) ready_ = true;
        else if (g->kind == GameEvent::Kind::End) ended_ = true;
    } else if (const auto* b = std::get_if<BoardEvent>(&event)) {
        if (resumed_ && b->connected) ready_ = true;
    } else if (const auto* m = std::get_if<MoveEvent>(&event)) {
        made_ply_ = m->ply;
        if (m->is_completed()) completed_ply_ = m->ply;
    } else if (std::holds_alternative<ResultEvent>(event)) {
        ended_ = true;
    }
    changed_.notify_all();
}

bool EmuPlayer::wait_for(const std::function<bool()>& pred, int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return stop_ || pred(); }) &&
           !stop_;
}

void EmuPlayer::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void EmuPlayer::play(EmuBoard& board, int from_ply, bool clock) {
    if (!wait_for([this] { return ready_; }, kStartTimeoutMs)) {
        if (!stop_) log_warning("emulated board: the game did not start; the player gives up");
        return;
    }
    Position pos = start_.copy();
    for (int i = 0; i < from_ply; ++i) pos.make_move(game_.moves[static_cast<std::size_t>(i)].move);
    SimulatedPlayer player(board.hands(), board.identity(), pos, 1997 + static_cast<std::uint64_t>(from_ply), speed_);
    auto pause = [this](std::chrono::microseconds d) {
        // Gaps under a millisecond (a sensor bounce of 2-15 ms at --speed 20) are not slept: a
        // loaded machine wakes a sleeper tens of ms late, which would turn the bounce into a
        // lift that a scanning board sees for a whole scan (a real touch, 4.3).
        if (d < kShortestPause) return true;
        std::unique_lock lock(mutex_);
        return !changed_.wait_for(lock, d, [this] { return stop_; });
    };
    for (int ply = from_ply; ply < static_cast<int>(game_.moves.size()); ++ply) {
        if (!player.play(game_.moves[static_cast<std::size_t>(ply)].move, pause)) return;
        const int want = ply + 1;
        if (!wait_for([&] { return (clock ? completed_ply_ : made_ply_) >= want || ended_; }, kMoveTimeoutMs)) {
            if (stop_) return;
            log_warning("emulated board: ply " + std::to_string(want) + " was not announced in time");
        }
        if (ended_) return;
    }
}

} // namespace eboard::daemon
