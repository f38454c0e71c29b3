#include "drivers/core/registry.hpp"

#include <algorithm>
#include <charconv>

namespace eboard::drivers {

namespace {
// Function-local static: registrations run during static initialisation in any order.
std::vector<std::unique_ptr<DriverInfo>>& drivers() {
    static std::vector<std::unique_ptr<DriverInfo>> list;
    return list;
}
} // namespace

const ModelInfo* DriverInfo::model(std::string_view wanted) const {
    if (models.empty()) return nullptr;
    if (wanted.empty()) return &models.front();
    for (const auto& m : models)
        if (m.name == wanted) return &m;
    return nullptr;
}

Expected<std::int64_t> int_param(const DriverOptions& o, std::string_view key, std::int64_t fallback) {
    const auto it = o.params.find(key);
    if (it == o.params.end()) return fallback;
    const std::string& s = it->second;
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size() || v < 0)
        return Error{"option " + std::string(key) + " takes a whole number >= 0, not '" + s + "'"};
    return v;
}

const OptionInfo* find_option(const DriverInfo& driver, std::string_view name) {
    for (const auto& o : driver.options)
        if (o.name == name) return &o;
    return nullptr;
}

std::string settable_option_names(const DriverInfo& driver) {
    std::string names;
    for (const auto& o : driver.options) {
        if (o.source == OptionSource::Daemon) continue;
        if (!names.empty()) names += ", ";
        names += o.name;
    }
    return names;
}

Expected<bool> check_configured_options(const DriverInfo& driver, const DriverOptions& options) {
    for (const auto& [key, value] : options.params) {
        const OptionInfo* o = find_option(driver, key);
        if (!o)
            return Error{"unknown option '" + key + "' (" + std::string(driver.name) +
                         " knows: " + settable_option_names(driver) + ")"};
        if (o->source == OptionSource::Daemon)
            return Error{"option '" + key + "' is set by eboardd itself, not in driver-options (" +
                         std::string(driver.name) + " knows: " + settable_option_names(driver) + ")"};
    }
    if (driver.check) return driver.check(options);
    return true;
}

DriverRegistration::DriverRegistration(DriverInfo info) {
    drivers().push_back(std::make_unique<DriverInfo>(std::move(info)));
}

const DriverInfo* find_driver(std::string_view name) {
    for (const auto& d : drivers())
        if (d->name == name) return d.get();
    return nullptr;
}

std::vector<const DriverInfo*> all_drivers() {
    std::vector<const DriverInfo*> out;
    for (const auto& d : drivers()) out.push_back(d.get());
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
    return out;
}

} // namespace eboard::drivers
