// eboard-hub: the tournament hall's hub (docs/hub.md, eboard-hub(8); interfaces.md, "The
// tournament hall"). Subscribes to the hall's MQTT topics with a persistent session, records
// the messages in its store by group commit (hub/group_commit.hpp: what has no other copy is
// committed before the broker's PUBACK), serves /live/ over HTTP and pushes the rounds' PGN to
// lichess.
#include "daemon/log.hpp"
#include "daemon/notify.hpp"
#include "daemon/small_file.hpp"
#include "console/auth.hpp"
#include "hub/console.hpp"
#include "hub/group_commit.hpp"
#include "hub/hall.hpp"
#include "hub/http_server.hpp"
#include "hub/pairings.hpp"
#include "hub/push.hpp"
#include "hub/received.hpp"
#include "hub/store.hpp"
#include "mqtt/client.hpp"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

namespace po = boost::program_options;
using namespace eboard;
using eboard::daemon::log_error;
using eboard::daemon::log_notice;
using eboard::daemon::log_warning;

namespace {

constexpr std::size_t kSecretMax = 4096;

// The first line of a secret's file (a password, a token). A file that others may read is
// warned about: credentials belong to the service user only.
Expected<std::string> read_secret(const std::string& path) {
    auto text = eboard::daemon::read_small_file(path, kSecretMax);
    if (!text) return text.error();
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)) != 0)
        log_warning(path + " can be read by other users than its owner (chmod 600)");
    std::string line = text->substr(0, text->find('\n'));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) return Error{path + ": the first line is empty"};
    return line;
}

std::string default_state_dir() {
    const char* s = std::getenv("STATE_DIRECTORY"); // systemd's StateDirectory=
    return s && *s ? std::string(s) : std::string("/var/lib/eboard-hub");
}

// Exits at once when the store failed to commit: nothing of the batch may be acknowledged or
// marked. The broker delivers again what it has not acknowledged, the hosts send again what no
// mark covers; systemd starts the hub again.
[[noreturn]] void exit_uncommitted(const std::string& why) {
    log_error(why + "; exiting before acknowledging what is not committed");
    std::_Exit(1);
}

// On the loop every `period` (100 ms at most) while it runs: commits a batch that is due (an idle
// hall), then publishes the `received` marks that commits moved (hub/received.hpp: the latest
// of each host); counts its rounds.
class CommitTimer {
  public:
    CommitTimer(boost::asio::io_context& io, std::chrono::milliseconds period, hub::GroupCommit& group,
                hub::ReceivedMarks& marks)
        : timer_(io), period_(period), group_(group), marks_(marks) {
        arm();
    }
    [[nodiscard]] std::int64_t rounds() const { return rounds_; }

  private:
    void arm() {
        timer_.expires_after(period_);
        timer_.async_wait([this](const boost::system::error_code& ec) {
            if (ec) return;
            if (auto ok = group_.commit_due(); !ok) exit_uncommitted(ok.error().message);
            marks_.flush();
            ++rounds_;
            arm();
        });
    }
    boost::asio::steady_timer timer_;
    std::chrono::milliseconds period_;
    hub::GroupCommit& group_;
    hub::ReceivedMarks& marks_;
    std::int64_t rounds_ = 0;
};

