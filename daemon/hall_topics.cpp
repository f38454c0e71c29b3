#include "daemon/hall_topics.hpp"

#include <nlohmann/json.hpp>

namespace eboard::daemon {

namespace {

// Whether `s` is UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool is_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = 0;
        unsigned lo = 0x80;
        unsigned hi = 0xbf;
        if (c < 0x80) len = 1;
        else if (c >= 0xc2 && c <= 0xdf) len = 2;
        else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            if (c == 0xe0) lo = 0xa0;
            if (c == 0xed) hi = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            if (c == 0xf0) lo = 0x90;
            if (c == 0xf4) hi = 0x8f;
        } else {
            return false;
        }
        if (i + len > s.size()) return false;
        for (std::size_t k = 1; k < len; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xbf)) return false;
        }
        i += len;
    }
    return true;
}

} // namespace

std::string topic_level(std::string_view name) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    const bool utf8 = is_utf8(name);
    std::string out;
    out.reserve(name.size());
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '/' || c == '+' || c == '#' || c == '%' || c < 0x20 || c == 0x7f || (!utf8 && c >= 0x80)) {
            out += '%';
            out += kHex[c >> 4U];
            out += kHex[c & 0xfU];
        } else {
            out += ch;
        }
    }
    return out;
}

std::string event_topic(std::string_view host, std::string_view board, std::string_view event_class) {
    std::string t = "eboard/v1/" + topic_level(host) + "/" + topic_level(board) + "/";
    for (const char c : event_class) t += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return t;
}

std::string state_topic(std::string_view host, std::string_view board) {
    return "eboard/v1/" + topic_level(host) + "/" + topic_level(board) + "/state";
}

std::string received_topic(std::string_view host) { return "eboard/v1/" + topic_level(host) + "/received"; }

std::string with_outbox_seq(std::string_view payload, std::string_view outbox_id, std::int64_t seq) {
    const std::size_t close = payload.rfind('}');
    if (close == std::string_view::npos) return std::string(payload);
    std::string out(payload.substr(0, close));
    out += out.size() > 1 ? ",\"outbox\":" : "\"outbox\":";
    out += nlohmann::json(std::string(outbox_id)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += ",\"seq\":" + std::to_string(seq) + "}";
    return out;
}

std::string received_payload(const ReceivedMark& mark) {
    const nlohmann::ordered_json j{{"host", mark.host}, {"outbox", mark.outbox}, {"seq", mark.seq}};
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::optional<ReceivedMark> read_outbox_seq(std::string_view payload) {
    const auto j = nlohmann::json::parse(payload, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    const auto host = j.find("host");
    const auto outbox = j.find("outbox");
    const auto seq = j.find("seq");
    if (host == j.end() || !host->is_string() || outbox == j.end() || !outbox->is_string() || seq == j.end() ||
        !seq->is_number_integer())
        return std::nullopt;
    return ReceivedMark{host->get<std::string>(), outbox->get<std::string>(), seq->get<std::int64_t>()};
}

std::optional<ReceivedMark> next_mark(const std::optional<ReceivedMark>& mark, const ReceivedMark& row) {
    if (!mark || mark->outbox != row.outbox || row.seq == mark->seq + 1) return row;
    return std::nullopt;
}

std::string status_topic(std::string_view host) { return "eboard/v1/" + topic_level(host) + "/status"; }

std::string event_payload(std::string_view line, std::string_view host) {
    const std::size_t close = line.rfind('}');
    if (close == std::string_view::npos) return std::string(line);
    std::string out(line.substr(0, close));
    // An object with at least `class`: a comma always goes before the new field.
    out += out.size() > 1 ? ",\"host\":" : "\"host\":";
    out += nlohmann::json(std::string(host)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '}';
    return out;
}

} // namespace eboard::daemon
