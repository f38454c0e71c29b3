#include "daemon/hall_config.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "daemon/hall_topics.hpp"

namespace eboard::daemon {
namespace po = boost::program_options;

po::options_description hall_options_table() {
    po::options_description d("the tournament hall (MQTT; docs/hall.md)");
    // clang-format off
    d.add_options()
        ("mqtt", po::value<std::string>()->value_name("URL"), "publish every event to the broker at URL, mqtt://[USER[:PASSWORD]@]HOST[:PORT] or mqtts://... (default: no network at all)")
        ("host-name", po::value<std::string>()->value_name("NAME"), "this host in the topics eboard/v1/NAME/... (default: the machine's host name)")
        ("mqtt-password-file", po::value<std::string>()->value_name("FILE"), "the broker password, first line of FILE (readable only by the service user: mode 0600 or 0640)")
        ("mqtt-ca-file", po::value<std::string>()->value_name("FILE"), "mqtts://: the CA certificates that sign the broker's (default: the system's)")
        ("mqtt-confirm", po::value<bool>()->implicit_value(true)->value_name("[BOOL]"), "keep each message in the outbox until eboard-hub's received mark covers it, not only until the broker's PUBACK (a hall with a hub; docs/hall.md)");
    // clang-format on
    return d;
}

Expected<bool> apply_hall_options(const po::variables_map& vm, HallOptions& out) {
    auto str = [&](const char* key, std::string& value) {
        if (vm.count(key)) value = vm[key].as<std::string>();
    };
    str("mqtt", out.mqtt);
    str("host-name", out.host_name);
    str("mqtt-password-file", out.password_file);
    str("mqtt-ca-file", out.ca_file);
    if (vm.count("mqtt-confirm")) out.confirm = vm["mqtt-confirm"].as<bool>();
    if (vm.count("host-name") && out.host_name.empty()) return Error{"--host-name: empty"};
    return true;
}

namespace {

// The first line of the password file, refused when every user may read it.
Expected<std::string> read_password(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return Error{"--mqtt-password-file: cannot read '" + path + "': " + std::strerror(errno)};
    if (!S_ISREG(st.st_mode)) return Error{"--mqtt-password-file: '" + path + "' is not a regular file"};
    if ((st.st_mode & S_IRWXO) != 0) {
        std::array<char, 8> mode{};
        std::snprintf(mode.data(), mode.size(), "%04o", static_cast<unsigned>(st.st_mode & 07777));
        return Error{"--mqtt-password-file: '" + path + "' is open to every user (mode " + mode.data() +
                     "); make it readable only by the service user (chmod 600, or 640 for its group)"};
    }
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) return Error{"--mqtt-password-file: cannot read '" + path + "'"};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) return Error{"--mqtt-password-file: '" + path + "' has no password on its first line"};
    return line;
}

} // namespace

Expected<mqtt::ClientOptions> hall_client_options(const HallOptions& hall, const std::string& host) {
    auto url = mqtt::parse_url(hall.mqtt);
    if (!url) return Error{"--mqtt: " + url.error().message};
    mqtt::ClientOptions o;
    o.url = std::move(*url);
    if (!hall.password_file.empty()) {
        auto password = read_password(hall.password_file);
        if (!password) return password.error();
        if (o.url.user.empty()) return Error{"--mqtt-password-file: the URL names no user (mqtt://USER@HOST)"};
        o.password = std::move(*password);
    }
    if (!hall.ca_file.empty()) {
        if (!o.url.tls) return Error{"--mqtt-ca-file: only for mqtts:// URLs"};
        if (::access(hall.ca_file.c_str(), R_OK) != 0)
            return Error{"--mqtt-ca-file: cannot read '" + hall.ca_file + "': " + std::strerror(errno)};
        o.ca_file = hall.ca_file;
    }
    o.will = mqtt::Will{status_topic(host), "offline", 1, true};
    return o;
}

std::string hall_host_name(const HallOptions& hall) {
    if (!hall.host_name.empty()) return hall.host_name;
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) == 0 && name[0] != '\0') return name.data();
    return "localhost";
}

} // namespace eboard::daemon
