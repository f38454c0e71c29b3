#include "daemon/emulated_boards.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "daemon/board_registry.hpp"
#include "daemon/device_link.hpp"
#include "daemon/emu_board.hpp"
#include "daemon/emu_player.hpp"
#include "daemon/log.hpp"
#include "daemon/recorder.hpp"
#include "daemon/simulation.hpp"
#include "daemon/store.hpp"

namespace eboard::daemon {

/// A built-in emulated board (`--board emu-…`), its optional player.
struct EmulatedBoards::Emulated {
    std::string board; ///< the board's name
    std::string kind;
    std::unique_ptr<EmuPlayer> player;
    std::unique_ptr<EmuBoard> emulator;
};

EmulatedBoards::EmulatedBoards(double speed) : speed_(speed) {}

EmulatedBoards::~EmulatedBoards() { stop(); }

Expected<bool> EmulatedBoards::open_simulation(Config& config) {
    if (config.state_dir.empty() && !std::getenv("STATE_DIRECTORY")) {
        char tmpl[] = "/tmp/eboardd-simulate-XXXXXX";
        if (!::mkdtemp(tmpl)) return Error{std::string("--simulate: mkdtemp: ") + std::strerror(errno)};
        config.state_dir = tmpl;
    }
    if (config.pgn_dir.empty()) config.pgn_dir = resolve_state_dir(config) + "/pgn";
    auto sim = Simulation::open(*config.simulate, config.speed, config.clock == ClockMode::Board);
    if (!sim) return sim.error();
    simulation_ = std::move(*sim);
    config.boards.insert(config.boards.begin(), simulation_->board());
    return true;
}

Expected<bool> EmulatedBoards::prepare(BoardConfig& b, const Config& config) {
    auto uri = parse_emu_uri(b.uri);
    if (!uri) return Error{"board " + b.name + ": " + uri.error().message};
    if (!*uri) return true;
    auto e = std::make_unique<Emulated>(Emulated{b.name, (*uri)->kind, nullptr, nullptr});
    if (!(*uri)->pgn.empty()) {
        auto player = EmuPlayer::open((*uri)->pgn, speed_);
        if (!player) return Error{"board " + b.name + ": " + player.error().message};
        e->player = std::move(*player);
        // The game's time control, unless the board has one.
        if (board_time_control(config, b).empty()) b.time_control = e->player->time_control();
    }
    emulated_.push_back(std::move(e));
    return true;
}

bool EmulatedBoards::awaits_open(const std::string& name) const {
    return !emulated_.empty() && emulated_.back()->board == name && !emulated_.back()->emulator;
}

Expected<bool> EmulatedBoards::open_all(BoardRegistry& boards, Recorder& recorder, const OptionsFn& options) {
    // --simulate after a restart: the player goes on with the board's resumed game.
    if (const BoardRecord* sim = simulation_ ? boards.find("simulated") : nullptr; sim && sim->session->game())
        (void)simulation_->resume(sim->session->game()->position(), sim->session->game()->plies(),
                                  sim->session->game()->last_completed());
    for (auto& e : emulated_) {
        BoardRecord* board = boards.find(e->board);
        if (!board) continue;
        if (auto ok = open(*e, *board, recorder, options); !ok) return ok;
    }
    return true;
}

Expected<bool> EmulatedBoards::open(BoardRecord& board, Recorder& recorder, const OptionsFn& options) {
    if (!awaits_open(board.session->name())) return true;
    auto ok = open(*emulated_.back(), board, recorder, options);
    if (!ok) emulated_.pop_back();
    return ok;
}

Expected<bool> EmulatedBoards::open(Emulated& e, BoardRecord& record, Recorder& recorder, const OptionsFn& options) {
    const BoardSession& board = *record.session;
    // The pieces stand where the board's game is (a resumed game), else where the PGN's
    // game starts, else in the standard start position.
    Position shown = Position::startpos();
    int from_ply = 0;
    if (board.game()) {
        shown = board.game()->position().copy();
        from_ply = board.game()->plies();
    } else if (e.player) {
        shown = e.player->start_position().copy();
    }
    auto emulator = EmuBoard::create(e.kind, shown, clock_start_ms(board.time_control()));
    if (!emulator) return Error{"board " + e.board + ": " + emulator.error().message};
    e.emulator = std::move(*emulator);
    if (e.player && board.game() && !e.player->passes_through(shown, from_ply)) {
        log_notice("board " + e.board + ": the resumed game is not the PGN's game; nobody plays it");
        e.player.reset();
    }
    if (e.player) {
        recorder.add_sink([player = e.player.get(), name = e.board](const Event& ev, const std::string&) {
            if (event_board(ev) == name) player->observe(ev);
        });
    }
    if (auto* link = dynamic_cast<DeviceLink*>(record.link.get()))
        // An emulator's pty opens at once: nothing to give up on a stop.
        link->set_opener([emulator = e.emulator.get(), opts = options(record)](drivers::DeviceSession::EventSink sink,
                                                                              int /*cancel_fd*/) {
            return emulator->open_session(std::move(sink), opts);
        });
    return true;
}

void EmulatedBoards::start(const BoardRecord& board) {
    // The last one of its name: a board detached and attached again has a new emulator.
    for (auto it = emulated_.rbegin(); it != emulated_.rend(); ++it)
        if ((*it)->board == board.session->name() && (*it)->emulator) return start(**it, board);
}

void EmulatedBoards::start_all(const BoardRegistry& boards) {
    for (const auto& b : boards.records()) start(b);
}

void EmulatedBoards::start(Emulated& e, const BoardRecord& record) {
    if (!e.player || !e.emulator) return;
    const BoardSession& board = *record.session;
    const bool resumed = board.game().has_value();
    e.player->start(*e.emulator, resumed ? board.game()->plies() : 0, resumed);
}

void EmulatedBoards::stop_player(const std::string& name) {
    for (auto& e : emulated_)
        if (e->board == name && e->player) e->player->stop();
}

void EmulatedBoards::stop_players() {
    for (auto& e : emulated_)
        if (e->player) e->player->stop();
}

void EmulatedBoards::stop() {
    if (simulation_) simulation_->stop();
    stop_players();
}

} // namespace eboard::daemon
