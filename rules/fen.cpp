// FEN, X-FEN and Shredder-FEN in and out, with validation that names what is wrong, and the
// standard and Chess960 initial positions.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "base/placement.hpp"
#include "rules/bitboard.hpp"
#include "rules/position.hpp"

namespace eboard {

using namespace bitboards;

namespace {

constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

std::string color_name(Color c) { return c == Color::White ? "white" : "black"; }

Error bad(std::string what) { return Error{std::move(what), 0, 0}; }

std::string quoted(std::string_view s) {
    std::string out = "'";
    for (char c : s.substr(0, 20)) {
        const auto u = static_cast<unsigned char>(c);
        out += (u >= 0x20 && u < 0x7f) ? c : '?';
    }
    if (s.size() > 20) out += "...";
    return out + "'";
}

/// Parses a non-negative decimal number up to `max`; false on anything else.
bool parse_count(std::string_view s, int max, int& out) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    int v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || v > max) return false;
    out = v;
    return true;
}

} // namespace

/// Builds a Position from FEN text field by field (friend of Position).
struct FenReader {
    static Expected<Position> read(std::string_view fen, bool chess960, FenMaterial material);
    static std::optional<Error> board(Position& p, std::string_view field);
    static std::optional<Error> material(const Position& p, FenMaterial rule);
    static std::optional<Error> castling(Position& p, std::string_view field);
    static std::optional<Error> castling_char(Position& p, char ch);
    static std::optional<Error> en_passant(Position& p, std::string_view field);
};

std::optional<Error> FenReader::board(Position& p, std::string_view field) {
    const auto board = read_placement(field);
    if (!board) return bad("bad FEN: " + board.error().message);
    for (int i = 0; i < 64; ++i)
        if (const Piece pc = board->at(Square(i)).piece; pc != Piece::None) p.put_piece(pc, Square(i));
    return std::nullopt;
}

std::optional<Error> FenReader::material(const Position& p, FenMaterial rule) {
    for (Color c : {Color::White, Color::Black}) {
        const int kings = popcount(p.pieces(c, PieceType::King));
        if (kings == 0) return bad("no " + color_name(c) + " king");
        if (kings > 1)
            return bad((kings == 2 ? std::string("two") : std::to_string(kings)) + " " +
                       color_name(c) + " kings");
    }
    const Bitboard pawns = p.pieces(PieceType::Pawn);
    if (pawns & kRank1) return bad("pawn on the first rank");
    if (pawns & kRank8) return bad("pawn on the eighth rank");
    for (Color c : {Color::White, Color::Black}) {
        const int n = popcount(p.pieces(c));
        const int pw = popcount(p.pieces(c, PieceType::Pawn));
        if (n > 16) return bad("more than 16 " + color_name(c) + " pieces");
        if (rule == FenMaterial::Composed) continue;
        if (pw > 8) return bad("more than 8 " + color_name(c) + " pawns");
        // Every piece beyond the initial set is a promoted pawn (Art. 3.7.5.1).
        const auto extra = [&](PieceType t, int initial) {
            return std::max(0, popcount(p.pieces(c, t)) - initial);
        };
        const int promoted = extra(PieceType::Queen, 1) + extra(PieceType::Rook, 2) +
                             extra(PieceType::Bishop, 2) + extra(PieceType::Knight, 2);
        if (pw + promoted > 8)
            return bad("too many " + color_name(c) + " pieces: " + std::to_string(pw) +
                       " pawns and " + std::to_string(promoted) + " promoted pieces");
    }
    return std::nullopt;
}

std::optional<Error> FenReader::castling_char(Position& p, char ch) {
    const Color c = std::isupper(static_cast<unsigned char>(ch)) ? Color::White : Color::Black;
    const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const int back = c == Color::White ? 0 : 7;
    const std::string rank_name = c == Color::White ? "first" : "eighth";
    const Square k = p.king_square(c);
    Square rook;
    if (!p.chess960_) {
        if (up != 'K' && up != 'Q' && up != 'A' && up != 'H')
            return bad("castling right " + std::string(1, ch) +
                       " is only possible in Chess960");
        rook = Square::at(up == 'K' || up == 'H' ? 7 : 0, back);
        if (k != Square::at(4, back))
            return bad("castling right without the " + color_name(c) + " king on " +
                       Square::at(4, back).name());
    } else {
        if (k.rank() != back)
            return bad("castling right without the " + color_name(c) + " king on the " +
                       rank_name + " rank");
        if (up == 'K' || up == 'Q') { // X-FEN: the outermost rook on that side
            const int step = up == 'K' ? -1 : 1;
            for (int f = up == 'K' ? 7 : 0; f != k.file(); f += step)
                if (p.piece_on(Square::at(f, back)) == make_piece(c, PieceType::Rook)) {
                    rook = Square::at(f, back);
                    break;
                }
            if (!rook.valid())
                return bad(std::string("castling right without a rook on the ") +
                           (up == 'K' ? "king" : "queen") + " side of the " + color_name(c) +
                           " king");
        } else {
            rook = Square::at(up - 'A', back);
        }
    }
    if (p.piece_on(rook) != make_piece(c, PieceType::Rook))
        return bad("castling right without a rook on " + rook.name());
    if (rook.file() == k.file()) return bad("castling right on the king's file");
    const bool king_side = rook.file() > k.file();
    if (p.st().castling & Position::right_bit(c, king_side))
        return bad("two " + color_name(c) + (king_side ? " king" : " queen") +
                   "-side castling rights");
    p.set_castling_right(c, rook);
    return std::nullopt;
}

