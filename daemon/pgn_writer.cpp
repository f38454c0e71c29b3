#include "daemon/pgn_writer.hpp"

#include <filesystem>

#include "daemon/atomic_file.hpp"
#include "daemon/log.hpp"

namespace eboard::daemon {

PgnWriter::PgnWriter(std::string dir, Written on_written)
    : dir_(std::move(dir)), on_written_(std::move(on_written)) {
    thread_ = std::thread([this] { run(); });
}

PgnWriter::~PgnWriter() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void PgnWriter::write(const std::string& game, std::string text, std::uint64_t generation) {
    {
        std::lock_guard lock(mutex_);
        pending_[game] = Pending{std::move(text), generation};
    }
    wake_.notify_one();
}

std::set<std::string> PgnWriter::drain() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return pending_.empty() && !busy_; });
    return failed_;
}

void PgnWriter::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stop_ || !pending_.empty(); });
        if (pending_.empty()) return; // stopping, nothing left
        std::map<std::string, Pending> round;
        round.swap(pending_);
        busy_ = true;
        lock.unlock();
        std::vector<std::pair<std::string, std::uint64_t>> written;
        std::vector<std::string> failed;
        std::error_code ec;
        std::filesystem::create_directories(dir_, ec);
        for (auto& [game, p] : round) {
            const auto path = std::filesystem::path(dir_) / (game + ".pgn");
            if (auto ok = write_file_atomically(path, p.text, false); !ok) {
                log_error("pgn: " + ok.error().message);
                failed.push_back(game);
            } else {
                written.emplace_back(game, p.generation);
            }
        }
        if (!written.empty()) {
            if (auto synced = sync_directory(dir_); !synced) {
                log_error("pgn: " + synced.error().message);
                // The renames may not be durable: written again at the next start.
                for (const auto& w : written) failed.push_back(w.first);
                written.clear();
            }
        }
        std::vector<std::string> ok_games;
        ok_games.reserve(written.size());
        for (const auto& w : written) ok_games.push_back(w.first);
        if (!written.empty() && on_written_) on_written_(std::move(written));
        lock.lock();
        for (const auto& g : ok_games) failed_.erase(g);
        failed_.insert(failed.begin(), failed.end());
        busy_ = false;
        if (pending_.empty()) idle_.notify_all();
    }
}

} // namespace eboard::daemon
