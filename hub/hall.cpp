#include "hub/hall.hpp"
#include "hub/tournament_trf.hpp"

#include "base/placement.hpp"
#include "daemon/pgn_export.hpp"
#include "rules/position.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <string_view>
#include <map>

namespace eboard::hub {

namespace {

// A position of a game's FEN: standard chess first, Chess960 when only that reads it.
std::optional<Position> position_of(const std::string& fen) {
    if (auto p = Position::from_fen(fen, false)) return std::move(*p);
    if (auto p = Position::from_fen(fen, true)) return std::move(*p);
    return std::nullopt;
}

std::string placement_of(const std::string& fen) { return fen.substr(0, fen.find(' ')); }

// Whether `m` (a stored move) is a legal move from `before` that leads to its own position.
bool follows(const std::string& before, const daemon::RecordedMove& m) {
    auto pos = position_of(before);
    if (!pos) return true; // nothing to check against: taken as it stands
    const Move mv = move_from_uci(*pos, m.uci);
    if (mv == Move::none()) return false;
    pos->make_move(mv);
    return placement_of(pos->fen()) == placement_of(m.fen);
}

// The castling field of `fen` without the rights whose king or rook left its square.
std::string castling_left(const std::string& castling, const BoardReading& b) {
    auto at = [&](const char* sq, Piece p) { return b.at(Square::parse(sq)).piece == p; };
    std::string out;
    for (char c : castling) {
        const bool keep = (c == 'K' && at("e1", Piece::WKing) && at("h1", Piece::WRook)) ||
                          (c == 'Q' && at("e1", Piece::WKing) && at("a1", Piece::WRook)) ||
                          (c == 'k' && at("e8", Piece::BKing) && at("h8", Piece::BRook)) ||
                          (c == 'q' && at("e8", Piece::BKing) && at("a8", Piece::BRook));
        if (keep) out += c;
    }
    return out.empty() ? "-" : out;
}

// The illegal move that stood before `next`: a piece of the side to move in `before` moved from
// one square to another (a capture included) so that `next` follows from there.
std::optional<daemon::RecordedMove> find_stood(const std::string& before, const daemon::RecordedMove& next) {
    auto pos = position_of(before);
    if (!pos) return std::nullopt;
    auto board = read_placement(before);
    if (!board) return std::nullopt;
    const Color mover = pos->side_to_move();
    std::string fields[5];
    {
        std::size_t at = before.find(' ');
        for (auto& f : fields) {
            if (at == std::string::npos) break;
            const auto end = before.find(' ', at + 1);
            f = before.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
            at = end;
        }
    }
    int fullmove = 1;
    (void)std::from_chars(fields[4].data(), fields[4].data() + fields[4].size(), fullmove);
    fullmove = std::max(1, fullmove) + (mover == Color::Black ? 1 : 0);
    for (int from = 0; from < 64; ++from) {
        const SquareReading piece = (*board)[static_cast<std::size_t>(from)];
        if (!piece.known() || color_of(piece.piece) != mover) continue;
        for (int to = 0; to < 64; ++to) {
            const SquareReading target = (*board)[static_cast<std::size_t>(to)];
            if (to == from || (target.known() && color_of(target.piece) == mover)) continue;
            BoardReading b = *board;
            b[static_cast<std::size_t>(to)] = piece;
            b[static_cast<std::size_t>(from)] = SquareReading::empty();
            const std::string rest = std::string(mover == Color::White ? " b " : " w ");
            for (const std::string& castling : {castling_left(fields[1], b), std::string("-")}) {
                const std::string fen = write_placement(b) + rest + castling + " - 0 " + std::to_string(fullmove);
                if (!follows(fen, next) || !position_of(fen)) continue;
                daemon::RecordedMove stood;
                stood.ply = next.ply - 1;
                const Square f = Square(from);
                const Square t = Square(to);
                stood.san = f.name() + "-" + t.name();
                stood.uci = f.name() + t.name();
                stood.fen = position_of(fen)->fen();
                stood.completed = true;
                stood.illegal_stands = true;
                return stood;
            }
        }
    }
    return std::nullopt;
}

std::string state_of(const GameRow& g) {
    if (g.ended || g.result != "*") return "finished";
    return "live";
}

} // namespace

void insert_stood_moves(daemon::StoredGame& game) {
    std::vector<daemon::RecordedMove> out;
    std::string before = game.start_fen;
    for (auto& m : game.moves) {
        if (!follows(before, m)) {
            if (auto found = find_stood(before, m)) {
                out.push_back(std::move(*found));
            } else {
                // Nothing explains it: the game goes on from the position after this move.
                daemon::RecordedMove stood;
                stood.ply = m.ply;
                stood.san = "(not known)";
                stood.uci = m.uci;
                stood.fen = m.fen;
                stood.completed = true;
                stood.illegal_stands = true;
                stood.comments.push_back("the move " + m.san + " followed; the position before it is not known");
                out.push_back(std::move(stood));
                before = m.fen;
                continue;
            }
        }
        before = m.fen;
        out.push_back(std::move(m));
    }
    game.moves = std::move(out);
}

Hall::Hall(HallStore& store, std::string event, std::string site)
    : store_(store), event_(std::move(event)), site_(std::move(site)), pairings_(std::make_shared<Pairings>()) {}

void Hall::set_pairings(Pairings pairings) {
    auto p = std::make_shared<const Pairings>(std::move(pairings));
    std::lock_guard lock(mutex_);
    pairings_ = std::move(p);
}

std::vector<RoundGame> Hall::assign() const {
    std::shared_ptr<const Pairings> pairings;
    {
        std::lock_guard lock(mutex_);
        pairings = pairings_;
    }
    // Each source's counted games, in the order they started.
    const std::vector<GameRow> rows = store_.games();
    std::vector<standings::StartedGame> started;
    started.reserve(rows.size());
    for (const auto& g : rows) started.push_back({g.source(), g.plies});
    const auto counted = standings::counted_games(started);
    std::vector<RoundGame> out;
    if (!pairings->empty()) {
        const auto games = standings::games_of_lines(*pairings, counted);
        for (std::size_t i = 0; i < pairings->lines.size(); ++i) {
            const Pairing& p = pairings->lines[i];
            out.push_back(RoundGame{p.round, p.board, p, std::nullopt});
            if (games[i]) out.back().game = rows[*games[i]];
        }
        return out;
    }
    // Without pairings: board numbers in the order of the sources' names, the k-th game of a
    // source in round k.
    const std::vector<std::string> sources = store_.sources();
    std::size_t rounds = 1;
    for (const auto& [source, list] : counted) rounds = std::max(rounds, list.size());
    for (std::size_t k = 0; k < rounds; ++k) {
        for (std::size_t b = 0; b < sources.size(); ++b) {
            RoundGame r;
            r.round = static_cast<int>(k + 1);
            r.board = static_cast<int>(b + 1);
            r.pairing.round = r.round;
            r.pairing.board = r.board;
            r.pairing.source = sources[b];
            if (auto it = counted.find(sources[b]); it != counted.end() && k < it->second.size())
                r.game = rows[it->second[k]];
            out.push_back(std::move(r));
        }
    }
    return out;
}

std::vector<RoundGame> Hall::round(int round) const {
    std::vector<RoundGame> out;
    for (auto& r : assign())
        if (r.round == round) out.push_back(std::move(r));
    return out;
}

int Hall::current_round() const {
    int current = 0;
    int first = 0;
    for (const auto& r : assign()) {
        if (first == 0 || r.round < first) first = r.round;
        if (r.game) current = std::max(current, r.round);
    }
    return current > 0 ? current : std::max(first, 1);
}

std::optional<int> Hall::round_of(const std::string& host, const std::string& game) const {
    for (const auto& r : assign())
        if (r.game && r.game->host == host && r.game->game == game) return r.round;
    return std::nullopt;
}

std::string Hall::game_pgn(const RoundGame& r) const {
    if (!r.game) return {};
    auto g = store_.load(r.game->host, r.game->game);
    if (!g) return {};
    g->tags.event = event_;
    g->tags.site = site_;
    g->tags.date = r.game->date;
    g->tags.round = std::to_string(r.round) + "." + std::to_string(r.board);
    g->tags.white = r.pairing.white;
    g->tags.black = r.pairing.black;
    g->tags.board = std::to_string(r.board);
    insert_stood_moves(*g);
    std::string text;
    for (auto& record : daemon::to_pgn_records(*g)) {
        if (!r.pairing.white_fide_id.empty()) record.set_tag("WhiteFideId", r.pairing.white_fide_id);
        if (!r.pairing.black_fide_id.empty()) record.set_tag("BlackFideId", r.pairing.black_fide_id);
        record.set_tag("GameId", r.game->host + "/" + r.game->game);
        if (!text.empty()) text += '\n';
        text += write_pgn(record);
    }
    return text;
}

std::string Hall::round_pgn(int round, std::size_t first, std::size_t count) const {
    std::string text;
    std::size_t i = 0;
    for (const auto& r : this->round(round)) {
        if (!r.game) continue;
        if (i >= first && i - first < count) text += game_pgn(r) + "\n";
        ++i;
    }
    return text;
}

std::size_t Hall::game_count(int round) const {
    const auto games = this->round(round);
    return static_cast<std::size_t>(std::count_if(games.begin(), games.end(), [](const RoundGame& r) { return r.game.has_value(); }));
}

std::string Hall::index_json(int round) const {
    nlohmann::ordered_json games = nlohmann::ordered_json::array();
    for (const auto& r : this->round(round)) {
        nlohmann::ordered_json g;
        g["board"] = r.board;
        g["source"] = r.pairing.source;
        for (const auto& [key, value] : {std::pair{"white", &r.pairing.white}, {"black", &r.pairing.black},
                                         {"white_fide_id", &r.pairing.white_fide_id},
                                         {"black_fide_id", &r.pairing.black_fide_id}})
            if (!value->empty()) g[key] = *value;
        if (r.game) {
            g["game"] = r.game->host + "/" + r.game->game;
            g["state"] = state_of(*r.game);
            g["result"] = r.game->result;
            if (r.game->confirmed) g["confirmed"] = true;
            g["plies"] = r.game->plies;
            g["fen"] = r.game->fen;
        } else {
            g["state"] = "not_started";
        }
        games.push_back(std::move(g));
    }
    nlohmann::ordered_json j;
    j["round"] = round;
    j["games"] = std::move(games);
    return j.dump() + "\n";
}

namespace {

// The number that `text` starts with after `prefix`, and what follows it; nullopt when `text`
// does not start so.
std::optional<std::pair<int, std::string_view>> number_after(std::string_view text, std::string_view prefix) {
    if (text.substr(0, prefix.size()) != prefix) return std::nullopt;
    text.remove_prefix(prefix.size());
    int n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || n < 1) return std::nullopt;
    return std::pair{n, text.substr(static_cast<std::size_t>(end - text.data()))};
}

} // namespace

LiveAnswer Hall::answer(const std::string& target) const {
    const std::string path = target.substr(0, target.find('?'));
    LiveAnswer not_found{404, "text/plain", "not found\n"};
    constexpr const char* kPgn = "application/x-chess-pgn";
    if (path == "/live/games.pgn") return {200, kPgn, round_pgn(current_round())};
    if (path == "/live/tournament.trf") return tournament_answer(*this);
    const auto round = number_after(path, "/live/round-");
    if (!round) return not_found;
    const std::string_view file = round->second;
    if (file == "/games.pgn") return {200, kPgn, round_pgn(round->first)};
    if (file == "/index.json") return {200, "application/json", index_json(round->first)};
    if (const auto board = number_after(file, "/game-"); board && board->second == ".pgn") {
        for (const auto& r : this->round(round->first))
            if (r.board == board->first && r.game) return {200, kPgn, game_pgn(r)};
    }
    return not_found;
}

} // namespace eboard::hub