std::optional<Error> FenReader::castling(Position& p, std::string_view field) {
    if (field == "-") return std::nullopt;
    for (char ch : field) {
        const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        if (!(up == 'K' || up == 'Q' || (up >= 'A' && up <= 'H')))
            return bad("bad FEN: unexpected " + printable(ch) + " in the castling rights");
        if (auto e = castling_char(p, ch)) return e;
    }
    return std::nullopt;
}

std::optional<Error> FenReader::en_passant(Position& p, std::string_view field) {
    if (field == "-") return std::nullopt;
    const Square ep = Square::parse(field);
    if (!ep.valid()) return bad("bad FEN: en passant square " + quoted(field));
    // The pawn of the side not to move has just advanced two squares across ep (Art. 3.7.3.1).
    const Color us = p.stm_;
    const int dir = us == Color::White ? 8 : -8;
    const Square pawn(ep.index() - dir);
    const Square origin(ep.index() + dir);
    if (ep.rank() != (us == Color::White ? 5 : 2) || p.piece_on(ep) != Piece::None ||
        p.piece_on(origin) != Piece::None ||
        p.piece_on(pawn) != make_piece(~us, PieceType::Pawn))
        return bad("impossible en passant square " + ep.name());
    p.st().ep = ep;
    return std::nullopt;
}

Expected<Position> FenReader::read(std::string_view fen, bool chess960, FenMaterial rule) {
    init_bitboards();
    std::array<std::string_view, 6> fields;
    std::size_t n = 0;
    std::size_t i = 0;
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (i < fen.size()) {
        while (i < fen.size() && space(fen[i])) ++i;
        if (i == fen.size()) break;
        const std::size_t start = i;
        while (i < fen.size() && !space(fen[i])) ++i;
        if (n == fields.size()) return bad("bad FEN: more than six fields");
        fields[n++] = fen.substr(start, i - start);
    }
    if (n == 0) return bad("bad FEN: empty");
    if (n < 2) return bad("bad FEN: no side to move");

    Position p;
    p.chess960_ = chess960;
    p.states_.reserve(16); // grows with the game (each board keeps several: memory budget)
    p.states_.emplace_back();
    if (auto e = board(p, fields[0])) return *e;
    if (fields[1] != "w" && fields[1] != "b")
        return bad("bad FEN: side to move " + quoted(fields[1]) + ", not w or b");
    p.stm_ = fields[1] == "w" ? Color::White : Color::Black;
    if (auto e = material(p, rule)) return *e;
    if (n > 2)
        if (auto e = castling(p, fields[2])) return *e;
    if (n > 3)
        if (auto e = en_passant(p, fields[3])) return *e;
    if (n > 4 && !parse_count(fields[4], 100000, p.st().halfmove))
        return bad("bad FEN: halfmove clock " + quoted(fields[4]));
    if (n > 5) {
        if (!parse_count(fields[5], 100000, p.fullmove_))
            return bad("bad FEN: move number " + quoted(fields[5]));
        if (p.fullmove_ == 0) p.fullmove_ = 1; // some writers start at 0
    }
    if (p.attackers_to(p.king_square(~p.stm_), p.stm_))
        return bad("side not to move is in check");
    p.finish_setup();
    if (rule == FenMaterial::Composed && move_count_bound(p) > static_cast<int>(MoveList::kCapacity))
        return bad("too many moves for the move generator (more than " +
                   std::to_string(MoveList::kCapacity) + ")");
    return p;
}

BoardReading board_reading(const Position& pos) noexcept {
    BoardReading board{};
    for (int i = 0; i < 64; ++i) board.set(Square(i), pos.piece_on(Square(i)));
    return board;
}

int move_count_bound(const Position& pos) noexcept {
    const Color us = pos.side_to_move();
    const Bitboard own = pos.pieces(us);
    const Bitboard occ = pos.occupied();
    const Bitboard pawns = pos.pieces(us, PieceType::Pawn);
    const Bitboard seventh = us == Color::White ? kRank7 : kRank2;
    int n = 2 + popcount(king_attacks(pos.king_square(us).index()) & ~own);  // 2: castling
    n += 4 * popcount(pawns & ~seventh) + 12 * popcount(pawns & seventh);
    for (Bitboard b = pos.pieces(us, PieceType::Knight); b;)
        n += popcount(knight_attacks(pop_lsb(b)) & ~own);
    const Bitboard queens = pos.pieces(us, PieceType::Queen);
    for (Bitboard b = pos.pieces(us, PieceType::Bishop) | queens; b;)
        n += popcount(bishop_attacks(pop_lsb(b), occ) & ~own);
    for (Bitboard b = pos.pieces(us, PieceType::Rook) | queens; b;)
        n += popcount(rook_attacks(pop_lsb(b), occ) & ~own);
    return n;
}

