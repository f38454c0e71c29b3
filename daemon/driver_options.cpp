#include "daemon/driver_options.hpp"

#include "rules/text.hpp"

namespace eboard::daemon {

Expected<DriverParams> parse_driver_options(std::string_view text) {
    DriverParams params;
    if (trim_blanks(text).empty()) return params;
    for (std::size_t at = 0; at <= text.size();) {
        std::size_t end = text.find(',', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view item = trim_blanks(text.substr(at, end - at));
        const auto eq = item.find('=');
        const std::string_view key = eq == std::string_view::npos ? item : trim_blanks(item.substr(0, eq));
        if (eq == std::string_view::npos || key.empty())
            return Error{"'" + std::string(item) + "' is not KEY=VALUE"};
        if (!params.emplace(std::string(key), std::string(trim_blanks(item.substr(eq + 1)))).second)
            return Error{"'" + std::string(key) + "' is given twice"};
        at = end + 1;
    }
    return params;
}

std::string uri_driver(std::string_view uri) {
    std::string name(uri.substr(0, uri.find(':')));
    if (name.rfind("emu-", 0) == 0) name.erase(0, 4);
    if (const auto dot = name.find('.'); dot != std::string::npos) name.resize(dot);
    return name;
}

Expected<DriverParams> configured_driver_options(const Config& config, const BoardConfig& board) {
    DriverParams params = board.driver_options;
    params.insert(config.driver_options.begin(), config.driver_options.end()); // the board's win
    const drivers::DriverInfo* info = drivers::find_driver(uri_driver(board.uri));
    if (!info || params.empty()) return params;
    drivers::DriverOptions o;
    o.params = params;
    if (auto ok = drivers::check_configured_options(*info, o); !ok)
        return Error{"board " + board.name + ": driver-options: " + ok.error().message};
    return params;
}

Expected<bool> check_driver_options(const Config& config) {
    for (const auto& b : config.boards)
        if (auto ok = configured_driver_options(config, b); !ok) return ok.error();
    return true;
}

drivers::DriverOptions merge_driver_options(drivers::DriverOptions learned, const DriverParams& configured,
                                            DriverParams& overridden) {
    for (const auto& [key, value] : configured) {
        auto [it, fresh] = learned.params.try_emplace(key, value);
        if (fresh || it->second == value) continue;
        overridden[key] = it->second;
        it->second = value;
    }
    return learned;
}

std::string driver_options_summary() {
    std::string s;
    for (const auto* d : drivers::all_drivers()) {
        std::string line;
        for (const auto& o : d->options) {
            if (o.source == drivers::OptionSource::Daemon) continue;
            line += (line.empty() ? "" : ", ") + std::string(o.name) + "=" + std::string(o.values);
        }
        if (!line.empty()) s += "  " + std::string(d->name) + ": " + line + "\n";
    }
    return s;
}

namespace {
// A cell of a Markdown table: its `|` escaped (also inside code spans, as GFM wants).
std::string cell(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}
} // namespace

std::string driver_options_table() {
    std::string t = "| driver | option | values | meaning | set by |\n|---|---|---|---|---|\n";
    for (const auto* d : drivers::all_drivers())
        for (const auto& o : d->options) {
            const char* by = o.source == drivers::OptionSource::Config    ? "driver-options"
                             : o.source == drivers::OptionSource::Learned ? "driver-options, else learnt"
                                                                          : "eboardd only";
            t += "| " + std::string(d->name) + " | `" + std::string(o.name) + "` | `" + cell(o.values) + "` | " +
                 cell(o.meaning) + " | " + by + " |\n";
        }
    return t;
}

} // namespace eboard::daemon
