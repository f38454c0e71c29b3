#include "hub/received.hpp"

namespace eboard::hub {

void ReceivedMarks::note(const daemon::ReceivedMark& mark) {
    std::lock_guard lock(mutex_);
    auto [it, fresh] = waiting_.try_emplace(mark.host, mark);
    // The store's mark only grows within one outbox; another outbox replaces it.
    if (!fresh && (it->second.outbox != mark.outbox || it->second.seq < mark.seq)) it->second = mark;
}

void ReceivedMarks::all(const std::vector<daemon::ReceivedMark>& marks) {
    for (const auto& m : marks) note(m);
}

void ReceivedMarks::flush() {
    std::map<std::string, daemon::ReceivedMark> marks;
    {
        std::lock_guard lock(mutex_);
        marks.swap(waiting_);
    }
    std::vector<daemon::ReceivedMark> unsent;
    for (const auto& [key, mark] : marks)
        if (!publish_(daemon::received_topic(mark.host), daemon::received_payload(mark))) unsent.push_back(mark);
    for (const auto& m : unsent) note(m);
}

} // namespace eboard::hub
