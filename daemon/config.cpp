#include "daemon/config.hpp"

#include "web/server.hpp"

#include <boost/program_options.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "daemon/driver_options.hpp"
#include "daemon/option_error.hpp"
#include "daemon/small_file.hpp"

namespace eboard::daemon {
namespace po = boost::program_options;

namespace {

// The options of eboardd(8) (man/eboardd.8), our own --config, --event, --site,
// --socket-group, --speed, --trace among them. Values are read as strings and checked below, so that
// every error names the option and the allowed values.
po::options_description options_table() {
    po::options_description d("eboardd options");
    // clang-format off
    d.add_options()
        ("help,h", "print this help and exit")
        ("version", "print the release and exit")
        ("config", po::value<std::string>()->value_name("FILE"), "read options from FILE (key = value; [board.NAME] sections)")
        ("board", po::value<std::vector<std::string>>()->value_name("URI")->composing(), "a board, DRIVER:TRANSPORT (repeatable), e.g. dgt:/dev/ttyACM0")
        ("clock", po::value<std::string>()->value_name("board|none"), "board (default) | none: the clock attached to the board completes moves")
        ("white-side", po::value<std::string>()->value_name("left|right|auto"), "left | right | auto (default): White's side of the clock")
        ("rules", po::value<std::string>()->value_name("PROFILE"), "rules profile: fide-2023 (default), fide-2023-rapid, ..., club-2014, or a file")
        ("supervised", po::value<std::string>()->value_name("yes|no"), "yes | no (default): an arbiter supervises (rapid/blitz A.4/B.2)")
        ("time-control", po::value<std::string>()->value_name("TC"), "PGN TimeControl, e.g. 5400+30 or 40/5400+30:1800+30")
        ("pgn-dir", po::value<std::string>()->value_name("DIR"), "write one PGN file per game in DIR")
        ("state-dir", po::value<std::string>()->value_name("DIR"), "the durable store (default $STATE_DIRECTORY, else /var/lib/eboardd)")
        ("events", po::value<std::string>()->value_name("PATH|-"), "also write every event as JSON lines to PATH, or - for stdout")
        ("socket", po::value<std::string>()->value_name("PATH"), "the client API socket PATH (JSON lines)")
        ("socket-group", po::value<std::string>()->value_name("GROUP"), "group owning the socket (mode 0660)")
        ("max-clients", po::value<int>()->value_name("N"), "at most N clients on the socket at once (default 64)")
        ("http", po::value<std::string>()->value_name("ADDR:PORT"), "serve the arbiters' console on ADDR:PORT, e.g. 127.0.0.1:8080")
        ("arbiter-password-file", po::value<std::string>()->value_name("FILE"), "the console's arbiter password: FILE's first line (mode 600)")
        ("livechess-api", po::value<std::string>()->value_name("ADDR:PORT"), "serve the LiveChess eBoards API (WebSocket /api/v1.0) on ADDR:PORT, e.g. 127.0.0.1:1982 (default off)")
        // The brackets: the PGN may be left out (Boost prints an empty implicit value as the
        // bare name).
        ("simulate", po::value<std::string>()->implicit_value("")->value_name("[PGN]"), "an emulated DGT board and clock replay the game of PGN (default: an embedded famous game)")
        ("speed", po::value<double>()->value_name("X"), "--simulate and emu-KIND:PGN boards: how many times faster than human pace (default 1)")
        ("illegal-feedback", po::value<std::string>()->value_name("on-completion|immediate"), "on-completion (default) | immediate")
        ("mismatch-grace", po::value<double>()->value_name("SECONDS"), "SECONDS before an unexplained position is alerted (default 5)")
        ("event", po::value<std::string>()->value_name("TEXT"), "PGN Event tag for every board (default ?)")
        ("site", po::value<std::string>()->value_name("TEXT"), "PGN Site tag for every board (default ?)")
        ("trace", po::value<std::vector<std::string>>()->value_name("CATEGORY")->composing(), "log a category's wire trace (repeatable): dgt, ...")
        ("driver-options", po::value<std::string>()->value_name("KEY=VALUE,..."), "options of every board's driver (a [board.NAME]'s own win), e.g. orientation=rotated (below)");
    // clang-format on
    d.add(speech_options_table());
    d.add(hall_options_table());
    return d;
}

template <typename Enum>
Expected<Enum> pick(const std::string& option, const std::string& value,
                    std::initializer_list<std::pair<const char*, Enum>> choices) {
    std::string names;
    for (const auto& [name, e] : choices) {
        if (value == name) return e;
        if (!names.empty()) names += "|";
        names += name;
    }
    return Error{"--" + option + ": '" + value + "' is not " + names};
}

// Copies the stored options into `c`. Returns an error for values out of range.
Expected<bool> apply_options(const po::variables_map& vm, Config& c) {
    auto str = [&](const char* key, std::string& out) {
        if (vm.count(key)) out = vm[key].as<std::string>();
    };
    if (vm.count("board"))
        for (const auto& uri : vm["board"].as<std::vector<std::string>>()) {
            if (uri.find(':') == std::string::npos && uri.rfind("emu-", 0) != 0)
                return Error{"--board: '" + uri + "' is not DRIVER:TRANSPORT (e.g. dgt:/dev/ttyACM0)"};
            c.boards.push_back(BoardConfig{uri, uri, {}, {}, {}, {}, {}, {}, {}});
        }
    if (vm.count("clock")) {
        auto v = pick<ClockMode>("clock", vm["clock"].as<std::string>(),
                                 {{"board", ClockMode::Board}, {"none", ClockMode::None}});
        if (!v) return v.error();
        c.clock = *v;
    }
    if (vm.count("white-side")) {
        auto v = pick<WhiteSide>(
            "white-side", vm["white-side"].as<std::string>(),
            {{"left", WhiteSide::Left}, {"right", WhiteSide::Right}, {"auto", WhiteSide::Auto}});
        if (!v) return v.error();
        c.white_side = *v;
    }
    if (vm.count("supervised")) {
        auto v = pick<bool>("supervised", vm["supervised"].as<std::string>(),
                            {{"yes", true}, {"no", false}});
        if (!v) return v.error();
        c.supervised = *v;
    }
    if (vm.count("illegal-feedback")) {
        auto v = pick<IllegalFeedback>("illegal-feedback", vm["illegal-feedback"].as<std::string>(),
                                       {{"on-completion", IllegalFeedback::OnCompletion},
                                        {"immediate", IllegalFeedback::Immediate}});
        if (!v) return v.error();
        c.illegal_feedback = *v;
    }
    str("rules", c.rules);
    if (c.rules.empty()) return Error{"--rules: empty profile name"};
    str("time-control", c.time_control);
    str("pgn-dir", c.pgn_dir);
    str("state-dir", c.state_dir);
    str("events", c.events);
    str("socket", c.socket);
    // bind(2) takes at most sizeof sun_path - 1 bytes (unix(7)); a longer one fails later
    // without naming the option.
    if (c.socket.size() >= sizeof(sockaddr_un{}.sun_path))
        return Error{"--socket: '" + c.socket + "' is " + std::to_string(c.socket.size()) +
                     " bytes long; a Unix socket path has at most " +
                     std::to_string(sizeof(sockaddr_un{}.sun_path) - 1)};
    str("socket-group", c.socket_group);
    if (vm.count("max-clients")) {
        c.max_clients = vm["max-clients"].as<int>();
        if (c.max_clients < 1 || c.max_clients > 100000) return Error{"--max-clients: must be between 1 and 100000"};
    }
    str("http", c.http);
    str("arbiter-password-file", c.arbiter_password_file);
    str("livechess-api", c.livechess_api);
    if (!c.livechess_api.empty())
        if (auto address = web::parse_listen_address(c.livechess_api); !address)
            return Error{"--livechess-api: " + address.error().message};
    str("event", c.event);
    str("site", c.site);
    str("config", c.config_file);
    if (vm.count("simulate")) c.simulate = vm["simulate"].as<std::string>();
    if (vm.count("speed")) {
        c.speed = vm["speed"].as<double>();
        if (!(c.speed > 0.0 && c.speed <= 1e6)) return Error{"--speed: must be > 0"};
    }
    if (vm.count("mismatch-grace")) {
        c.mismatch_grace_s = vm["mismatch-grace"].as<double>();
        if (!(c.mismatch_grace_s >= 0.0 && c.mismatch_grace_s <= 3600.0))
            return Error{"--mismatch-grace: must be between 0 and 3600 seconds"};
    }
    if (vm.count("trace")) c.trace = vm["trace"].as<std::vector<std::string>>();
    if (vm.count("driver-options")) {
        auto params = parse_driver_options(vm["driver-options"].as<std::string>());
        if (!params) return Error{"--driver-options: " + params.error().message};
        c.driver_options = std::move(*params);
    }
    if (auto ok = apply_hall_options(vm, c.hall); !ok) return ok;
    return apply_speech_options(vm, c.speech);
}

// The `[board.NAME]` keys of a configuration file, which program_options reports as
// unregistered options "board.NAME.KEY".
Expected<std::vector<BoardConfig>> board_sections(const po::parsed_options& parsed,
                                                  const std::string& origin) {
    std::vector<BoardConfig> boards;
    std::map<std::string, std::size_t> index;
    for (const auto& opt : parsed.options) {
        if (!opt.unregistered) continue;
        const std::string& key = opt.string_key;
        const auto dot = key.rfind('.');
        if (key.rfind("board.", 0) != 0 || dot == std::string::npos || dot <= 6)
            return Error{origin + ": unknown option '" + key + "'"};
        const std::string name = key.substr(6, dot - 6);
        const std::string field = key.substr(dot + 1);
        const std::string value = opt.value.empty() ? std::string() : opt.value.front();
        auto [it, fresh] = index.try_emplace(name, boards.size());
        if (fresh) boards.push_back(BoardConfig{{}, name, {}, {}, {}, {}, {}, {}, {}});
        BoardConfig& b = boards[it->second];
        if (field == "uri") b.uri = value;
        else if (field == "event") b.event = value;
        else if (field == "site") b.site = value;
        else if (field == "round") b.round = value;
        else if (field == "white") b.white = value;
        else if (field == "black") b.black = value;
        else if (field == "rules") b.rules = value;
        else if (field == "time-control") b.time_control = value;
        else if (field == "driver-options") {
            auto params = parse_driver_options(value);
            if (!params) return Error{origin + ": [board." + name + "] driver-options: " + params.error().message};
            b.driver_options = std::move(*params);
        } else if (auto ours = apply_board_access_key(field, value, b.access); !ours)
            return Error{origin + ": [board." + name + "] " + ours.error().message};
        else if (!*ours)
            return Error{origin + ": [board." + name + "] has no setting '" + field +
                         "' (uri, event, site, round, white, black, rules, time-control, driver-options, " +
                         board_access_keys() + ")"};
    }
    for (const auto& b : boards)
        if (b.uri.find(':') == std::string::npos && b.uri.rfind("emu-", 0) != 0)
            return Error{origin + ": [board." + b.name + "] needs uri = DRIVER:TRANSPORT"};
    return boards;
}

// A configuration file is text: no control bytes but tab, CR and LF, and UTF-8, so that no
// error message echoes a binary file's bytes to the terminal or the journal.
Expected<bool> check_text(const std::string& text, const std::string& origin) {
    int line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        // The length of a UTF-8 sequence by its lead byte; 1 for ASCII and for a byte that
        // cannot lead one (then refused below).
        const std::size_t len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 1;
        bool ok = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7f) || len > 1;
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = i + k < text.size() && (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
        if (!ok) {
            char byte[8];
            std::snprintf(byte, sizeof byte, "0x%02x", c);
            return Error{origin + ":" + std::to_string(line) + ": not a text file (byte " + byte + ")"};
        }
        if (c == '\n') ++line;
        i += len;
    }
    return true;
}

// A `[board.NAME]` section given twice: program_options would merge the two silently.
Expected<bool> check_sections(const std::string& text, const std::string& origin) {
    std::map<std::string, int, std::less<>> first;
    std::istringstream in(text);
    int line = 0;
    for (std::string l; std::getline(in, l);) {
        ++line;
        const auto b = l.find_first_not_of(" \t");
        const auto e = l.find_last_not_of(" \t\r");
        if (b == std::string::npos || l[b] != '[' || l[e] != ']') continue;
        const std::string section = l.substr(b + 1, e - b - 1);
        if (auto [it, fresh] = first.try_emplace(section, line); !fresh)
            return Error{origin + ":" + std::to_string(line) + ": [" + section + "] is given twice (first at line " +
                         std::to_string(it->second) + ")"};
    }
    return true;
}

Expected<po::parsed_options> parse_file_text(const std::string& text, const std::string& origin,
                                             const po::options_description& desc) {
    std::istringstream in(text);
    try {
        return po::parse_config_file(in, desc, true);
    } catch (const po::error& e) {
        return Error{origin + ": " + option_error_text(e)};
    }
}

// Stores a parsed config file into `vm` (after the command line, which therefore wins) and
// returns its board sections.
Expected<std::vector<BoardConfig>> store_file(const std::string& text, const std::string& origin,
                                              const po::options_description& desc,
                                              po::variables_map& vm) {
    if (auto ok = check_text(text, origin); !ok) return ok.error();
    if (auto ok = check_sections(text, origin); !ok) return ok.error();
    auto parsed = parse_file_text(text, origin, desc);
    if (!parsed) return parsed.error();
    for (const auto& opt : parsed->options)
        if (opt.string_key == "config" || opt.string_key == "help" || opt.string_key == "version")
            return Error{origin + ": '" + opt.string_key + "' only works on the command line"};
    try {
        po::store(*parsed, vm);
    } catch (const po::error& e) {
        return Error{origin + ": " + option_error_text(e)};
    }
    return board_sections(*parsed, origin);
}

Expected<std::string> read_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        return Error{"--config: '" + path + "' is not a regular file" + (S_ISDIR(st.st_mode) ? " (a directory)" : "")};
    // A configuration is a few KiB; a larger file is a mistake, never read without bound.
    constexpr std::size_t kMaxConfigBytes = 1 << 20;
    auto text = read_small_file(path, kMaxConfigBytes);
    if (!text) return Error{"--config: " + text.error().message};
    return text;
}

