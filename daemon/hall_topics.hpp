// The topics and payloads eboardd publishes to the hall's broker (docs/hall.md; interfaces.md,
// "The tournament hall"):
//   eboard/v1/<host>/<board>/<class>   every event, class in lower case (QoS 1, not retained)
//   eboard/v1/<host>/<board>/state     the board's last state (retained)
//   eboard/v1/<host>/status            online / offline (retained; offline is the will)
// A host or board name is one topic level: the bytes that would break the topic tree ('/' and
// the wildcards '+' and '#'), '%' itself, control bytes (NUL among them) and, in a name that is
// not UTF-8, every byte from 0x80, are written as %XX (upper-case hex), as in a URL. The
// payloads carry the names unescaped.
#pragma once

#include <string>
#include <string_view>

namespace eboard::daemon {

/// `name` as one topic level (see above): "dgt:/dev/ttyACM0" -> "dgt:%2Fdev%2FttyACM0".
[[nodiscard]] std::string topic_level(std::string_view name);

/// `eboard/v1/<host>/<board>/<class>` with `event_class` ("MOVE", ...) in lower case.
[[nodiscard]] std::string event_topic(std::string_view host, std::string_view board, std::string_view event_class);

/// `eboard/v1/<host>/<board>/state`.
[[nodiscard]] std::string state_topic(std::string_view host, std::string_view board);

/// `eboard/v1/<host>/status`.
[[nodiscard]] std::string status_topic(std::string_view host);

/// The payload of an event: its JSON line as on --events (`line`, a JSON object, its '\n'
/// included or not) with `"host":<host>` added as its last field.
[[nodiscard]] std::string event_payload(std::string_view line, std::string_view host);

} // namespace eboard::daemon
