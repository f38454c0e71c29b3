#include "daemon/recorder.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iterator>
#include <thread>

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
    if (io_ && !pgn_dir_.empty())
        pgn_writer_ = std::make_unique<PgnWriter>(
            pgn_dir_, [io = io_, this, alive = alive_](std::vector<std::pair<std::string, std::uint64_t>> written) {
                boost::asio::post(*io, [this, alive, w = std::move(written)] {
                    if (*alive) pgn_written(w);
                });
            });
}

Recorder::~Recorder() {
    *alive_ = false;
    pgn_writer_.reset(); // writes what waits
}

void Recorder::add_sink(Sink sink, Delivery delivery) {
    (delivery == Delivery::OnPublish ? on_publish_ : sinks_).push_back(std::move(sink));
}

std::string Recorder::pgn_path(const std::string& game) const {
    if (pgn_dir_.empty() || game.empty()) return {};
    return (std::filesystem::path(pgn_dir_) / (game + ".pgn")).string();
}

std::optional<std::string> Recorder::pgn_text(const std::string& game) {
    auto record = store_.load(game);
    if (!record) {
        log_error("pgn: " + record.error().message);
        return std::nullopt;
    }
    return to_pgn(*record);
}

bool Recorder::write_pgn_file(const std::string& game) {
    const std::string path = pgn_path(game);
    if (path.empty()) return true;
    auto text = pgn_text(game);
    if (!text) return false;
    std::error_code ec;
    std::filesystem::create_directories(pgn_dir_, ec);
    auto written = write_file_atomically(path, *text, false);
    if (!written) {
        log_error("pgn: " + written.error().message);
        return false;
    }
    return true;
}

bool Recorder::write_pgn(const std::string& game) {
    flush();
    sync_pgn_files(); // an older text of the writer must not replace this one
    if (!write_pgn_file(game)) return false;
    if (pgn_dir_.empty()) return true;
    auto synced = sync_directory(pgn_dir_);
    if (!synced) log_error("pgn: " + synced.error().message);
    return synced.has_value();
}

void Recorder::sync_pgn_files() {
    if (!pgn_writer_) return;
    const std::set<std::string> failed = pgn_writer_->drain();
    // Its reports are posted to the loop, which waits here: take them from the writer's answer
    // (a game whose file could not be written keeps its note, and its file is written again
    // at the next start).
    for (auto it = pgn_in_flight_.begin(); it != pgn_in_flight_.end();) {
        if (!failed.count(it->first)) pgn_done_.push_back(it->first);
        it = pgn_in_flight_.erase(it);
    }
}

bool Recorder::finish() {
    flush();
    if (failing_) {
        log_warning("exit: the store still fails; tried again for up to " + std::to_string(kExitRetryMs / 1000) +
                    " s before giving up");
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kExitRetryMs);
        while (failing_ && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(kExitRetryPauseMs));
            flush();
        }
    }
    sync_pgn_files();
    if (failing_) {
        // One line per event: the journal keeps what the store could not (issue 26).
        std::size_t writes = 0;
        for (const auto& i : queue_) {
            if (!i.event) ++writes;
            else if (!std::holds_alternative<TouchEvent>(*i.event))
                log_error("not stored: " + i.line.substr(0, i.line.find_last_not_of('\n') + 1));
        }
        log_error("exit: the store failed; " + std::to_string(queue_.size()) +
                  " events and writes were not stored (the events above, " + std::to_string(writes) +
                  " other writes, and the touches)");
        return false;
    }
    if (pgn_done_.empty()) return true;
    Expected<bool> ok = store_.begin_batch(false);
    for (std::size_t i = 0; ok && i < pgn_done_.size(); ++i) ok = store_.clear_pgn_pending(pgn_done_[i]);
    if (ok) ok = store_.commit_batch();
    else store_.rollback_batch();
    if (ok) pgn_done_.clear();
    return true;
}

int Recorder::repair_pgn_files() {
    std::vector<std::string> written;
    for (const auto& g : store_.pgn_pending())
        if (write_pgn_file(g)) written.push_back(g);
    if (written.empty() || pgn_dir_.empty()) return 0;
    if (auto synced = sync_directory(pgn_dir_); !synced) {
        log_error("pgn: " + synced.error().message);
        return 0;
    }
    // Their notes go with the next commit; a game whose file could not be written keeps its
    // note (tried again at the next start).
    pgn_done_.insert(pgn_done_.end(), written.begin(), written.end());
    return static_cast<int>(written.size());
}

