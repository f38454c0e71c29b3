// libFuzzer target over eboard-winnable --batch input: the bytes are split into lines as the
// tool does, and each line goes through winnability_label_of_fen() (the tool's own per-line
// function: FEN read as a composed position, then the quick label), standard and Chess960.
// Every eighth input also runs full mode on its first line. Must never crash, hang or leak;
// a label is always two of "W-?" then "B-?", and an error always says what is wrong.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/winnable.hpp"

namespace {

void check(std::string_view line, bool chess960, eboard::WinnableMode mode) {
    const auto label = eboard::winnability_label_of_fen(line, chess960, mode);
    if (!label) {
        if (label.error().message.empty()) std::abort();
        return;
    }
    const std::string& l = label.value();
    if (l.size() != 2 || std::string_view("W-?").find(l[0]) == std::string_view::npos ||
        std::string_view("B-?").find(l[1]) == std::string_view::npos)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    const bool full = size > 0 && data[0] % 8 == 0;
    int lines = 0;
    while (!input.empty() && lines++ < 8) {
        const std::size_t eol = input.find('\n');
        std::string_view line = input.substr(0, eol);
        input = eol == std::string_view::npos ? std::string_view{} : input.substr(eol + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        for (const bool chess960 : {false, true})
            check(line, chess960, full && lines == 1 ? eboard::WinnableMode::Full
                                                     : eboard::WinnableMode::Quick);
    }
    return 0;
}
