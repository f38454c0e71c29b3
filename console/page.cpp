#include "console/page.hpp"

namespace eboard::console {

std::optional<PageFile> page_file(std::string_view path) {
    if (path == "/") path = "/index.html";
    for (std::size_t i = 0; i < detail::kPageFileCount; ++i) {
        const auto& [name, body] = detail::kPageFiles[i];
        if (path != name) continue;
        std::string_view type = "text/html; charset=utf-8";
        if (path.ends_with(".js")) type = "text/javascript; charset=utf-8";
        if (path.ends_with(".css")) type = "text/css; charset=utf-8";
        return PageFile{body, type};
    }
    return std::nullopt;
}

} // namespace eboard::console