int run(const po::variables_map& vm) {
    auto url = mqtt::parse_url(vm["mqtt"].as<std::string>());
    if (!url) {
        std::cerr << "eboard-hub: --mqtt: " << url.error().message << "\n";
        return 2;
    }
    auto listen = web::parse_listen_address(vm["http"].as<std::string>());
    if (!listen) {
        std::cerr << "eboard-hub: --http: " << listen.error().message << "\n";
        return 2;
    }
    mqtt::ClientOptions mo;
    mo.url = *url;
    mo.client_id = vm["mqtt-client-id"].as<std::string>();
    mo.clean_session = false; // a persistent session: the broker keeps what arrives while the hub is down
    if (vm.count("mqtt-password-file")) {
        auto pw = read_secret(vm["mqtt-password-file"].as<std::string>());
        if (!pw) {
            std::cerr << "eboard-hub: --mqtt-password-file: " << pw.error().message << "\n";
            return 2;
        }
        mo.password = *pw;
    }
    if (vm.count("mqtt-ca-file")) mo.ca_file = vm["mqtt-ca-file"].as<std::string>();
    hub::PushOptions push;
    if (vm.count("push")) {
        push.url = vm["push"].as<std::string>();
        if (auto u = hub::parse_push_url(push.url); !u) {
            std::cerr << "eboard-hub: --push: " << u.error().message << "\n";
            return 2;
        }
        if (!vm.count("push-token-file")) {
            std::cerr << "eboard-hub: --push needs --push-token-file\n";
            return 2;
        }
        auto token = read_secret(vm["push-token-file"].as<std::string>());
        if (!token) {
            std::cerr << "eboard-hub: --push-token-file: " << token.error().message << "\n";
            return 2;
        }
        push.token = *token;
        if (vm.count("push-ca-file")) push.ca_file = vm["push-ca-file"].as<std::string>();
    }
    std::optional<std::string> arbiter_password;
    if (vm.count("arbiter-password-file")) {
        auto pw = console::read_password_file(vm["arbiter-password-file"].as<std::string>());
        if (!pw) {
            std::cerr << "eboard-hub: --arbiter-password-file: " << pw.error().message << "\n";
            return 2;
        }
        arbiter_password = std::move(*pw);
    }
    const std::string state_dir = vm.count("state-dir") ? vm["state-dir"].as<std::string>() : default_state_dir();
    auto store = hub::HallStore::open(state_dir);
    if (!store) {
        std::cerr << "eboard-hub: " << store.error().message << "\n";
        return 2;
    }
    hub::Hall hall(**store, vm["event"].as<std::string>(), vm["site"].as<std::string>());
    const std::string pairings_file = vm.count("pairings") ? vm["pairings"].as<std::string>() : "";
    if (!pairings_file.empty()) {
        auto p = hub::load_pairings(pairings_file);
        if (!p) {
            std::cerr << "eboard-hub: " << p.error().message << "\n";
            return 2;
        }
        log_notice("pairings: " + std::to_string(p->lines.size()) + " boards from " + pairings_file);
        hall.set_pairings(std::move(*p));
    }

    boost::asio::io_context io;
    auto server = hub::HttpServer::listen(io, listen->address, listen->port,
                                          [&hall](const std::string& target) { return hall.answer(target); });
    if (!server) {
        std::cerr << "eboard-hub: " << server.error().message << "\n";
        return 2;
    }
    // The arbiters' console on the same server (GET /, /api/...).
    hub::HubConsole console(io, (*server)->web(), std::move(arbiter_password), hall, **store);
    console.seed();
    std::unique_ptr<hub::Pusher> pusher;
    if (!push.url.empty()) {
        pusher = std::make_unique<hub::Pusher>(**store, hall, push, [](const std::string& l) { log_warning(l); });
        pusher->start();
    }

    mqtt::Client* mqtt_client = nullptr; // set below, before the client starts
    hub::ReceivedMarks marks([&mqtt_client](const std::string& topic, const std::string& payload) {
        return mqtt_client->publish(topic, payload, 1, true).has_value();
    });
    mqtt::Callbacks cb;
    cb.connected = [&](bool session) {
        log_notice("mqtt: connected to " + mqtt::redacted(*url) + (session ? " (session kept)" : " (new session)"));
        marks.all((*store)->received_marks()); // the broker may have lost the retained ones
    };
    cb.disconnected = [](const std::string& why) { log_warning("mqtt: " + why); };
    // What a commit made durable: the marks (published by the loop's timer), the console, the
    // lichess push (once per round and commit).
    hub::GroupCommitOptions gco;
    gco.interval = std::chrono::milliseconds(std::max(1, vm["commit-ms"].as<int>()));
    gco.max_messages = static_cast<std::size_t>(std::max(1, vm["commit-max"].as<int>()));
    hub::GroupCommit group(**store, gco, [&](const hub::GroupCommit::Batch& batch) {
        std::set<int> rounds;
        for (const auto& [m, r] : batch) {
            console.ingested(m, r);
            if (r.received) marks.note(*r.received);
            if (pusher && r.changed && !r.game.empty())
                if (auto round = hall.round_of(r.host, r.game)) rounds.insert(*round);
        }
        for (int round : rounds) pusher->changed(round);
    });
    cb.message = [&](const mqtt::Message& m) {
        if (console.take(m)) return; // an arbiter's request or its reply: not the hall's record
        auto r = group.take(m, hub::now_ms());
        if (!r) {
            // Not committed: no PUBACK may follow. Exiting here leaves the message with the
            // broker's session; systemd starts the hub again and it is delivered again.
            if (r.error().message.rfind("hub store:", 0) == 0) exit_uncommitted(r.error().message);
            log_warning("mqtt: " + m.topic + ": " + r.error().message + " (ignored)");
        }
    };
    mqtt::Client client(mo, cb);
    console.attach(client);
    mqtt_client = &client;
    client.subscribe("eboard/v1/#", 1);
    client.start();
    CommitTimer commit_timer(io, std::min(gco.interval, std::chrono::milliseconds(100)), group, marks);
    // The group commit's counters, for monitoring (and the tests: a batch open, not committed).
    (*server)->web().get("/status.json", [&group, &commit_timer](const web::Request&) {
        const auto s = group.stats();
        web::Response out;
        out.body = nlohmann::json{{"staged", s.staged}, {"committed", s.committed}, {"commits", s.commits},
                                  {"open", s.open}, {"last_commit_ms", s.last_commit_ms},
                                  {"mark_flushes", commit_timer.rounds()}}
                       .dump();
        out.headers.emplace_back("Cache-Control", "no-cache");
        return out;
    });

    boost::asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
    std::function<void(const boost::system::error_code&, int)> on_signal = [&](const boost::system::error_code& ec,
                                                                                 int sig) {
        if (ec) return;
        if (sig != SIGHUP) {
            log_notice("stopping");
            server->get()->close();
            io.stop();
            return;
        }
        if (pairings_file.empty()) {
            log_notice("SIGHUP: no --pairings to reload");
        } else if (auto p = hub::load_pairings(pairings_file); !p) {
            log_error(p.error().message + "; the previous pairings stay");
        } else {
            log_notice("pairings reloaded: " + std::to_string(p->lines.size()) + " boards from " + pairings_file);
            hall.set_pairings(std::move(*p));
            console.refresh_pairings();
            if (pusher) pusher->changed(hall.current_round());
        }
        signals.async_wait(on_signal);
    };
    signals.async_wait(on_signal);

    // The address as a URL has it ("[::1]" for IPv6); the tests read the port from this line.
    const std::string host = listen->address.find(':') == std::string::npos ? listen->address : "[" + listen->address + "]";
    const std::string where = host + ":" + std::to_string((*server)->port());
    std::cout << "eboard-hub: listening on http://" << where << "/live/games.pgn (the arbiters' console: http://" << where
              << "/)" << std::endl;
    eboard::daemon::notify_ready("listening on " + where + ", mqtt " + mqtt::redacted(*url));
    io.run();
    client.stop();
    if (auto ok = group.commit(); !ok) log_error(ok.error().message); // a clean stop keeps the open batch
    if (pusher) pusher->stop();
    return 0;
}

} // namespace

