#include "drivers/core/registry.hpp"

#include <algorithm>

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
