#include "access/information.hpp"

#include <array>
#include <charconv>
#include <vector>

namespace eboard::access {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

std::optional<int> to_int(std::string_view s) {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return v;
}

void add_count(std::string& out, std::int64_t n, const std::array<std::string_view, 2>& unit) {
    if (!out.empty()) out += ' ';
    out += std::to_string(n);
    out += ' ';
    out += unit[n == 1 ? 0 : 1];
}

/// The occupied squares among `squares` with their pieces, or the `empty` word.
std::string scan(const Position& pos, const std::array<Square, 8>& squares, Vocabulary v) {
    std::string out;
    for (const Square s : squares) {
        const Piece p = pos.piece_on(s);
        if (p == Piece::None) continue;
        if (!out.empty()) out += ", ";
        out += square_words(s, v);
        out += ", ";
        out += colored_piece_words(p, v);
    }
    return out.empty() ? std::string(words(v).empty) : out;
}

} // namespace

Expected<InfoRequest> parse_info_request(std::string_view text) {
    text = trim(text);
    const auto space = text.find(' ');
    const std::string_view verb = text.substr(0, space);
    const std::string_view arg =
        space == std::string_view::npos ? std::string_view{} : trim(text.substr(space + 1));
    InfoRequest r;
    using K = InfoRequest::Kind;
    if (verb == "clocks" || verb == "clock") {
        r.kind = K::Clocks;
    } else if (verb == "moves") {
        r.kind = K::Moves;
    } else if (verb == "position") {
        r.kind = K::Position;
    } else if (verb == "last") {
        r.kind = K::Last;
        if (!arg.empty()) {
            const auto n = to_int(arg);
            if (!n || *n < 1 || *n > 200) return Error{"bad count '" + std::string(arg) + "'"};
            r.count = *n;
        }
    } else if (verb == "square") {
        r.kind = K::Square;
        r.square = Square::parse(arg);
        if (!r.square.valid()) return Error{"bad square '" + std::string(arg) + "'"};
    } else if (verb == "rank") {
        r.kind = K::Rank;
        const auto n = to_int(arg);
        if (!n || *n < 1 || *n > 8) return Error{"bad rank '" + std::string(arg) + "'"};
        r.index = *n - 1;
    } else if (verb == "file") {
        r.kind = K::File;
        if (arg.size() != 1 || arg[0] < 'a' || arg[0] > 'h')
            return Error{"bad file '" + std::string(arg) + "'"};
        r.index = arg[0] - 'a';
    } else {
        return Error{"unknown request '" + std::string(text) + "'"};
    }
    return r;
}

std::optional<InfoRequest> info_request_for_button(int button) noexcept {
    using K = InfoRequest::Kind;
    switch (button) {
    case 0:
        return InfoRequest{K::Clocks, 1, 0, Square::none()};
    case 1:
        return InfoRequest{K::Moves, 1, 0, Square::none()};
    case 2:
        return InfoRequest{K::Last, 1, 0, Square::none()};
    case 3:
        return InfoRequest{K::Last, 4, 0, Square::none()};
    default:
        return std::nullopt;
    }
}

std::string time_words(std::int64_t ms, Vocabulary v) {
    const Words& w = words(v);
    const std::int64_t total = ms < 0 ? 0 : ms / 1000;
    const std::int64_t h = total / 3600, m = total / 60 % 60, s = total % 60;
    std::string out;
    if (h > 0) add_count(out, h, w.hours);
    if (m > 0) add_count(out, m, w.minutes);
    add_count(out, s, w.seconds);
    return out;
}

std::string clocks_text(std::int64_t white_ms, std::int64_t black_ms, Vocabulary v) {
    const Words& w = words(v);
    return std::string(w.white) + ' ' + time_words(white_ms, v) + ", " + std::string(w.black) +
           ' ' + time_words(black_ms, v);
}

