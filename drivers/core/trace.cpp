#include "drivers/core/trace.hpp"

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

namespace eboard::drivers {

namespace {

struct TraceRegistry {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<TraceChannel>, std::less<>> channels;
    bool all = false;
    std::function<void(std::string_view)> sink;
};

TraceRegistry& registry() {
    static TraceRegistry r;
    return r;
}

void emit(const std::string& line) {
    auto& r = registry();
    std::function<void(std::string_view)> sink;
    {
        const std::lock_guard lock(r.mutex);
        sink = r.sink;
    }
    if (sink)
        sink(line);
    else
        std::fprintf(stderr, "%s\n", line.c_str());
}

} // namespace

std::string hex_bytes(std::span<const std::uint8_t> bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 3);
    for (const std::uint8_t b : bytes) {
        if (!out.empty()) out += ' ';
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

void TraceChannel::sent(std::span<const std::uint8_t> bytes) const {
    if (enabled()) emit(name_ + " > " + hex_bytes(bytes));
}
void TraceChannel::received(std::span<const std::uint8_t> bytes) const {
    if (enabled()) emit(name_ + " < " + hex_bytes(bytes));
}
void TraceChannel::note(std::string_view text) const {
    if (enabled()) emit(name_ + " : " + std::string(text));
}

TraceChannel& trace_channel(std::string_view category) {
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    auto it = r.channels.find(category);
    if (it == r.channels.end()) {
        auto ch = std::make_unique<TraceChannel>(std::string(category));
        ch->set_enabled(r.all);
        it = r.channels.emplace(std::string(category), std::move(ch)).first;
    }
    return *it->second;
}

bool enable_traces(std::string_view list) {
    bool any = false;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        if (item.empty()) continue;
        any = true;
        if (item == "all") {
            auto& r = registry();
            const std::lock_guard lock(r.mutex);
            r.all = true;
            for (auto& [name, ch] : r.channels) ch->set_enabled(true);
        } else {
            trace_channel(item).set_enabled(true);
        }
    }
    return any;
}

void disable_traces() {
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    r.all = false;
    for (auto& [name, ch] : r.channels) ch->set_enabled(false);
}

void set_trace_sink(std::function<void(std::string_view line)> sink) {
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    r.sink = std::move(sink);
}

} // namespace eboard::drivers
