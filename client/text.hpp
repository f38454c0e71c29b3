// What eboardctl prints for people (eboardctl(1)): one line per event, the lines of a reply.
// The fields are those of docs/client-api.md; a field a line needs and the object lacks is
// printed empty, never an error.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace eboard::client {

using ojson = nlohmann::ordered_json;

/// `key` of `j` as text: a string as it is, any other value as JSON, "" when absent.
[[nodiscard]] std::string text_of(const ojson& j, const char* key);

/// A clock time as the PGN `[%clk]` writes it: "h:mm:ss", whole seconds rounded down.
[[nodiscard]] std::string clock_text(std::int64_t ms);

/// The move number of a MOVE as the PGN writes it ("15. ", "8... "), from the FEN after the
/// move; the ply ("37. ") when the FEN does not tell.
[[nodiscard]] std::string move_number(const ojson& move);

/// One event as a line (no '\n'): "t1 20261122-0001  15. Nf3 (completed)  white 1:29:58 ...";
/// an event of a class it does not know as its JSON.
[[nodiscard]] std::string describe(const ojson& event);

/// A reply that is not an ERROR as the lines eboardctl prints (each ending in '\n'): BOARDS
/// and GAMES one line per board or game (tab-separated), INFO its text, ATTACH/DETACH what was
/// done, any other "ok" and the game.
[[nodiscard]] std::string reply_text(const ojson& reply);

} // namespace eboard::client
