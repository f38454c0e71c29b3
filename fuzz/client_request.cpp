// libFuzzer target: client API request lines (daemon/commands.hpp decode_request_line,
// docs/client-api.md) on any bytes, split at '\n' as the socket server splits them. Each line
// decodes to a request or to an ERROR reply (or to nothing when blank), never an exception;
// every reply serializes to one line even when the request echoed bytes that are not UTF-8.
#include "daemon/commands.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace eboard::daemon;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

// One reply line: non-empty, a single line, valid JSON again.
void check_line(const ojson& reply) {
    const std::string l = reply_line(reply);
    check(l.size() > 1 && l.back() == '\n' && l.find('\n') == l.size() - 1);
    check(!ojson::parse(l, nullptr, false).is_discarded());
}

void decode(std::string_view line) {
    const DecodedLine in = decode_request_line(line);
    if (!in.request) {
        if (in.error.is_null()) {
            check(line.find_first_not_of(" \t\r\n") == std::string_view::npos);
            return;
        }
        check(in.error.value("class", "") == "ERROR" && !in.error.value("message", "").empty() &&
              !in.error.value("code", "").empty());
        check_line(in.error);
        return;
    }
    check(in.error.is_null() && in.raw.is_object());
    check(in.raw.value("class", "") == request_class(*in.request));
    check_line(ok_reply(in.raw));
    check_line(watch_reply(true, in.raw));
    check_line(error_reply(ErrorCode::Refused, "refused", in.raw));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    decode(input); // the whole input as one line (a client that never sends '\n' until EOF)
    while (!input.empty()) {
        const std::size_t eol = input.find('\n');
        decode(input.substr(0, eol == std::string_view::npos ? eol : eol + 1));
        input = eol == std::string_view::npos ? std::string_view{} : input.substr(eol + 1);
    }
    return 0;
}
