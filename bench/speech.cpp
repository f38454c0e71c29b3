// bench_speech: move made -> speech request issued (issue 6; target p99 <= 50 ms), in
// process: the announcer builds the words from the MOVE made event (access/announcer.hpp),
// the speech queue hands them to the synthesizer on its worker thread (speech/). The peer,
// measured in the same run: the synthesizer's own delay, from the request to espeak-ng's
// first audio samples (time to first audio). Their sum per move, move made -> first audio,
// is when the player starts to hear the move (issue 6: every move announced within 300 ms).
// A second run goes through the daemon's own path: Recorder (the SQLite store, synchronous=FULL,
// and the game's PGN file) -> the speech sink, which the daemon gives each event as it is
// published (Recorder::Delivery::OnPublish: a move made is said before the store's fsync,
// [23] D.2.3; recorder.hpp). Its peer, measured in the same run: the same path with the speech
// sink behind the store (Delivery::Recorded, how every other sink hears events), i.e. what the
// player would wait if the move made were said only once durable.
//   bench_speech [--moves N] [--speechd unix_socket:PATH]
// Moves are those of the famous games in data/games (not the lichess sample), one
// at a time as at a board (each one said before the next is made). With --speechd the same
// moves go to that speech-dispatcher too (request issued, and accepted = spd_say returned).
#include "bench/target.hpp"
#include "access/announcer.hpp"
#include "daemon/recorder.hpp"
#include "daemon/speech_sink.hpp"
#include "daemon/store.hpp"
#include "rules/pgn.hpp"
#include "speech/espeak.hpp"
#include "speech/open.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

using namespace eboard;
using Clock = std::chrono::steady_clock;

namespace {

struct PlayedMove {
    int ply;
    std::string uci, san, fen;
    bool game_start;
    std::string start_fen;
};

std::vector<PlayedMove> famous_moves(std::size_t limit) {
    std::vector<PlayedMove> out;
    std::vector<std::filesystem::path> files;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(EBOARD_REPO_DATA) + "/games"))
        if (e.path().extension() == ".pgn" && e.path().filename() != "lichess-db-sample.pgn")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f);
        std::stringstream text;
        text << in.rdbuf();
        const std::string s = text.str();
        PgnReader reader(s);
        while (auto g = reader.next()) {
            if (!*g || (*g)->chess960) continue;
            auto start = (*g)->start_position();
            if (!start) continue;
            Position pos = std::move(start.value());
            const std::string start_fen = pos.fen();
            int ply = 0;
            for (const GameMove& gm : (*g)->moves) {
                if (gm.move.is_none() || out.size() >= limit) break;
                const std::string uci = to_uci(pos, gm.move);
                pos.make_move(gm.move);
                ++ply;
                out.push_back({ply, uci, gm.san, pos.fen(), ply == 1, start_fen});
            }
        }
    }
    return out;
}

double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

struct Figures {
    std::vector<double> issued, accepted, first_audio;
    /// Per move: made -> request issued plus the synthesizer's request -> first audio, i.e.
    /// when the player starts to hear the move (issue 6: within 300 ms).
    std::vector<double> heard;
};

/// Plays `moves` through an announcer into `queue`, one move at a time.
Figures run(const std::vector<PlayedMove>& moves, speech::SpeechQueue& queue, bool espeak) {
    Figures f;
    std::mutex m;
    queue.set_observer([&](const speech::Utterance& u, bool ok, Clock::time_point issued,
                           Clock::time_point returned) {
        std::lock_guard lock(m);
        if (!ok) return;
        f.issued.push_back(ms(issued - u.caused_at));
        f.accepted.push_back(ms(returned - u.caused_at));
    });
    access::Announcer a;
    for (const PlayedMove& pm : moves) {
        if (pm.game_start) a.game_started(pm.start_fen);
        const auto made = Clock::now(); // the MOVE made event reaches the speech sink
        const auto s = a.move_made(pm.ply, pm.uci, pm.fen);
        if (!s) continue;
        queue.say({s->text, std::string(s->language), s->important, made});
        queue.flush();
        if (espeak)
            if (const auto fa = speech::espeak_last_first_audio(queue.synthesizer())) {
                const double first = std::chrono::duration<double, std::milli>(*fa).count();
                f.first_audio.push_back(first);
                std::lock_guard lock(m);
                if (!f.issued.empty()) f.heard.push_back(f.issued.back() + first);
            }
    }
    return f;
}

