// Certabo RFID frames and piece identity (certabo-sentio.md 2.1 and 3): a frame's 320 numbers
// are the 5-byte tag ids of the 64 squares; which tag is which piece is learned from the start
// position (calibration). Pure functions and value types, no I/O. The line framing and LED
// commands are in drivers/line/protocol.hpp.
#pragma once

#include "drivers/core/board_state.hpp"
#include "base/expected.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::drivers::certabo {

/// A tag id as the board sends it: 5 numbers; all zero = nothing read (2.1).
using TagId = std::array<std::uint8_t, 5>;
inline constexpr TagId no_tag{};

/// The tag read on each square of a frame, indexed by eboard square (a1=0 .. h8=63).
using TagBoard = std::array<TagId, 64>;

/// The 320 numbers of a frame (a8 first, 2.1) as tags by eboard square; `rotated`: the board
/// stands turned round.
[[nodiscard]] TagBoard tags_of(std::span<const std::uint8_t, 320> numbers, bool rotated) noexcept;
/// The 320 numbers of a frame showing `tags` (for the emulator).
[[nodiscard]] std::array<std::uint8_t, 320> numbers_of(const TagBoard& tags, bool rotated) noexcept;
/// "3 0 84 252 153".
[[nodiscard]] std::string tag_text(const TagId& id);

/// Which tag id belongs to which piece (3.1). Several ids may name one piece (eight pawns, a
/// second set); an id not in the map reads as an empty square (3.2, certabo-lichess).
class Calibration {
  public:
    /// Maps `id` to `p` (replacing an earlier mapping of that id).
    void add(const TagId& id, Piece p) { map_[id] = p; }
    /// The piece of `id`; Piece::None for no_tag and for ids it does not know.
    [[nodiscard]] Piece piece(const TagId& id) const;
    [[nodiscard]] std::size_t size() const noexcept { return map_.size(); }
    [[nodiscard]] bool empty() const noexcept { return map_.empty(); }
    /// The board a frame shows: the known pieces, unknown ids as empty squares.
    [[nodiscard]] BoardReading board(const TagBoard& tags) const;

    /// One line per id, "3 0 84 252 153 P" (FEN letter), sorted by id: the file a daemon keeps
    /// per board (3.1; key it by the board's USB serial number, not the tty name).
    [[nodiscard]] std::string to_text() const;
    /// Parses to_text()'s format; blank lines and lines starting with '#' are skipped. Errors
    /// name the line.
    [[nodiscard]] static Expected<Calibration> from_text(std::string_view text);

    bool operator==(const Calibration&) const = default;

  private:
    std::map<TagId, Piece> map_;
};

/// Learns a Calibration from frames of the start position (3.1, picochess's rule): once at
/// least `min_frames` frames are in, each of the 32 start squares must hold one tag in more
/// than half of them; d3 and d6 may hold a spare white and black queen. A tag read on two
/// squares of one frame is sensor noise (a tag is on one square at a time; the official
/// simulator reports `0 0 56 0 0` on most empty squares) and never learned. After
/// `max_frames` without success it reports the failure once and keeps the last
/// `keep_after_failure` frames.
class Calibrator {
  public:
    struct Options {
        std::size_t min_frames = 7, max_frames = 15, keep_after_failure = 10;
    };
    enum class Result : std::uint8_t { Collecting, Done, Failed };

    Calibrator() : Calibrator(Options{}) {}
    explicit Calibrator(const Options& o) : opt_(o) {}

    /// Adds a frame. Done: result() holds the calibration; Failed: problem() says why (then
    /// collecting goes on).
    Result push(const TagBoard& tags);
    [[nodiscard]] const Calibration& result() const noexcept { return result_; }
    /// What is missing, e.g. "no steady tag on e1 (set up the start position)".
    [[nodiscard]] const std::string& problem() const noexcept { return problem_; }
    /// Forgets the frames collected so far.
    void clear() { frames_.clear(); }

  private:
    [[nodiscard]] bool attempt();

    Options opt_;
    std::deque<TagBoard> frames_;
    Calibration result_;
    std::string problem_;
};

} // namespace eboard::drivers::certabo
