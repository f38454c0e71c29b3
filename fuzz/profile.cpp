// libFuzzer target: the rules-profile parser (rules/profile.hpp, docs/profiles.md) on any
// bytes. It must never crash, and whatever it accepts must print (to_text) and read back equal.
#include "rules/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (bool supervised : {false, true}) {
        auto p = eboard::parse_profile(text, supervised);
        if (!p) {
            const eboard::Error& e = p.error();
            if (e.message.empty() || e.line < 0 || e.column < 0) std::abort();
            continue;
        }
        auto again = eboard::parse_profile(eboard::to_text(p.value()), supervised);
        if (!again || !(again.value() == p.value())) std::abort();
    }
    return 0;
}
