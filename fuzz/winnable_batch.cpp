// libFuzzer target over eboard-winnable --batch input: the bytes are split into lines as the
// tool does, each line is read as FEN (standard and Chess960) and, when valid, its quick
// winnability label is computed. Must never crash, hang or leak; a label is always two of
// "W-?" then "B-?".
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/position.hpp"
#include "rules/winnable.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    int lines = 0;
    while (!input.empty() && lines++ < 8) {
        const std::size_t eol = input.find('\n');
        std::string_view line = input.substr(0, eol);
        input = eol == std::string_view::npos ? std::string_view{} : input.substr(eol + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        for (const bool chess960 : {false, true}) {
            auto parsed = eboard::Position::from_fen(line, chess960);
            if (!parsed) continue;
            const std::string label = eboard::winnability_label(parsed.value());
            if (label.size() != 2 || std::string_view("W-?").find(label[0]) == std::string_view::npos ||
                std::string_view("B-?").find(label[1]) == std::string_view::npos)
                std::abort();
        }
    }
    return 0;
}
