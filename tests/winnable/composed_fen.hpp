// A position read from a FEN with FenMaterial::Composed (docs/winnability.md, "Composed
// positions"), for the winnability tests; the test fails if the FEN is refused.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "rules/position.hpp"

inline eboard::Position composed(const std::string& text) {
    auto p = eboard::Position::from_fen(text, false, eboard::FenMaterial::Composed);
    INFO(text);
    REQUIRE(p.has_value());
    return std::move(p).value();
}
