// The RESULT request speaks the RESULT event's termination vocabulary (rules/game.hpp
// to_string(Termination)): the canonical words pass, the earlier spellings are read and
// answered canonically, anything else is refused with the list.
#include <catch2/catch.hpp>

#include "daemon/commands.hpp"

using namespace eboard::daemon;

namespace {

eboard::Expected<Request> result_request(const char* termination) {
    ojson j{{"class", "RESULT"}, {"board", "t1"}, {"result", "1-0"}};
    if (termination) j["termination"] = termination;
    return parse_request(j);
}

std::string termination_of(const char* termination) {
    auto r = result_request(termination);
    REQUIRE(r.has_value());
    const auto* rr = std::get_if<ResultRequest>(&*r);
    REQUIRE(rr != nullptr);
    return rr->termination;
}

} // namespace

TEST_CASE("client api: RESULT termination: the canonical words, the earlier spellings read canonically") {
    CHECK(termination_of(nullptr) == "arbiter"); // the default: the arbiter's decision (8.7)
    for (const char* t : {"checkmate", "resignation", "agreement", "time_forfeit", "illegal_moves", "dead_position",
                          "threefold_repetition", "fifty_moves", "arbiter"})
        CHECK(termination_of(t) == t);
    CHECK(termination_of("arbiter decision") == "arbiter");
    CHECK(termination_of("time forfeit") == "time_forfeit");
    CHECK(termination_of("rules infraction") == "illegal_moves");
    CHECK(termination_of("dead position") == "dead_position");
}

TEST_CASE("client api: RESULT with an unknown termination is refused with the vocabulary") {
    for (const char* t : {"normal", "kings in the centre", "because"}) {
        auto r = result_request(t);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().message.find("resignation, agreement") != std::string::npos);
    }
}
