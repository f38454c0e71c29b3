#include "daemon/board_registry.hpp"

#include <iterator>
#include <utility>

namespace eboard::daemon {

BoardRecord& BoardRegistry::add(BoardRecord record) {
    records_.push_back(std::move(record));
    return records_.back();
}

BoardRecord* BoardRegistry::find(const std::string& name_or_uri) {
    for (auto& r : records_)
        if (r.session->name() == name_or_uri || r.session->board_config().uri == name_or_uri) return &r;
    return nullptr;
}

BoardRecord* BoardRegistry::find(const BoardSession* session) {
    for (auto& r : records_)
        if (r.session.get() == session) return &r;
    return nullptr;
}

BoardRecord* BoardRegistry::find_by_device(const std::string& device) {
    for (auto& r : records_)
        if (!r.device.empty() && r.device == device) return &r;
    return nullptr;
}

BoardRecord BoardRegistry::take(const BoardSession* session) {
    for (auto it = records_.begin(); it != records_.end(); ++it) {
        if (it->session.get() != session) continue;
        BoardRecord out = std::move(*it);
        records_.erase(it);
        return out;
    }
    return {};
}

void BoardRegistry::drop_last() {
    if (!records_.empty()) records_.pop_back();
}

void BoardRegistry::start_all() {
    for (auto& r : records_) r.link->start();
}

void BoardRegistry::stop_all() {
    for (auto& r : records_) r.link->stop();
}

std::string BoardRegistry::status_text() const {
    int connected = 0;
    int games = 0;
    for (const auto& r : records_) {
        connected += r.session->connected() ? 1 : 0;
        games += r.session->game() ? 1 : 0;
    }
    return std::to_string(connected) + "/" + std::to_string(records_.size()) + " boards connected, " +
           std::to_string(games) + " games in progress";
}

} // namespace eboard::daemon
