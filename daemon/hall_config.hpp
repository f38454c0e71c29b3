// The tournament hall's options of eboardd (docs/hall.md; interfaces.md, "The tournament hall"):
// `--mqtt URL`, `--host-name NAME`, `--mqtt-password-file FILE`, `--mqtt-ca-file FILE`, `--mqtt-confirm` (each
// also `KEY = VALUE` in the configuration file). Without `--mqtt` eboardd opens no network
// connection.
#pragma once

#include <boost/program_options.hpp>

#include <string>

#include "base/expected.hpp"
#include "mqtt/client.hpp"

namespace eboard::daemon {

/// The hall's options as given; empty strings: not given.
struct HallOptions {
    std::string mqtt;          ///< the broker URL; "" = do not publish
    std::string host_name;     ///< this host in topics; "" = the machine's host name
    std::string password_file; ///< the broker password, first line of the file
    std::string ca_file;       ///< CA bundle for mqtts:// ("" = the system's)
    bool confirm = false;      ///< --mqtt-confirm: outbox rows wait for the hub's received mark
};

/// The hall's options for the options table.
[[nodiscard]] boost::program_options::options_description hall_options_table();

/// Reads the hall's options from `vm` into `out` (the URL is checked by hall_client_options).
[[nodiscard]] Expected<bool> apply_hall_options(const boost::program_options::variables_map& vm, HallOptions& out);

/// The client's options for `hall.mqtt` (not empty): the URL parsed, the password read from
/// `password_file` (its first line) and the will (`eboard/v1/<host>/status` = offline,
/// retained). Errors name the option: a bad URL, a password file that cannot be read or that
/// every user may read (it must be readable only by the service user and its group: mode
/// 0600 or 0640), a CA file that cannot be read.
[[nodiscard]] Expected<mqtt::ClientOptions> hall_client_options(const HallOptions& hall, const std::string& host);

/// `--host-name`, else the machine's host name (gethostname(2)), else "localhost".
[[nodiscard]] std::string hall_host_name(const HallOptions& hall);

} // namespace eboard::daemon