// `--simulate PGN` as two words: program_options does not let an implicit value take the
// next word, so glue a following non-option word to it.
std::vector<std::string> glue_simulate(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--simulate" && i + 1 < args.size() && !args[i + 1].empty() &&
            args[i + 1][0] != '-') {
            out.push_back("--simulate=" + args[i + 1]);
            ++i;
        } else {
            out.push_back(args[i]);
        }
    }
    return out;
}

} // namespace

Expected<Invocation> parse_command_line(const std::vector<std::string>& raw_args) {
    const auto desc = options_table();
    po::variables_map vm;
    Invocation inv;
    try {
        auto parsed = po::command_line_parser(glue_simulate(raw_args))
                          .options(desc)
                          .style(po::command_line_style::unix_style)
                          .run();
        po::store(parsed, vm);
    } catch (const po::error& e) {
        return Error{option_error_text(e)};
    }
    inv.help = vm.count("help") > 0;
    inv.version = vm.count("version") > 0;
    std::vector<BoardConfig> file_boards;
    if (vm.count("config")) {
        const std::string path = vm["config"].as<std::string>();
        auto text = read_file(path);
        if (!text) return text.error();
        auto boards = store_file(*text, path, desc, vm);
        if (!boards) return boards.error();
        file_boards = std::move(*boards);
    }
    try {
        po::notify(vm);
    } catch (const po::error& e) {
        return Error{option_error_text(e)};
    }
    auto ok = apply_options(vm, inv.config);
    if (!ok) return ok.error();
    for (auto& b : file_boards) inv.config.boards.push_back(std::move(b));
    for (std::size_t i = 0; i < inv.config.boards.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (inv.config.boards[i].name == inv.config.boards[j].name)
                return Error{"board '" + inv.config.boards[i].name + "' is given twice"};
    if (auto checked = check_driver_options(inv.config); !checked) return checked.error();
    return inv;
}

Expected<Config> parse_config_text(const std::string& text, const std::string& origin) {
    const auto desc = options_table();
    po::variables_map vm;
    auto boards = store_file(text, origin, desc, vm);
    if (!boards) return boards.error();
    Config c;
    try {
        po::notify(vm);
    } catch (const po::error& e) {
        return Error{origin + ": " + option_error_text(e)};
    }
    auto ok = apply_options(vm, c);
    if (!ok) return Error{origin + ": " + ok.error().message};
    for (auto& b : *boards) c.boards.push_back(std::move(b));
    if (auto checked = check_driver_options(c); !checked) return Error{origin + ": " + checked.error().message};
    return c;
}

std::string usage_text() {
    std::ostringstream s;
    s << "Usage: eboardd [OPTIONS]\n"
         "The eboardd daemon: reads electronic chessboards, records the games (PGN, SQLite)\n"
         "and reports moves, clock times and arbiter matters as JSON lines.\n\n"
      << options_table()
      << "\nDriver options (driver-options = KEY=VALUE,... in a [board.NAME] section, or\n"
         "--driver-options for every board; docs/configuration.md says what each does):\n"
      << driver_options_summary()
      << "\nExamples:\n"
         "  eboardd --simulate                      replay a famous game on an emulated board\n"
         "  eboardd --board dgt:/dev/ttyACM0 --pgn-dir ~/games --events -\n";
    return s.str();
}

std::string resolve_state_dir(const Config& config) {
    if (!config.state_dir.empty()) return config.state_dir;
    if (const char* env = std::getenv("STATE_DIRECTORY"); env && *env) {
        std::string s(env);
        return s.substr(0, s.find(':'));
    }
    return "/var/lib/eboardd";
}

std::string board_rules(const Config& config, const BoardConfig& board) {
    return board.rules.empty() ? config.rules : board.rules;
}

std::string board_time_control(const Config& config, const BoardConfig& board) {
    return board.time_control.empty() ? config.time_control : board.time_control;
}

} // namespace eboard::daemon
