// The console's page (docs/console.md), compiled into the servers from console/page/.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace eboard::console {

/// A file of the page: its bytes and its Content-Type.
struct PageFile {
    std::string_view body;
    std::string_view content_type;
};

/// The file served at `path` ("/" is "/index.html"; "/console.js", "/console.css"), or nullopt.
std::optional<PageFile> page_file(std::string_view path);

namespace detail {
extern const std::pair<const char*, const char*> kPageFiles[];
extern const std::size_t kPageFileCount;
} // namespace detail

} // namespace eboard::console
