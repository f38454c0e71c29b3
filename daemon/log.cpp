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
        line.append(text);
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
