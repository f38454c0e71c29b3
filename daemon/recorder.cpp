#include "daemon/recorder.hpp"

#include <chrono>
#include <filesystem>

#include "daemon/atomic_file.hpp"
#include "daemon/log.hpp"
#include "daemon/pgn_export.hpp"

namespace eboard::daemon {

std::int64_t wall_clock_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Recorder::Recorder(Store& store, std::string pgn_dir) : store_(store), pgn_dir_(std::move(pgn_dir)) {}

void Recorder::add_sink(Sink sink) { sinks_.push_back(std::move(sink)); }

std::string Recorder::pgn_path(const std::string& game) const {
    if (pgn_dir_.empty() || game.empty()) return {};
    return (std::filesystem::path(pgn_dir_) / (game + ".pgn")).string();
}

bool Recorder::write_pgn(const std::string& game) {
    const std::string path = pgn_path(game);
    if (path.empty()) return true;
    auto record = store_.load(game);
    if (!record) {
        log_error("pgn: " + record.error().message);
        return false;
    }
    std::error_code ec;
    std::filesystem::create_directories(pgn_dir_, ec);
    auto written = write_file_atomically(path, to_pgn(*record));
    if (!written) {
        log_error("pgn: " + written.error().message);
        return false;
    }
    return true;
}

bool Recorder::publish(const Event& event, std::int64_t time_ms) {
    auto ok = store_.record(event, time_ms);
    if (!ok) {
        log_error("not announced, the store failed: " + ok.error().message);
        return false;
    }
    if (std::holds_alternative<MoveEvent>(event) || std::holds_alternative<ResultEvent>(event) ||
        std::holds_alternative<GameEvent>(event))
        (void)write_pgn(event_game(event));
    announce(event);
    return true;
}

void Recorder::announce(const Event& event) {
    const std::string line = to_line(event);
    for (const auto& sink : sinks_) sink(event, line);
}

} // namespace eboard::daemon
