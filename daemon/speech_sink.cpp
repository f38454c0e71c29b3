#include "daemon/speech_sink.hpp"

#include "daemon/log.hpp"
#include "rules/profile.hpp"
#include "speech/open.hpp"

#include <fstream>
#include <sstream>

namespace eboard::daemon {

namespace {

access::SpeechSettings settings_for(const Config& c, const BoardConfig& b) {
    access::SpeechSettings s;
    const std::string& voc =
        b.access.vocabulary.empty() ? c.speech.vocabulary : b.access.vocabulary;
    s.announce.vocabulary =
        access::vocabulary_from_code(voc).value_or(access::Vocabulary::AppendixD);
    s.announce.long_form = c.speech.long_form;
    const std::string& moves = b.access.moves.empty() ? c.speech.moves : b.access.moves;
    s.moves = access::spoken_sides_from_text(moves).value_or(access::SpokenSides::Both);
    return s;
}

/// The board's rules profile (built in, else a file; the FIDE 2023 defaults when unreadable:
/// the daemon reports that already).
Profile profile_for(const Config& c, const BoardConfig& b) {
    const std::string name = board_rules(c, b);
    auto p = builtin_profile(name, c.supervised);
    if (!p) {
        std::ifstream in(name);
        std::ostringstream text;
        text << in.rdbuf();
        p = parse_profile(text.str(), c.supervised);
    }
    return p ? *p : Profile{};
}

std::string str(const nlohmann::ordered_json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int integer(const nlohmann::ordered_json& j, const char* key, int fallback) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

} // namespace

SpeechSink::SpeechSink(const Config& config, Publish publish) : publish_(std::move(publish)) {
    for (const BoardConfig& b : config.boards) {
        // What the profile lets reach the players ([05] B7/B8 rapid/blitz: the arbiter stays
        // silent on a flag; illegal moves likewise where the profile says so).
        const Profile p = profile_for(config, b);
        const access::SpeechSettings settings = settings_for(config, b);
        boards_.emplace(b.name, Board{b.uri,
                                      access::Announcer(settings),
                                      {},
                                      p.illegal_visible_to_players,
                                      p.flag_visible_to_players,
                                      access::ButtonMenu(settings.announce.vocabulary)});
    }
}

Expected<std::unique_ptr<SpeechSink>> SpeechSink::open(const Config& config, Publish publish) {
    std::unique_ptr<SpeechSink> sink(new SpeechSink(config, std::move(publish)));
    for (const BoardConfig& b : config.boards) {
        if (b.access.pair.empty()) continue;
        const Board* other = sink->find(b.access.pair);
        if (!other || other == sink->find(b.name))
            return Error{"[board." + b.name + "] pair: no other board '" + b.access.pair + "'"};
        std::string sighted = b.access.pair; // a name, or a URI: keep the name
        for (const auto& [n, candidate] : sink->boards_)
            if (&candidate == other) sighted = n;
        for (const Pair& p : sink->pairs_)
            if (p.tactile == b.name || p.sighted == b.name || p.tactile == sighted ||
                p.sighted == sighted)
                return Error{"[board." + b.name + "] pair: a board can be in one pair only"};
        sink->pairs_.push_back(Pair{b.name, sighted, {}});
    }
    auto q = speech::open_speech(config.speech.output, config.speech.address, sink->note_);
    if (!q) return q.error();
    sink->queue_ = std::move(q.value());
    if (sink->queue_) {
        // On the worker thread, right after the synthesizer refused: say why in the log.
        speech::SpeechQueue* queue = sink->queue_.get();
        queue->set_observer([queue](const speech::Utterance& u, bool accepted, auto, auto) {
            if (!accepted)
                log_warning("speech: '" + u.text + "' not said: " + queue->synthesizer().error());
        });
    }
    return sink;
}

SpeechSink::Board* SpeechSink::find(const std::string& name) {
    if (auto it = boards_.find(name); it != boards_.end()) return &it->second;
    for (auto& [n, b] : boards_)
        if (b.uri == name) return &b;
    return nullptr;
}

void SpeechSink::say(const access::Spoken& s, const std::string& menu_of) {
    if (!queue_ || s.text.empty()) return;
    speech::Utterance u{s.text, std::string(s.language), s.important};
    u.menu = menu_of;
    queue_->say(std::move(u));
}

void SpeechSink::observe(const Event& event) {
    const auto j = to_json(event);
    const std::string cls = str(j, "class");
    const std::string name = str(j, "board");
    Board* b = find(name);
    if (!b) return;
    if (cls == "GAME") {
        const std::string what = str(j, "event");
        if (what == "start") {
            b->game = str(j, "game");
            b->announcer.game_started(str(j, "fen"));
            b->menu.close();
            for (Pair& p : pairs_)
                if (p.tactile == name || p.sighted == name) p.state.start(str(j, "fen"));
        } else if (what == "end") {
            b->game.clear();
        } else if (const int ply = integer(j, "ply", -1); ply >= 0) { // a take-back
            b->announcer.taken_back(ply, str(j, "fen"));
            pair_moved(name, ply, str(j, "fen"));
        }
    } else if (cls == "MOVE") {
        const int ply = integer(j, "ply", 0);
        if (str(j, "status") == "made") {
            if (auto s = b->announcer.move_made(ply, str(j, "uci"), str(j, "fen"))) say(*s);
            pair_moved(name, ply, str(j, "fen"));
        } else if (const auto c = j.find("clock"); c != j.end() && c->is_object()) {
            b->announcer.clock_times(c->value("white_ms", std::int64_t{0}),
                                     c->value("black_ms", std::int64_t{0}));
        }
    } else if (cls == "ALERT") {
        std::vector<Square> squares;
        if (const auto s = j.find("squares"); s != j.end() && s->is_array())
            for (const auto& x : *s)
                if (x.is_string())
                    if (const Square q = Square::parse(x.get<std::string>()); q.valid())
                        squares.push_back(q);
        // Whose flag: the `player` field where the daemon gives it, else the text's first word.
        std::optional<Color> side;
        const std::string player = str(j, "player"), text = str(j, "text");
        if (player == "white" || text.starts_with("White")) side = Color::White;
        if (player == "black" || text.starts_with("Black")) side = Color::Black;
        const std::string kind = str(j, "kind");
        if ((kind == "illegal_move" && !b->illegal_spoken) || (kind == "flag" && !b->flag_spoken))
            return;
        if (auto s = b->announcer.alert(kind, squares, side)) say(*s);
    }
}

void SpeechSink::pair_moved(const std::string& board, int ply, const std::string& fen) {
    for (Pair& p : pairs_) {
        if (p.tactile != board && p.sighted != board) continue;
        const auto side = p.tactile == board ? access::TwoBoards::Board::Tactile
                                             : access::TwoBoards::Board::Sighted;
        const auto change = p.state.moved(side, ply, fen);
        if (!change) continue;
        Board* tactile = find(p.tactile);
        if (!change->differ) {
            // Not an arbiter matter any more: said to the player, logged; no event kind exists
            // for it (docs/client-api.md).
            log_info("boards " + p.tactile + " and " + p.sighted + " agree again (Appendix D.2.9)");
            if (auto s = tactile->announcer.alert("boards_agree", {}, std::nullopt)) say(*s);
            continue;
        }
        AlertEvent a;
        a.board = p.tactile;
        a.game = tactile->game;
        a.kind = AlertKind::BothBoardsDiffer;
        a.article = "D.2.9";
        std::string names;
        for (const Square s : change->squares) {
            a.squares |= Bitboard{1} << s.index();
            names += (names.empty() ? "" : ", ") + s.name();
        }
        a.text = "the boards " + p.tactile + " and " + p.sighted + " differ" +
                 (names.empty() ? std::string(" (a move was not repeated)") : " on " + names);
        if (publish_) publish_(std::move(a));
    }
}

void SpeechSink::read_clock(const std::string& asked, Board& b) {
    if (!clock_now_) return;
    std::optional<MoveClock> now = clock_now_(asked);
    for (const Pair& p : pairs_) {
        if (now) break;
        if (find(p.tactile) == &b) now = clock_now_(p.sighted);
        else if (find(p.sighted) == &b) now = clock_now_(p.tactile);
    }
    if (now) b.announcer.clock_times(now->white_ms, now->black_ms);
}

Expected<access::Spoken> SpeechSink::info(const std::string& board, const std::string& request) {
    Board* b = find(board);
    if (!b) return Error{"no board '" + board + "'"};
    auto r = access::parse_info_request(request);
    if (!r) return r.error();
    if (r->kind == access::InfoRequest::Kind::Clocks) read_clock(board, *b);
    access::Spoken s = b->announcer.answer(*r);
    say(s);
    return s;
}

std::string SpeechSink::answering_board(const std::string& board) {
    const Board* b = find(board);
    for (const Pair& p : pairs_)
        if (b != nullptr && find(p.sighted) == b && !(clock_now_ && clock_now_(p.tactile)))
            return p.tactile;
    for (const auto& [name, candidate] : boards_)
        if (&candidate == b) return name;
    return {};
}

void SpeechSink::clock_button(const std::string& board, int button, std::int64_t at_ms) {
    const std::string name = answering_board(board);
    Board* b = find(name);
    if (!b) return;
    const auto reply = b->menu.press(button, at_ms, b->announcer.position());
    if (!reply) return;
    access::Spoken s;
    if (reply->request) {
        if (reply->request->kind == access::InfoRequest::Kind::Clocks) read_clock(board, *b);
        s = b->announcer.answer(*reply->request);
    } else {
        s = b->announcer.prompt(reply->prompt);
    }
    say(s, reply->menu ? name : std::string());
}

} // namespace eboard::daemon
