#include "daemon/recorder.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iterator>

#include "daemon/atomic_file.hpp"
#include "daemon/log.hpp"
#include "daemon/pgn_export.hpp"

namespace eboard::daemon {

namespace {

// Events that change what the PGN shows.
bool changes_pgn(const Event& e) {
    return std::holds_alternative<MoveEvent>(e) || std::holds_alternative<ResultEvent>(e) ||
           std::holds_alternative<GameEvent>(e);
}

} // namespace

std::int64_t wall_clock_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Recorder::Recorder(Store& store, std::string pgn_dir, boost::asio::io_context* io)
    : store_(store), pgn_dir_(std::move(pgn_dir)), io_(io) {
    if (io_) retry_.emplace(*io_);
}

void Recorder::add_sink(Sink sink, Delivery delivery) {
    (delivery == Delivery::OnPublish ? on_publish_ : sinks_).push_back(std::move(sink));
}

std::string Recorder::pgn_path(const std::string& game) const {
    if (pgn_dir_.empty() || game.empty()) return {};
    return (std::filesystem::path(pgn_dir_) / (game + ".pgn")).string();
}

bool Recorder::write_pgn_file(const std::string& game) {
    const std::string path = pgn_path(game);
    if (path.empty()) return true;
    auto record = store_.load(game);
    if (!record) {
        log_error("pgn: " + record.error().message);
        return false;
    }
    std::error_code ec;
    std::filesystem::create_directories(pgn_dir_, ec);
    auto written = write_file_atomically(path, to_pgn(*record), false);
    if (!written) {
        log_error("pgn: " + written.error().message);
        return false;
    }
    return true;
}

bool Recorder::write_pgn(const std::string& game) {
    flush();
    if (!write_pgn_file(game)) return false;
    if (pgn_dir_.empty()) return true;
    auto synced = sync_directory(pgn_dir_);
    if (!synced) log_error("pgn: " + synced.error().message);
    return synced.has_value();
}

void Recorder::publish(const Event& event, std::int64_t time_ms) {
    Item item;
    item.time_ms = time_ms;
    if (changes_pgn(event)) item.pgn_game = event_game(event);
    item.event = event;
    queue_.push_back(std::move(item));
    if (!on_publish_.empty()) {
        const std::string line = to_line(event);
        for (const auto& sink : on_publish_) sink(event, line);
    }
    schedule();
}

void Recorder::submit(Operation op, std::string pgn_game) {
    Item item;
    item.op = std::move(op);
    item.pgn_game = std::move(pgn_game);
    queue_.push_back(std::move(item));
    schedule();
}

void Recorder::schedule() {
    if (!io_) {
        flush();
        return;
    }
    if (scheduled_) return;
    scheduled_ = true;
    boost::asio::post(*io_, [this] { flush(); });
}

void Recorder::flush() {
    scheduled_ = false;
    if (queue_.empty() || flushing_) return;
    flushing_ = true; // a sink that publishes queues for the next flush
    std::vector<Item> items;
    items.swap(queue_);
    const bool durable = std::any_of(items.begin(), items.end(), [](const Item& i) {
        return !i.event || !std::holds_alternative<TouchEvent>(*i.event);
    });
    Expected<bool> ok = store_.begin_batch(durable);
    for (std::size_t i = 0; ok && i < items.size(); ++i)
        ok = items[i].event ? store_.record(*items[i].event, items[i].time_ms) : items[i].op(store_);
    if (ok) ok = store_.commit_batch();
    else store_.rollback_batch();
    if (!ok) {
        // Kept, in order, for the next try: a completed move is never dropped.
        if (!failing_)
            log_error("the store failed: " + ok.error().message + "; " + std::to_string(items.size()) +
                      " events wait, not announced, and are tried again every " + std::to_string(kRetryMs) +
                      " ms");
        failing_ = true;
        queue_.insert(queue_.begin(), std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
        flushing_ = false;
        if (retry_) {
            retry_->expires_after(std::chrono::milliseconds(kRetryMs));
            retry_->async_wait([this](const boost::system::error_code& ec) {
                if (!ec) flush();
            });
        }
        return;
    }
    if (failing_) {
        log_notice("the store records again; " + std::to_string(items.size()) + " waiting events recorded");
        failing_ = false;
    }
    ++commits_;
    // Each game's PGN once, in the order of its first event; one directory sync for all.
    std::vector<std::string> games;
    for (const auto& i : items)
        if (!i.pgn_game.empty() && std::find(games.begin(), games.end(), i.pgn_game) == games.end())
            games.push_back(i.pgn_game);
    bool wrote = false;
    for (const auto& g : games) wrote = write_pgn_file(g) || wrote;
    if (wrote) {
        if (auto synced = sync_directory(pgn_dir_); !synced) log_error("pgn: " + synced.error().message);
    }
    for (const auto& i : items)
        if (i.event) announce(*i.event);
    flushing_ = false;
    if (!queue_.empty()) schedule();
}

void Recorder::announce(const Event& event) {
    const std::string line = to_line(event);
    for (const auto& sink : sinks_) sink(event, line);
}

} // namespace eboard::daemon
