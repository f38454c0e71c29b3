// Helpers of the winnability tests: a position read as composed material (FenMaterial::Composed,
// as eboard-winnable reads every FEN) and its two-letter label in a mode.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "rules/position.hpp"
#include "rules/winnable.hpp"

inline eboard::Position composed(const std::string& text) {
    auto p = eboard::Position::from_fen(text, false, eboard::FenMaterial::Composed);
    INFO(text);
    REQUIRE(p.has_value());
    return std::move(p).value();
}

inline std::string label(const std::string& fen, eboard::WinnableMode mode) {
    return eboard::winnability_label(composed(fen), mode);
}
