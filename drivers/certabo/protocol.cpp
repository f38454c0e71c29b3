#include "drivers/certabo/protocol.hpp"

#include "drivers/line/protocol.hpp"

#include <set>
#include <sstream>

namespace eboard::drivers::certabo {

TagBoard tags_of(std::span<const std::uint8_t, 320> numbers, bool rotated) noexcept {
    TagBoard tags{};
    for (int k = 0; k < 64; ++k) {
        TagId id{};
        for (std::size_t j = 0; j < 5; ++j) id[j] = numbers[5 * static_cast<std::size_t>(k) + j];
        tags[static_cast<std::size_t>(line::square_of_index(k, rotated).index())] = id;
    }
    return tags;
}

std::array<std::uint8_t, 320> numbers_of(const TagBoard& tags, bool rotated) noexcept {
    std::array<std::uint8_t, 320> n{};
    for (int k = 0; k < 64; ++k) {
        const TagId& id = tags[static_cast<std::size_t>(line::square_of_index(k, rotated).index())];
        for (std::size_t j = 0; j < 5; ++j) n[5 * static_cast<std::size_t>(k) + j] = id[j];
    }
    return n;
}

std::string tag_text(const TagId& id) {
    std::string s;
    for (const std::uint8_t b : id) {
        if (!s.empty()) s += ' ';
        s += std::to_string(b);
    }
    return s;
}

Piece Calibration::piece(const TagId& id) const {
    const auto it = map_.find(id);
    return it == map_.end() ? Piece::None : it->second;
}

BoardReading Calibration::board(const TagBoard& tags) const {
    BoardReading b;
    for (int i = 0; i < 64; ++i) b.set(Square(i), piece(tags[static_cast<std::size_t>(i)]));
    return b;
}

std::string Calibration::to_text() const {
    std::string out;
    for (const auto& [id, p] : map_) out += tag_text(id) + ' ' + piece_to_char(p) + '\n';
    return out;
}

Expected<Calibration> Calibration::from_text(std::string_view text) {
    Calibration c;
    std::istringstream in{std::string(text)};
    std::string row;
    int line = 0;
    while (std::getline(in, row)) {
        ++line;
        if (row.empty() || row[0] == '#') continue;
        std::istringstream f(row);
        TagId id{};
        for (auto& b : id) {
            int v = -1;
            if (!(f >> v) || v < 0 || v > 255) return Error{"calibration: expected 5 numbers 0..255", line, 0};
            b = static_cast<std::uint8_t>(v);
        }
        std::string letter, rest;
        if (!(f >> letter) || letter.size() != 1 || piece_from_char(letter[0]) == Piece::None || (f >> rest))
            return Error{"calibration: expected a piece letter (PNBRQKpnbrqk) after the id", line, 0};
        if (id == no_tag) return Error{"calibration: 0 0 0 0 0 means no tag", line, 0};
        c.add(id, piece_from_char(letter[0]));
    }
    return c;
}

namespace {

/// The squares calibration reads (3.1): the 32 of the start position, then the spare queens.
struct Home {
    Square square;
    Piece piece;
    bool optional;
};

std::vector<Home> home_squares() {
    std::vector<Home> h;
    const BoardReading start = BoardReading::start_position();
    for (int i = 0; i < 64; ++i)
        if (start.at(Square(i)).occupied) h.push_back({Square(i), start.at(Square(i)).piece, false});
    h.push_back({Square::parse("d3"), Piece::WQueen, true});
    h.push_back({Square::parse("d6"), Piece::BQueen, true});
    return h;
}

/// Tags read on more than one square of a frame: noise, not pieces.
std::set<TagId> repeated_tags(const TagBoard& tags) {
    std::map<TagId, int> count;
    for (const TagId& t : tags)
        if (t != no_tag) ++count[t];
    std::set<TagId> out;
    for (const auto& [t, n] : count)
        if (n > 1) out.insert(t);
    return out;
}

} // namespace

Calibrator::Result Calibrator::push(const TagBoard& tags) {
    frames_.push_back(tags);
    if (frames_.size() >= opt_.min_frames && attempt()) {
        frames_.clear();
        return Result::Done;
    }
    if (frames_.size() < opt_.max_frames) return Result::Collecting;
    while (frames_.size() > opt_.keep_after_failure) frames_.pop_front();
    return Result::Failed;
}

bool Calibrator::attempt() {
    std::vector<std::set<TagId>> noise;
    for (const auto& f : frames_) noise.push_back(repeated_tags(f));
    Calibration c;
    std::set<TagId> used;
    for (const Home& h : home_squares()) {
        std::map<TagId, std::size_t> votes;
        for (std::size_t i = 0; i < frames_.size(); ++i) {
            const TagId& t = frames_[i][static_cast<std::size_t>(h.square.index())];
            if (t != no_tag && !noise[i].count(t)) ++votes[t];
        }
        const TagId* steady = nullptr;
        for (const auto& [t, n] : votes)
            if (2 * n > frames_.size()) steady = &t;
        if (!steady || used.count(*steady)) {
            if (h.optional) continue;
            problem_ = std::string(steady ? "the same tag on two squares, e.g. " : "no steady tag on ") +
                       h.square.name() + " (set up the start position)";
            return false;
        }
        used.insert(*steady);
        c.add(*steady, h.piece);
    }
    result_ = std::move(c);
    problem_.clear();
    return true;
}

} // namespace eboard::drivers::certabo
