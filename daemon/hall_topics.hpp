// The topics and payloads eboardd publishes to the hall's broker (docs/hall.md; interfaces.md,
// "The tournament hall"):
//   eboard/v1/<host>/<board>/<class>   every event, class in lower case (QoS 1, not retained)
//   eboard/v1/<host>/<board>/state     the board's last state (retained)
//   eboard/v1/<host>/status            online / offline (retained; offline is the will)
//   eboard/v1/<host>/received          eboard-hub's mark: the host's messages it has committed
//                                      (retained, published by the hub; --mqtt-confirm)
// A host or board name is one topic level: the bytes that would break the topic tree ('/' and
// the wildcards '+' and '#'), '%' itself, control bytes (NUL among them) and, in a name that is
// not UTF-8, every byte from 0x80, are written as %XX (upper-case hex), as in a URL. The
// payloads carry the names unescaped.
#pragma once

#include <cstdint>
#include <optional>
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

/// `eboard/v1/<host>/received`: the hub's end-to-end confirmation (docs/hall.md).
[[nodiscard]] std::string received_topic(std::string_view host);

/// `payload` (a JSON object) with `"outbox":<outbox_id>,"seq":<seq>` added as its last fields:
/// the outbox row it was sent from, which a `received` mark names (with --mqtt-confirm).
[[nodiscard]] std::string with_outbox_seq(std::string_view payload, std::string_view outbox_id, std::int64_t seq);

/// A `received` mark: the hub has committed every message of `host` from the outbox `outbox`
/// up to and including row `seq`; also the row a payload names (read_outbox_seq()).
struct ReceivedMark {
    std::string host;
    std::string outbox;
    std::int64_t seq = 0;
};

/// The payload of a mark: {"host","outbox","seq"}.
[[nodiscard]] std::string received_payload(const ReceivedMark& mark);

/// The outbox row a payload names ("host", "outbox" and "seq" fields: with_outbox_seq()), or a
/// mark's payload; nullopt when it names none.
[[nodiscard]] std::optional<ReceivedMark> read_outbox_seq(std::string_view payload);

/// The mark after the subscriber committed `row`, or nullopt when `row` does not move `mark`
/// (nullopt: none yet). A host's rows are numbered without a gap (eboardd's outbox) and arrive
/// in order, but a broker may drop some (lost in a crash, or published while the subscriber's
/// session was gone): the mark moves only to the row right after it, so that it never covers a
/// row that did not arrive; the first row of a host, or of another outbox (a store made anew),
/// starts the mark.
[[nodiscard]] std::optional<ReceivedMark> next_mark(const std::optional<ReceivedMark>& mark, const ReceivedMark& row);

} // namespace eboard::daemon
