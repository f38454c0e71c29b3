// libFuzzer target: the PGN TimeControl parser (rules/time_control.hpp), which reads the
// `TimeControl` tag of PGN files, `--time-control` and the `time-control` of the configuration
// file. Any bytes in; an Error names a column inside the text; whatever parses must format and
// parse back equal, and the period lookups must stay in range.
#include "rules/time_control.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {
void check(bool ok) {
    if (!ok) std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto tc = eboard::parse_time_control(text);
    if (!tc) {
        const auto& e = tc.error();
        check(!e.message.empty() && e.column >= 0 && static_cast<std::size_t>(e.column) <= size + 1);
        return 0;
    }
    const auto again = eboard::parse_time_control(eboard::format_time_control(*tc));
    check(again.has_value() && *again == *tc);
    const int n = static_cast<int>(tc->periods.size());
    for (int move : {1, 2, 40, 41, 1000, 1 << 20}) {
        const int p = tc->period_of_move(move);
        check(n == 0 ? p == -1 : (p >= 0 && p < n));
    }
    for (int i = 0; i < n; ++i) check(tc->first_move_of_period(i) >= 0);
    return 0;
}
