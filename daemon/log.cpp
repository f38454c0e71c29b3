#include "daemon/log.hpp"

#include <unistd.h>

#include <string>

namespace eboard::daemon {

void log(Priority priority, std::string_view text) noexcept {
    try {
        std::string line;
        line.reserve(text.size() + 4);
        line.push_back('<');
        line.push_back(static_cast<char>('0' + static_cast<int>(priority)));
        line.push_back('>');
        // One line whatever the text: a control character (a newline from a client's board
        // name would forge a "<0>" line, issue 26) is written escaped, "\n" or "\xNN".
        static constexpr char kHex[] = "0123456789abcdef";
        for (const char c : text) {
            const auto u = static_cast<unsigned char>(c);
            if (u >= 0x20 && u != 0x7f) line.push_back(c);
            else if (c == '\n') line.append("\\n");
            else if (c == '\t') line.append("\\t");
            else if (c == '\r') line.append("\\r");
            else {
                line.append("\\x");
                line.push_back(kHex[u >> 4]);
                line.push_back(kHex[u & 0xf]);
            }
        }
        line.push_back('\n');
        std::size_t done = 0;
        while (done < line.size()) {
            const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
            if (n <= 0) return;
            done += static_cast<std::size_t>(n);
        }
    } catch (...) {
        // Out of memory while logging: nothing sensible left to do.
    }
}

} // namespace eboard::daemon
