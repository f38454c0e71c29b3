// The driver registry (libsigrok's lesson): each driver registers itself from its own
// driver.cpp with a static DriverRegistration; nobody edits a central list. A driver
// declares its models (with quirk flags and serial settings) and its USB IDs here, once;
// udev rules (tools/eboard-udev-rules, docs/adding-a-driver.md) and probing read them from the
// registry.
#pragma once

#include "drivers/core/ble.hpp"
#include "drivers/core/driver.hpp"
#include "drivers/core/serial_settings.hpp"
#include "drivers/core/usb_id.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::drivers {

/// One model of a driver's family.
struct ModelInfo {
    std::string_view name;         ///< "classic", "bluetooth", "revelation2"
    std::string_view description;
    SerialSettings serial;         ///< per-model line settings
    std::uint32_t quirks = 0;      ///< driver-specific flag bits, documented in the driver
    /// The GATT profile when the model can be reached over Bluetooth LE (`ble:` transport),
    /// else nullptr.
    const BleProfile* ble = nullptr;
};

/// Options given to a driver when it is created: the model from the URI plus free settings
/// (e.g. "orientation" -> "rotated").
struct DriverOptions {
    std::string model;
    std::map<std::string, std::string, std::less<>> params;
};

/// The option `key` as a whole number >= 0 (e.g. "silence-ms" -> "5000"), `fallback` when the
/// option is absent; an error names the key and the bad value.
[[nodiscard]] Expected<std::int64_t> int_param(const DriverOptions& o, std::string_view key,
                                               std::int64_t fallback);

/// Who gives a driver option its value.
enum class OptionSource {
    Config,  ///< the arbiter: `driver-options` of eboardd's configuration (docs/configuration.md)
    Learned, ///< the arbiter, else eboardd from what the board learnt before (the store); configured wins
    Daemon,  ///< eboardd only (e.g. the file of a learnt Certabo calibration); refused in driver-options
};

/// One option a driver reads from `DriverOptions::params`, declared in its `DriverInfo` so that
/// eboardd's checks, `--help`, docs/configuration.md's table and the errors come from one list.
struct OptionInfo {
    std::string_view name;    ///< "vote-frames"
    std::string_view values;  ///< allowed values or range: "normal|rotated", "1..15", "MS" (milliseconds >= 0)
    std::string_view meaning; ///< one line, with the default
    OptionSource source = OptionSource::Config;
};

/// What the registry knows about a driver.
struct DriverInfo {
    std::string_view name;         ///< URI name, e.g. "dgt"
    std::string_view description;
    std::vector<ModelInfo> models; ///< the first is the default
    std::vector<UsbId> usb_ids;
    std::function<std::unique_ptr<Driver>(const DriverOptions&)> create;
    /// The options the driver reads, in the order its docs list them.
    std::vector<OptionInfo> options;
    /// The driver's own validation of `params` (what `create` would refuse), with its message;
    /// run by eboardd at start, before any device is opened. Unset: nothing to check.
    std::function<Expected<bool>(const DriverOptions&)> check;

    /// The model named `name`, the default for "", nullptr if unknown.
    [[nodiscard]] const ModelInfo* model(std::string_view name) const;
};

/// A DriverInfo::check from the driver's options reader (`parse(options)` returns an Expected
/// of the driver's options struct, e.g. DgtOptions::from_params): its error, else true.
template <typename Parse>
[[nodiscard]] std::function<Expected<bool>(const DriverOptions&)> check_by(Parse parse) {
    return [parse](const DriverOptions& o) -> Expected<bool> {
        if (auto parsed = parse(o); !parsed) return parsed.error();
        return true;
    };
}

/// The declared option `name` of `driver`, nullptr if it declares none of that name.
[[nodiscard]] const OptionInfo* find_option(const DriverInfo& driver, std::string_view name);

/// The names of the options of `driver` an arbiter may set (source Config or Learned), comma
/// separated: "orientation, update-mode, ack-timeout-ms, startup-delay-ms".
[[nodiscard]] std::string settable_option_names(const DriverInfo& driver);

/// Checks options an arbiter configured for `driver`: every key is one of its settable options,
/// then the driver's own validation (`check`). Errors: "unknown option 'x' (dgt knows: ...)",
/// "option 'calibration' is set by eboardd itself", or the driver's message.
[[nodiscard]] Expected<bool> check_configured_options(const DriverInfo& driver, const DriverOptions& options);

/// Adds a driver to the registry. Use as a namespace-scope static in the driver's .cpp.
struct DriverRegistration {
    explicit DriverRegistration(DriverInfo info);
};

/// The registered driver called `name`, or nullptr.
[[nodiscard]] const DriverInfo* find_driver(std::string_view name);
/// All registered drivers, sorted by name.
[[nodiscard]] std::vector<const DriverInfo*> all_drivers();

} // namespace eboard::drivers