void Recorder::rewrite_pgn_files(const std::vector<std::string>& games) {
    if (games.empty() || pgn_dir_.empty()) return;
    if (!pgn_writer_) {
        bool wrote = false;
        for (const auto& g : games) wrote = write_pgn_file(g) || wrote;
        if (wrote) {
            if (auto synced = sync_directory(pgn_dir_); !synced) log_error("pgn: " + synced.error().message);
        }
        return;
    }
    for (const auto& g : games) {
        auto text = pgn_text(g);
        if (!text) continue;
        pgn_writer_->write(g, std::move(*text), ++pgn_generation_);
        pgn_in_flight_[g] = pgn_generation_;
    }
}

void Recorder::pgn_written(const std::vector<std::pair<std::string, std::uint64_t>>& written) {
    for (const auto& [game, generation] : written) {
        const auto it = pgn_in_flight_.find(game);
        // A newer text of the game is on its way: its note stays until that one is written.
        if (it == pgn_in_flight_.end() || it->second != generation) continue;
        pgn_in_flight_.erase(it);
        pgn_done_.push_back(game);
    }
}

void Recorder::publish(const Event& event, std::int64_t time_ms) {
    Item item;
    item.time_ms = time_ms;
    if (changes_pgn(event)) item.pgn_game = event_game(event);
    item.event = event;
    item.line = to_line(event);
    for (const auto& sink : on_publish_) sink(event, item.line);
    queue_.push_back(std::move(item));
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
    // Each game whose PGN changes, in the order of its first event.
    std::vector<std::string> games;
    for (const auto& i : items)
        if (!i.pgn_game.empty() && std::find(games.begin(), games.end(), i.pgn_game) == games.end())
            games.push_back(i.pgn_game);
    const bool pgn = !pgn_dir_.empty();
    Expected<bool> ok = store_.begin_batch(durable);
    for (std::size_t i = 0; ok && i < items.size(); ++i) {
        ok = items[i].event ? store_.record(*items[i].event, items[i].time_ms, items[i].line) : items[i].op(store_);
        if (ok && items[i].event && outbox_) ok = outbox_(store_, *items[i].event, items[i].line);
    }
    // The PGN files lag the store until the writer has them (see the file comment); a game
    // changed again in this batch keeps its note.
    for (std::size_t i = 0; ok && pgn && i < games.size(); ++i) ok = store_.mark_pgn_pending(games[i]);
    std::size_t cleared = 0;
    for (; ok && pgn && cleared < pgn_done_.size(); ++cleared)
        if (std::find(games.begin(), games.end(), pgn_done_[cleared]) == games.end())
            ok = store_.clear_pgn_pending(pgn_done_[cleared]);
    if (ok) ok = store_.commit_batch();
    else store_.rollback_batch();
    if (!ok) {
        // Kept, in order, for the next try: a completed move is never dropped.
        if (!failing_)
            log_error("the store failed: " + ok.error().message + "; " + std::to_string(items.size()) +
                      " events wait, not announced, and are tried again every " + std::to_string(kRetryMs) +
                      " ms");
        failing_ = true;
        alert_waiting(items, ok.error().message);
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
        alerted_.clear();
    }
    ++commits_;
    pgn_done_.erase(pgn_done_.begin(), pgn_done_.begin() + static_cast<std::ptrdiff_t>(cleared));
    for (const auto& i : items)
        if (i.event) announce(*i.event, i.line);
    // Each game's PGN once, after the announcements (the file is a view of the store).
    rewrite_pgn_files(games);
    flushing_ = false;
    if (!queue_.empty()) schedule();
}

void Recorder::alert_waiting(const std::vector<Item>& items, const std::string& why) {
    for (const auto& i : items) {
        if (!i.event || event_board(*i.event).empty() || !alerted_.insert(event_board(*i.event)).second) continue;
        AlertEvent a;
        a.board = event_board(*i.event);
        a.game = event_game(*i.event);
        a.kind = AlertKind::StoreFailed;
        a.text = "the store cannot record (" + why + "); this board's moves wait, not announced, until it can";
        announce(Event{std::move(a)});
    }
}

void Recorder::announce(const Event& event) { announce(event, to_line(event)); }

void Recorder::announce(const Event& event, const std::string& line) {
    for (const auto& sink : sinks_) sink(event, line);
}

} // namespace eboard::daemon
