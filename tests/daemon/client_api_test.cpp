#include <catch2/catch.hpp>

#include "tests/support/test_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <atomic>
#include <future>
#include <thread>

#include "daemon/client_api.hpp"
#include "daemon/events.hpp"

using namespace eboard::daemon;
namespace asio = boost::asio;

namespace {

// Answers BOARDS; refuses the rest.
class FakeHandler : public CommandHandler {
  public:
    ojson execute(const Request& r, const ojson& raw) override {
        if (std::holds_alternative<BoardsRequest>(r)) return ojson{{"class", "BOARDS"}, {"boards", ojson::array()}};
        return error_reply(ErrorCode::Refused, "not here", raw);
    }
};

// The server on its own io thread, as in the daemon (one thread runs the loop).
struct Harness {
    asio::io_context io;
    FakeHandler handler;
    ClientServer server{io, handler};
    std::string path;
    std::thread thread;
    asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);

    Harness() {
        char tmpl[] = "/tmp/eboardd-api-XXXXXX";
        path = std::string(mkdtemp(tmpl)) + "/s";
        auto ok = server.listen(path, "");
        if (!ok) FAIL(ok.error().message);
        thread = std::thread([this] { io.run(); });
    }
    ~Harness() {
        asio::post(io, [this] { server.close(); });
        work.reset();
        io.stop();
        thread.join();
        std::filesystem::remove_all(std::filesystem::path(path).parent_path());
    }
    // Runs `f` on the loop's thread and waits for it.
    template <typename F>
    auto on_loop(F f) {
        std::packaged_task<decltype(f())()> task(std::move(f));
        auto result = task.get_future();
        asio::post(io, [&task] { task(); });
        return result.get();
    }
};

struct Client {
    int fd = -1;
    eboard::test::FdLineReader reader{-1};
    explicit Client(const std::string& path) {
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
        REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        reader = eboard::test::FdLineReader(fd);
    }
    ~Client() { close(fd); }
    void send(const std::string& s) { REQUIRE(write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size())); }
    // Blocks until a whole line arrived ("" if the server hung up).
    std::string line() {
        return reader.line();
    }
    ojson json() { return ojson::parse(line()); }
};

} // namespace

TEST_CASE("client api: VERSION on connect, socket mode 0660") {
    Harness h;
    struct stat st {};
    REQUIRE(stat(h.path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0660);
    Client c(h.path);
    const ojson v = c.json();
    CHECK(v["class"] == "VERSION");
    CHECK(v["proto_major"] == 1);
}

TEST_CASE("client api: --socket-group gives the socket that group with mode 0660, an unknown group is an error") {
    asio::io_context io;
    FakeHandler handler;
    ClientServer server(io, handler);
    char tmpl[] = "/tmp/eboardd-api-XXXXXX";
    const std::string dir = mkdtemp(tmpl);
    const std::string path = dir + "/s";
    const struct group* g = getgrgid(getegid());
    REQUIRE(g != nullptr);
    REQUIRE(server.listen(path, g->gr_name).has_value());
    struct stat st {};
    REQUIRE(stat(path.c_str(), &st) == 0);
    CHECK(st.st_gid == g->gr_gid);
    CHECK((st.st_mode & 0777) == 0660);
    server.close();
    CHECK_FALSE(std::filesystem::exists(path));
    ClientServer other(io, handler);
    auto bad = other.listen(path, "no-such-group-eboardd");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "--socket-group: no group 'no-such-group-eboardd'");
    other.close();
    std::filesystem::remove_all(dir);
}

TEST_CASE("client api: ERROR objects for bad requests, the connection stays usable") {
    Harness h;
    Client c(h.path);
    (void)c.line();
    c.send("this is not json\n");
    ojson e = c.json();
    CHECK(e["class"] == "ERROR");
    CHECK(e["message"].get<std::string>().find("not JSON") != std::string::npos);
    CHECK(e["code"] == "bad_request");
    c.send("{\"class\":\"FLY\",\"id\":7}\n");
    e = c.json();
    CHECK(e["class"] == "ERROR");
    CHECK(e["id"] == 7);
    CHECK(e["message"].get<std::string>().find("unknown request class 'FLY'") != std::string::npos);
    CHECK(e["code"] == "unknown_class");
    c.send("{\"class\":\"RESULT\",\"board\":\"t\",\"result\":\"2-0\"}\n");
    e = c.json();
    CHECK(e["class"] == "ERROR");
    CHECK(e["request"] == "RESULT");
    CHECK(e["message"].get<std::string>().find("1-0, 0-1 or 1/2-1/2") != std::string::npos);
    CHECK(e["code"] == "bad_request");
    c.send("{\"class\":\"TAKEBACK\",\"board\":\"t\"}\n");
    CHECK(c.json()["message"] == "missing field 'ply'");
    c.send("{\"class\":\"BOARDS\",\"id\":\"x\"}\n");
    CHECK(c.json()["class"] == "BOARDS");
}

TEST_CASE("client api: WATCH streams events to watchers only") {
    Harness h;
    Client watcher(h.path);
    Client other(h.path);
    (void)watcher.line();
    (void)other.line();
    watcher.send("{\"class\":\"WATCH\"}\n");
    CHECK(watcher.json()["class"] == "WATCH");
    const std::string line = to_line(BoardEvent{"t1", true, "dgt"});
    h.on_loop([&] { h.server.broadcast(line); return 0; });
    CHECK(watcher.line() + "\n" == line);
    other.send("{\"class\":\"BOARDS\"}\n");
    CHECK(other.json()["class"] == "BOARDS"); // the event did not go to `other`
}

