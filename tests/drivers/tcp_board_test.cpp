// `dgt:tcp:HOST:PORT` (eboardd(8) transports): a board behind ser2net on a Raspberry Pi next
// to it. Here a relay thread plays ser2net: it accepts one TCP connection and copies bytes both
// ways between it and the emulated DGT board's pty, so the real driver, through open_device()
// and the TCP transport, plays a game against the real emulator; ser2net closing the
// connection is the board gone.
#include "harness.hpp"
#include "pgn_moves.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <thread>

using namespace eboard;
using namespace eboard::drivers;
using namespace eboard::drivers::test;

namespace {

/// A one-connection ser2net: TCP on 127.0.0.1:port() <-> the tty at `path`.
class Ser2net {
  public:
    explicit Ser2net(const std::string& path) {
        listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(listen_ >= 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        socklen_t len = sizeof a;
        REQUIRE(::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len) == 0);
        REQUIRE(::listen(listen_, 1) == 0);
        port_ = ntohs(a.sin_port);
        auto tty = open_termios(path, SerialSettings{});
        REQUIRE(tty.has_value());
        tty_ = std::move(tty.value());
        thread_ = std::thread([this] { run(); });
    }
    ~Ser2net() {
        stop_ = true;
        thread_.join();
        ::close(listen_);
    }
    Ser2net(const Ser2net&) = delete;
    Ser2net& operator=(const Ser2net&) = delete;

    [[nodiscard]] int port() const { return port_; }
    /// ser2net drops the connection (the Pi loses the board, or ser2net restarts).
    void hang_up() { hang_up_ = true; }

  private:
    void run() {
        int peer = -1;
        std::array<std::uint8_t, 512> buf{};
        while (!stop_) {
            if (peer < 0) {
                pollfd p{listen_, POLLIN, 0};
                if (::poll(&p, 1, 10) > 0) peer = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
                continue;
            }
            if (hang_up_) {
                ::close(peer);
                peer = -1;
                hang_up_ = false;
                continue;
            }
            pollfd p{peer, POLLIN, 0};
            if (::poll(&p, 1, 5) > 0) {
                const ssize_t n = ::read(peer, buf.data(), buf.size());
                if (n <= 0) {
                    ::close(peer);
                    peer = -1;
                    continue;
                }
                (void)tty_->write(std::span(buf.data(), static_cast<std::size_t>(n)));
            }
            const std::size_t got = tty_->read(buf, 5);
            if (got > 0 && ::send(peer, buf.data(), got, MSG_NOSIGNAL) < 0) {
                ::close(peer);
                peer = -1;
            }
        }
        if (peer >= 0) ::close(peer);
    }

    int listen_ = -1, port_ = 0;
    std::unique_ptr<Transport> tty_;
    std::atomic<bool> stop_{false}, hang_up_{false};
    std::thread thread_;
};

} // namespace

TEST_CASE("dgt:tcp:HOST:PORT: a game through ser2net, then ser2net hangs up: the board is gone") {
    emu::DgtEmulator board;
    Ser2net relay(board.pty_slave_path());
    SessionHarness h;
    DriverOptions opt;
    opt.params.emplace("startup-delay-ms", "0");
    auto s = open_device("dgt:tcp:127.0.0.1:" + std::to_string(relay.port()),
                         [&h](const DriverEvent& e) { h.events.push_back(e); }, opt);
    INFO((s ? std::string() : s.error().message));
    REQUIRE(s.has_value());
    h.session = std::move(s.value());
    h.session->start();
    auto& driver = dynamic_cast<dgt::DgtDriver&>(h.session->driver());
    REQUIRE(h.pump_until([&] { return driver.ready() && !h.all<BoardSnapshot>().empty(); }));
    CHECK(h.all<BoardSnapshot>().back().board == BoardReading::start_position());
    REQUIRE(h.pump_until([&] { return driver.clock_model() == ClockModel::Dgt3000; }));

    const auto boards = game_boards(
        read_pgn_games(std::string(EBOARD_REPO_DATA) + "/games/kasparov-deep-blue-1997.pgn", 1).at(0));
    for (std::size_t i = 1; i <= 20; ++i) {
        INFO("move " << i);
        play_on_board(board, boards[i - 1], boards[i]);
        REQUIRE(h.pump_until([&] { return driver.board() == boards[i]; }));
    }

    relay.hang_up();
    REQUIRE(h.pump_until([&] { return !h.session->connected(); }));
    REQUIRE(h.last<LinkStatus>().has_value());
    CHECK_FALSE(h.last<LinkStatus>()->connected);
}