void Position::set_castling_right(Color c, Square rook) {
    const Square k = king_square(c);
    const bool king_side = rook.file() > k.file();
    const std::size_t i = right_index(c, king_side);
    const Square kto = Square::at(king_side ? 6 : 2, k.rank());
    const Square rto = Square::at(king_side ? 5 : 3, k.rank());
    // Guidelines II.3: every square between the king/rook and their final squares (those
    // included) must be empty except for the king and the castling rook themselves.
    castling_rooks_[i] = rook;
    castling_empty_[i] = (between(k.index(), kto.index()) | bb(kto) |
                          between(rook.index(), rto.index()) | bb(rto)) &
                         ~(bb(k) | bb(rook));
    // Art. 3.8.2.2: the king may not stand on, pass or land on an attacked square.
    castling_safe_[i] = between(k.index(), kto.index()) | bb(kto) | bb(k);
    castling_loss_[idx(k)] = static_cast<std::uint8_t>(castling_loss_[idx(k)] | right_bit(c, true) |
                                                       right_bit(c, false));
    castling_loss_[idx(rook)] = static_cast<std::uint8_t>(castling_loss_[idx(rook)] | right_bit(c, king_side));
    st().castling = static_cast<std::uint8_t>(st().castling | right_bit(c, king_side));
}

void Position::finish_setup() {
    State& s = st();
    s.key_noep = compute_key_noep();
    s.checkers = attackers_to(king_square(stm_), occupied()) & pieces(~stm_);
    s.key = s.key_noep ^ ep_key();
}

Expected<Position> Position::from_fen(std::string_view fen, bool chess960, FenMaterial material) {
    return FenReader::read(fen, chess960, material);
}

Position Position::startpos() { return std::move(from_fen(kStartFen).value()); }

Position Position::chess960_start(int number) {
    int n = ((number % 960) + 960) % 960;
    std::array<char, 8> rank{};
    const auto place_nth_empty = [&rank](int nth, char piece) {
        for (auto& c : rank)
            if (c == 0 && nth-- == 0) {
                c = piece;
                return;
            }
    };
    rank[static_cast<std::size_t>(2 * (n % 4) + 1)] = 'b'; // light-squared bishop: b, d, f, h
    n /= 4;
    rank[static_cast<std::size_t>(2 * (n % 4))] = 'b';     // dark-squared bishop: a, c, e, g
    n /= 4;
    place_nth_empty(n % 6, 'q');
    n /= 6;
    // Scharnagl's knight table: the two knights among the five remaining squares.
    static constexpr std::array<std::array<int, 2>, 10> knights{
        {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}};
    const auto& kn = knights[static_cast<std::size_t>(n)];
    place_nth_empty(kn[1], 'n'); // the later one first, so the earlier index is unaffected
    place_nth_empty(kn[0], 'n');
    place_nth_empty(0, 'r');
    place_nth_empty(0, 'k');
    place_nth_empty(0, 'r');
    std::string black(rank.begin(), rank.end());
    std::string white = black;
    for (char& c : white) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string fen = black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w KQkq - 0 1";
    return std::move(from_fen(fen, true).value());
}

namespace {
std::string board_field(const Position& p) { return write_placement(board_reading(p)); }

/// The castling field: shredder = file letters always; else K/Q where the rook is the
/// outermost one on its side (X-FEN), the file letter otherwise.
std::string castling_field(const Position& p, bool shredder) {
    std::string out;
    for (Color c : {Color::White, Color::Black}) {
        for (bool king_side : {true, false}) {
            const Square r = p.castling_rook(c, king_side);
            if (!r.valid()) continue;
            bool outermost = true;
            for (int f = king_side ? r.file() + 1 : 0; f < (king_side ? 8 : r.file()); ++f)
                if (p.piece_on(Square::at(f, r.rank())) == make_piece(c, PieceType::Rook))
                    outermost = false;
            char ch = (shredder || !outermost) ? static_cast<char>('A' + r.file())
                                               : (king_side ? 'K' : 'Q');
            if (c == Color::Black) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            out += ch;
        }
    }
    return out.empty() ? "-" : out;
}

std::string full_fen(const Position& p, bool shredder) {
    return board_field(p) + (p.side_to_move() == Color::White ? " w " : " b ") +
           castling_field(p, shredder) + " " + p.ep_square().name() + " " +
           std::to_string(p.halfmove_clock()) + " " + std::to_string(p.fullmove_number());
}
} // namespace

std::string Position::fen() const { return full_fen(*this, false); }
std::string Position::shredder_fen() const { return full_fen(*this, true); }

} // namespace eboard
