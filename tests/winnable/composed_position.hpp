// A position of the winnability tests, read as a composed position (FenMaterial::Composed, as
// eboard-winnable reads every FEN: docs/winnability.md), the test failing where it is refused.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "rules/position.hpp"

namespace eboard::test {

inline Position composed(const std::string& text) {
    auto p = Position::from_fen(text, false, FenMaterial::Composed);
    INFO(text);
    REQUIRE(p.has_value());
    return std::move(p).value();
}

} // namespace eboard::test