int main(int argc, char** argv) try {
    po::options_description opts("eboard-hub options");
    opts.add_options()
        ("help", "this text")
        ("version", "the version")
        ("config", po::value<std::string>(), "read options from FILE (KEY = VALUE lines)")
        ("mqtt", po::value<std::string>(), "the broker: mqtt://[USER[:PASSWORD]@]HOST[:PORT] or mqtts://...")
        ("mqtt-password-file", po::value<std::string>(), "the broker password: the file's first line")
        ("mqtt-ca-file", po::value<std::string>(), "CA certificates for mqtts:// (default: the system's)")
        ("mqtt-client-id", po::value<std::string>()->default_value("eboard-hub"),
         "the fixed client id of the persistent session (one per hub)")
        ("http", po::value<std::string>()->default_value("127.0.0.1:8080"), "listen on ADDR:PORT only (/live/ and the arbiters' console)")
        ("arbiter-password-file", po::value<std::string>(), "the arbiters' console password: the file's first line (mode 600); without it the console is read-only")
        ("commit-ms", po::value<int>()->default_value(100),
         "group commit: commit the hall's messages at most MS after the first of a batch (docs/hall.md)")
        ("commit-max", po::value<int>()->default_value(1000), "group commit: commit at once when a batch holds N messages")
        ("state-dir", po::value<std::string>(), "the hub's store (default $STATE_DIRECTORY, else /var/lib/eboard-hub)")
        ("pairings", po::value<std::string>(), "pairings CSV: round,board,source,white,black[,white_fide_id,black_fide_id]; reread on SIGHUP")
        ("event", po::value<std::string>()->default_value(""), "the PGN Event tag")
        ("site", po::value<std::string>()->default_value(""), "the PGN Site tag")
        ("push", po::value<std::string>(), "POST each changed round's PGN to URL (lichess: https://lichess.org/api/broadcast/round/ID/push)")
        ("push-token-file", po::value<std::string>(), "the push's bearer token: the file's first line")
        ("push-ca-file", po::value<std::string>(), "CA certificates for an https:// push (default: the system's)");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, opts), vm);
        if (vm.count("config")) {
            std::ifstream in(vm["config"].as<std::string>());
            if (!in) throw po::error("cannot read the config file " + vm["config"].as<std::string>());
            po::store(po::parse_config_file(in, opts), vm);
        }
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "eboard-hub: " << e.what() << "\nTry 'eboard-hub --help'.\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "Usage: eboard-hub --mqtt URL [--http ADDR:PORT] [--arbiter-password-file FILE] [--state-dir DIR]\n"
                     "                  [--pairings FILE]\n"
                     "                  [--event TEXT] [--site TEXT] [--push URL --push-token-file FILE]\n"
                  << opts;
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "eboard-hub " << EBOARD_RELEASE << "\n";
        return 0;
    }
    if (!vm.count("mqtt")) {
        std::cerr << "eboard-hub: --mqtt URL is required\nTry 'eboard-hub --help'.\n";
        return 2;
    }
    return run(vm);
} catch (const std::exception& e) {
    char line[512];
    std::snprintf(line, sizeof line, "fatal: %s", e.what());
    log_error(line);
    return 1;
}
