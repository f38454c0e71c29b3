// bench_speech: move made -> speech request issued (issue 6; target p99 <= 50 ms), in
// process: the announcer builds the words from the MOVE made event (access/announcer.hpp),
// the speech queue hands them to the synthesizer on its worker thread (speech/). The peer,
// measured in the same run: the synthesizer's own delay, from the request to espeak-ng's
// first audio samples (time to first audio).
//   bench_speech [--moves N] [--speechd unix_socket:PATH]
// Moves are those of the famous games in ../shared/data/games (not the lichess sample), one
// at a time as at a board (each one said before the next is made). With --speechd the same
// moves go to that speech-dispatcher too (request issued, and accepted = spd_say returned).
#include "access/announcer.hpp"
#include "rules/pgn.hpp"
#include "speech/espeak.hpp"
#include "speech/open.hpp"

#include <algorithm>
#include <cstdio>
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
    std::string uci, fen;
    bool game_start;
    std::string start_fen;
};

std::vector<PlayedMove> famous_moves(std::size_t limit) {
    std::vector<PlayedMove> out;
    std::vector<std::filesystem::path> files;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(EBOARD_SHARED_DATA) + "/games"))
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
                out.push_back({++ply, uci, pos.fen(), ply == 1, start_fen});
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
            if (const auto fa = speech::espeak_last_first_audio(queue.synthesizer()))
                f.first_audio.push_back(std::chrono::duration<double, std::milli>(*fa).count());
    }
    return f;
}

void print(const char* what, const std::vector<double>& v) {
    std::printf("  %-44s n=%5zu  p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms\n", what, v.size(),
                pct(v, 0.5), pct(v, 0.99), v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()));
}

} // namespace

int main(int argc, char** argv) {
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
    std::filesystem::remove_all(dir);
    std::printf("bench_speech: %zu moves made of the famous games, one at a time\n", moves.size());
    std::printf("espeak-ng (in process, WAV):\n");
    print("move made -> speech request issued", e.issued);
    print("move made -> request returned (synthesized)", e.accepted);
    print("peer: espeak-ng request -> first audio", e.first_audio);
    const double p99 = pct(e.issued, 0.99), peer = pct(e.first_audio, 0.99);
    std::printf("  ratio p99 request issued / p99 first audio = %.4f  (target p99 <= 50 ms: %s)\n",
                peer > 0 ? p99 / peer : 0.0, p99 <= 50.0 ? "met" : "NOT met");
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
    return pct(e.issued, 0.99) <= 50.0 ? 0 : 1;
}