/// The same moves as MOVE events through the daemon's Recorder into its SpeechSink.
std::vector<double> through_recorder(const std::vector<PlayedMove>& moves,
                                     const std::filesystem::path& dir,
                                     daemon::Recorder::Delivery delivery) {
    using namespace eboard::daemon;
    std::vector<double> out;
    Config c;
    BoardConfig b;
    b.uri = "emu:bench";
    b.name = "bench";
    c.boards.push_back(b);
    c.speech.output = "wav:" + (dir / "wav").string();
    auto store = Store::open(dir / "state");
    auto sink = SpeechSink::open(c, nullptr);
    if (!store || !sink || !(*sink)->queue()) {
        std::fprintf(stderr, "bench_speech: %s\n",
                     !store  ? store.error().message.c_str()
                     : !sink ? sink.error().message.c_str()
                             : "no speech output");
        return out;
    }
    Recorder recorder(**store, (dir / "pgn").string());
    recorder.add_sink([&](const Event& e, const std::string&) { (*sink)->observe(e); }, delivery);
    Clock::time_point issued{};
    (*sink)->queue()->set_observer([&](const speech::Utterance&, bool, Clock::time_point at,
                                       Clock::time_point) { issued = at; });
    std::string id;
    for (const PlayedMove& pm : moves) {
        auto publish = [&](const nlohmann::ordered_json& j) {
            auto e = event_from_json(j);
            if (e) (void)recorder.publish(*e, wall_clock_ms());
        };
        if (pm.game_start) {
            auto created = (*store)->create_game("bench", pm.start_fen, {}, "fide-2023",
                                                 wall_clock_ms());
            if (!created) {
                std::fprintf(stderr, "bench_speech: %s\n", created.error().message.c_str());
                return out;
            }
            id = *created;
            publish({{"class", "GAME"}, {"board", "bench"}, {"game", id}, {"event", "start"},
                     {"fen", pm.start_fen}});
        }
        issued = {};
        const auto made = Clock::now();
        publish({{"class", "MOVE"},
                 {"board", "bench"},
                 {"game", id},
                 {"ply", pm.ply},
                 {"san", pm.san},
                 {"uci", pm.uci},
                 {"fen", pm.fen},
                 {"status", "made"}});
        (*sink)->queue()->flush();
        if (issued != Clock::time_point{}) out.push_back(ms(issued - made));
    }
    return out;
}

void print(const char* what, const std::vector<double>& v) {
    std::printf("  %-44s n=%5zu  p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms\n", what, v.size(),
                pct(v, 0.5), pct(v, 0.99), v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()));
}

} // namespace

int main(int argc, char** argv) try {
    std::size_t limit = 300;
    std::string speechd;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--moves") == 0 && i + 1 < argc)
            limit = std::strtoul(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--speechd") == 0 && i + 1 < argc)
            speechd = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_speech [--moves N] [--speechd unix_socket:PATH]\n");
            return 2;
        }
    }
    const auto moves = famous_moves(limit);
    const auto dir =
        std::filesystem::temp_directory_path() / ("bench-speech-" + std::to_string(getpid()));
    std::string note;
    Figures e;
    {
        auto q = speech::open_speech("wav:" + dir.string(), "", note);
        if (!q || !*q) {
            std::fprintf(stderr, "bench_speech: %s\n", q ? "no output" : q.error().message.c_str());
            return 1;
        }
        e = run(moves, **q, true);
    }
    const std::vector<double> daemon_path =
        through_recorder(moves, dir / "daemon", daemon::Recorder::Delivery::OnPublish);
    const std::vector<double> durable_first =
        through_recorder(moves, dir / "durable", daemon::Recorder::Delivery::Recorded);
    std::filesystem::remove_all(dir);
    std::printf("bench_speech: %zu moves made of the famous games, one at a time\n", moves.size());
    std::printf("espeak-ng (in process, WAV):\n");
    print("move made -> speech request issued", e.issued);
    print("move made -> request returned (synthesized)", e.accepted);
    print("peer: espeak-ng request -> first audio", e.first_audio);
    const double p99 = pct(e.issued, 0.99), peer = pct(e.first_audio, 0.99);
    std::printf("  ratio p99 request issued / p99 first audio = %.4f\n", peer > 0 ? p99 / peer : 0.0);
    bench::check_target("speech move made -> request issued p99 (espeak-ng in process)", p99,
                        bench::Bound::AtMost, 50, "ms", "issue 6");
    print("move made -> first audio (request + synthesizer)", e.heard);
    bench::check_target("speech move made -> first audio p99 (espeak-ng in process)",
                        pct(e.heard, 0.99), bench::Bound::AtMost, 300, "ms", "issue 6");
    std::printf("through the daemon's Recorder (SQLite store + PGN file; the speech sink as the "
                "daemon adds it: on publish):\n");
    print("move made -> speech request issued", daemon_path);
    const double p99d = pct(daemon_path, 0.99);
    std::printf("  ratio p99 request issued / p99 first audio = %.4f\n", peer > 0 ? p99d / peer : 0.0);
    bench::check_target("speech move made -> request issued p99 (through the Recorder)", p99d,
                        bench::Bound::AtMost, 50, "ms", "issue 6");
    print("peer: speech sink behind the store (fsync first)", durable_first);
    const double p99r = pct(durable_first, 0.99);
    std::printf("  ratio p99 on publish / p99 fsync first = %.4f\n", p99r > 0 ? p99d / p99r : 0.0);
    if (!speechd.empty()) {
        auto q = speech::open_speech("speechd", speechd, note);
        if (!q) {
            std::fprintf(stderr, "bench_speech: %s\n", q.error().message.c_str());
            return 1;
        }
        const Figures s = run(moves, **q, false);
        std::printf("speech-dispatcher (%s):\n", speechd.c_str());
        print("move made -> speech request issued", s.issued);
        print("move made -> request accepted (spd_say)", s.accepted);
        std::printf("  ratio p99 request issued / p99 espeak-ng first audio = %.4f\n",
                    peer > 0 ? pct(s.issued, 0.99) / peer : 0.0);
    }
    return bench::target_exit_status();
} catch (const std::exception& e) { // a file, the file system or memory: not a figure
    std::fprintf(stderr, "bench_speech: %s\n", e.what());
    return 2;
}