std::string moves_text(const Position& current, Vocabulary v) {
    const Words& w = words(v);
    return std::string(w.move) + ' ' + std::to_string(current.fullmove_number()) + ", " +
           std::string(current.side_to_move() == Color::White ? w.white_to_move : w.black_to_move);
}

std::string last_moves_text(const Position& current, int count, const AnnounceOptions& options) {
    const Words& w = words(options.vocabulary);
    Position pos = current.copy();
    std::vector<Move> moves;
    while (static_cast<int>(moves.size()) < count && pos.history_size() > 0) {
        moves.push_back(pos.last_move());
        pos.unmake_move();
    }
    if (moves.empty()) return std::string(w.no_moves);
    std::string out;
    for (auto it = moves.rbegin(); it != moves.rend(); ++it) {
        if (!out.empty()) out += ' ';
        out += std::string(w.move) + ' ' + std::to_string(pos.fullmove_number()) + ", " +
               std::string(pos.side_to_move() == Color::White ? w.white : w.black) + ": " +
               announce_move(pos, *it, options) + '.';
        pos.make_move(*it);
    }
    return out;
}

std::string position_text(const Position& current, Vocabulary v) {
    const Words& w = words(v);
    static constexpr std::array<PieceType, 6> kOrder = {PieceType::King,   PieceType::Queen,
                                                        PieceType::Rook,   PieceType::Bishop,
                                                        PieceType::Knight, PieceType::Pawn};
    std::string out;
    for (const Color c : {Color::White, Color::Black}) {
        if (!out.empty()) out += ". ";
        out += c == Color::White ? w.white : w.black;
        out += ':';
        bool first = true;
        for (const PieceType t : kOrder)
            for (int i = 0; i < 64; ++i) {
                const Square s(i);
                if (current.piece_on(s) != make_piece(c, t)) continue;
                out += first ? " " : ", ";
                first = false;
                out += piece_words(t, v);
                out += ' ';
                out += square_words(s, v);
            }
    }
    return out + '.';
}

std::string square_text(const Position& current, Square s, Vocabulary v) {
    const Piece p = current.piece_on(s);
    return square_words(s, v) + ", " +
           std::string(p == Piece::None ? words(v).empty : colored_piece_words(p, v));
}

std::string rank_text(const Position& current, int rank, Vocabulary v) {
    std::array<Square, 8> squares{};
    for (int f = 0; f < 8; ++f) squares[static_cast<std::size_t>(f)] = Square::at(f, rank);
    return std::string(words(v).rank_word) + ' ' +
           std::string(words(v).rank[static_cast<std::size_t>(rank)]) + ": " +
           scan(current, squares, v);
}

std::string file_text(const Position& current, int file, Vocabulary v) {
    std::array<Square, 8> squares{};
    for (int r = 0; r < 8; ++r) squares[static_cast<std::size_t>(r)] = Square::at(file, r);
    return std::string(words(v).file_word) + ' ' +
           std::string(words(v).file[static_cast<std::size_t>(file)]) + ": " +
           scan(current, squares, v);
}

std::string answer_info_request(const InfoRequest& request, const Position& current,
                                std::optional<std::int64_t> white_ms,
                                std::optional<std::int64_t> black_ms,
                                const AnnounceOptions& options) {
    const Vocabulary v = options.vocabulary;
    using K = InfoRequest::Kind;
    switch (request.kind) {
    case K::Clocks:
        if (white_ms && black_ms) return clocks_text(*white_ms, *black_ms, v);
        return moves_text(current, v);
    case K::Moves:
        return moves_text(current, v);
    case K::Last:
        return last_moves_text(current, request.count, options);
    case K::Position:
        return position_text(current, v);
    case K::Square:
        return square_text(current, request.square, v);
    case K::Rank:
        return rank_text(current, request.index, v);
    case K::File:
        return file_text(current, request.index, v);
    }
    return {};
}

} // namespace eboard::access
