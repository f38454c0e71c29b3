// Helpers for the speech tests: a temporary directory, a speech-dispatcher started by the test
// itself whose output module writes WAV files through espeak-ng, and (speech_files.hpp)
// waiting for files with inotify and reading a WAV file's duration with soxi (sox).
#pragma once

#include "tests/speech/speech_files.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <poll.h>
#include <set>
#include <csignal>
#include <spawn.h>
#include <string>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace eboard::test {

/// A fresh directory under the system temp directory, removed at the end.
class TempDir {
  public:
    TempDir() {
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "eboard-speech-XXXXXX").string();
        REQUIRE(mkdtemp(tmpl.data()) != nullptr);
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

/// A speech-dispatcher of the test's own: its socket and config in a temp dir, one output
/// module (sd_generic) that runs espeak-ng to write each message to `<out>/<pid>.wav` (its
/// text to `<out>/<pid>.txt`), audio
/// to ALSA's null device (a CI container has no sound card). Stopped (SIGTERM) at the end.
class OwnSpeechDispatcher {
  public:
    explicit OwnSpeechDispatcher(const std::filesystem::path& root) : root_(root) {
        namespace fs = std::filesystem;
        fs::create_directories(root / "conf" / "modules");
        fs::create_directories(root / "out");
        fs::create_directories(root / "log");
        std::ofstream(root / "conf" / "speechd.conf")
            << "CommunicationMethod \"unix_socket\"\n"
               "LogLevel 3\n"
               "AudioOutputMethod \"alsa\"\n"
               "AudioALSADevice \"null\"\n"
               "DefaultModule \"wav\"\n"
               "AddModule \"wav\" \"sd_generic\" \"wav.conf\"\n"
               "DefaultLanguage \"en\"\n";
        // Written under a temporary name, then renamed: the file appears whole.
        const std::string out = (root / "out").string();
        std::ofstream mod(root / "conf" / "modules" / "wav.conf");
        // The text goes beside the WAV (`<pid>.txt`, written before the WAV appears).
        // (sd_generic replaces only the first $DATA: tee keeps the text.)
        mod << "GenericExecuteSynth \"printf %s \\'$DATA\\' | tee " << out
            << "/$$.txt | espeak-ng -v $VOICE --stdin -w " << out << "/$$.tmp && mv " << out
            << "/$$.tmp " << out << "/$$.wav\"\n";
        for (const char* lang : {"en", "de", "nl", "af", "fr"})
            mod << "GenericLanguage \"" << lang << "\" \"" << lang << "\" \"utf-8\"\n"
                << "AddVoice \"" << lang << "\" \"MALE1\" \"" << lang << "\"\n";
        mod.close();
        const std::string conf = (root / "conf").string(), sock = socket().string(),
                          log = (root / "log").string();
        // Its own pid file too: another speech-dispatcher on the machine must not stop it.
        const std::string pid = (root / "speechd.pid").string();
        std::vector<std::string> args = {
            "speech-dispatcher", "-s", "-t", "0", "-C", conf, "-S", sock, "-L", log, "-P", pid};
        std::vector<char*> argv;
        argv.reserve(args.size() + 1);
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        // Its chatter goes to its log directory, not into the test's output.
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        const std::string chatter = (root / "log" / "stdout.txt").string();
        posix_spawn_file_actions_addopen(&fa, 1, chatter.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                         0644);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
        if (posix_spawnp(&pid_, "speech-dispatcher", &fa, nullptr, argv.data(), environ) != 0)
            pid_ = -1;
        posix_spawn_file_actions_destroy(&fa);
    }
    /// SIGTERM, then SIGKILL if it has not exited within 5 s (under load it was seen to hang
    /// on its way out; a test must not wait for ctest's 600 s timeout).
    ~OwnSpeechDispatcher() {
        if (pid_ <= 0) return;
        const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
        kill(pid_, SIGTERM);
        if (pidfd >= 0) {
            pollfd p{pidfd, POLLIN, 0};
            if (::poll(&p, 1, 5000) == 0) kill(pid_, SIGKILL); // readable once it has exited
            ::close(pidfd);
        }
        waitpid(pid_, nullptr, 0);
    }
    OwnSpeechDispatcher(const OwnSpeechDispatcher&) = delete;
    OwnSpeechDispatcher& operator=(const OwnSpeechDispatcher&) = delete;

    /// Waits until it accepts a connection on its socket, at most 10 s: "" when ready, else
    /// why not (with its log's tail). The socket file appears at bind(), before listen(): a
    /// client connecting in between is refused, so readiness is a connect that succeeds.
    [[nodiscard]] std::string wait_ready() {
        if (pid_ <= 0) return "speech-dispatcher could not be started (not installed?)";
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        if (wait_for_files(root_, ".sock", 1, std::chrono::seconds(10)).empty())
            return why_not("speech-dispatcher made no socket within 10 s");
        // Bound, not yet listening: try again until it listens, exits, or the deadline.
        for (;;) {
            if (accepts_connection()) return "";
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                return why_not("speech-dispatcher exited before listening");
            }
            if (std::chrono::steady_clock::now() > deadline)
                return why_not("speech-dispatcher refused connections for 10 s");
            poll(nullptr, 0, 10); // retry interval of the connect; the deadline bounds it
        }
    }
    [[nodiscard]] std::filesystem::path socket() const { return root_ / "speechd.sock"; }
    [[nodiscard]] std::filesystem::path out() const { return root_ / "out"; }

  private:
    /// True when a client connect() to its socket succeeds (the connection is closed at once).
    [[nodiscard]] bool accepts_connection() const {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return false;
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        const std::string path = socket().string();
        if (path.size() >= sizeof addr.sun_path) {
            ::close(fd);
            return false;
        }
        path.copy(addr.sun_path, path.size());
        const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
        ::close(fd);
        return ok;
    }
    /// `what`, then speech-dispatcher's log.
    [[nodiscard]] std::string why_not(const std::string& what) const {
        std::string why = what + "; its log: ";
        std::ifstream in(root_ / "log" / "speech-dispatcher.log");
        for (std::string line; std::getline(in, line);) why += line + " | ";
        return why;
    }

    std::filesystem::path root_;
    pid_t pid_ = -1;
};

} // namespace eboard::test