TEST_CASE("client api: a client that never reads is dropped and does not stall the loop") {
    Harness h;
    Client sleeper(h.path);
    sleeper.send("{\"class\":\"WATCH\"}\n"); // and never reads again
    Client active(h.path);
    (void)active.line();
    active.send("{\"class\":\"WATCH\"}\n");
    CHECK(active.json()["class"] == "WATCH");
    AlertEvent big;
    big.board = "t1";
    big.game = "g";
    big.kind = eboard::AlertKind::PositionMismatch;
    big.article = "7.4";
    big.text = std::string(1000, 'x');
    const std::string line = to_line(big);
    // Far more than the kernel buffer plus kMaxQueuedBytes; the active client reads as it goes.
    // The producer lets the active reader catch up every 64 lines (a reader that falls 1 MiB
    // behind is rightly dropped too; on two busy cores a thread can be that late).
    const int n = 4 * static_cast<int>(ClientServer::kMaxQueuedBytes / line.size());
    std::atomic<int> read{0};
    std::atomic<bool> all_equal{true};
    std::thread reader([&] {
        for (int i = 0; i < n; ++i) {
            if (active.line() + "\n" != line) all_equal = false;
            ++read;
        }
    });
    for (int i = 0; i < n; ++i) {
        h.on_loop([&] { h.server.broadcast(line); return 0; });
        if (i % 64 == 63)
            while (read.load() < i - 64) std::this_thread::yield();
    }
    reader.join();
    CHECK(all_equal);
    CHECK(read == n);
    CHECK(h.on_loop([&] { return h.server.client_count(); }) == 1);
}

TEST_CASE("client api: a request line decodes to a request, an ERROR or nothing") {
    const DecodedLine watch = decode_request_line("{\"class\":\"WATCH\",\"enable\":false,\"id\":3}\n");
    REQUIRE(watch.request.has_value());
    CHECK_FALSE(std::get<WatchRequest>(*watch.request).enable);
    CHECK(watch.error.is_null());
    CHECK(reply_line(watch_reply(false, watch.raw)) == "{\"class\":\"WATCH\",\"enable\":false,\"id\":3}\n");

    CHECK(decode_request_line(" \t\r\n").error.is_null()); // blank: no reply at all
    CHECK_FALSE(decode_request_line("").request.has_value());

    const DecodedLine bad = decode_request_line("{\"class\":\"CLOCK\",\"board\":\"t\",\"white_ms\":-1}");
    CHECK_FALSE(bad.request.has_value());
    CHECK(bad.error["request"] == "CLOCK");
    CHECK(bad.error["message"] == "field 'white_ms' must be between 0 and 36000000");
    CHECK(bad.error["code"] == "bad_request");
    CHECK(decode_request_line("{\"class\":7}").error["code"] == "bad_request"); // not a class name
    CHECK(decode_request_line("[1]").error["code"] == "bad_request");

    // Bytes that are not UTF-8 are echoed in the ERROR; the reply line still serializes.
    const DecodedLine junk = decode_request_line("\xff{\n");
    CHECK(junk.error["class"] == "ERROR");
    const std::string l = reply_line(junk.error);
    CHECK(l.find("not JSON: \xef\xbf\xbd{") != std::string::npos); // U+FFFD for the 0xff byte
    CHECK(std::count(l.begin(), l.end(), '\n') == 1);
}

TEST_CASE("client api: out of file descriptors, accepting pauses with a back-off, logged once, and resumes") {
    // Issue 26: at `ulimit -n 32` accept() failed in a busy loop, 325,000 log lines in 2 s.
    asio::io_context io;
    FakeHandler handler;
    ClientServer server{io, handler};
    char tmpl[] = "/tmp/eboardd-api-XXXXXX";
    const std::filesystem::path dir = mkdtemp(tmpl);
    const std::string path = (dir / "s").string();
    REQUIRE(server.listen(path, "").has_value());
    // A timer of the loop once before: UBSan's vptr check of a type it has not seen yet needs
    // descriptors (a pipe) and would report a false error with none left.
    asio::steady_timer warm(io, std::chrono::milliseconds(0));
    warm.async_wait([](const boost::system::error_code&) {});
    io.run_for(std::chrono::milliseconds(10));
    io.restart();
    // The log goes to a file meanwhile.
    const std::string log_path = (dir / "log").string();
    const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    REQUIRE(log_fd >= 0);
    const int saved_stderr = ::dup(STDERR_FILENO);
    REQUIRE(::dup2(log_fd, STDERR_FILENO) == STDERR_FILENO);
    // A client waits in the backlog; then no descriptor is left for accept().
    const int client = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    REQUIRE(::connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    rlimit was{};
    REQUIRE(::getrlimit(RLIMIT_NOFILE, &was) == 0);
    rlimit none = was;
    none.rlim_cur = 0;
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &none) == 0);
    io.run_for(std::chrono::milliseconds(600));
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &was) == 0); // descriptors again: the client is taken
    io.run_for(std::chrono::milliseconds(1500));
    ::dup2(saved_stderr, STDERR_FILENO);
    ::close(saved_stderr);
    ::close(log_fd);
    std::string version;
    char buf[512];
    pollfd p{client, POLLIN, 0};
    if (::poll(&p, 1, 0) == 1) {
        const ssize_t n = ::read(client, buf, sizeof buf);
        if (n > 0) version.assign(buf, static_cast<std::size_t>(n));
    }
    ::close(client);
    server.close();
    std::ifstream in(log_path);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::filesystem::remove_all(dir);
    INFO(lines.size() << " log lines");
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].find("<4>client api: accept: ") == 0);
    CHECK(lines[0].find("accepting paused") != std::string::npos);
    CHECK(lines[1] == "<5>client api: accepting clients again");
    CHECK(version.find("\"VERSION\"") != std::string::npos);
}
