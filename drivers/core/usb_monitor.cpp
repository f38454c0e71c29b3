// UsbMonitor (usb.hpp): libusb hotplug callbacks for the registry's USB id tables. One
// callback for any device, filtered against the tables, armed with ENUMERATE so the boards
// already connected arrive first.
#include "drivers/core/usb_common.hpp"

#include <algorithm>
#include <chrono>

namespace eboard::drivers {

namespace {

/// One row of the id tables with the driver that declared it.
struct WatchedId {
    UsbId id;  ///< note not kept
    std::string driver;
};

class LibusbMonitor final : public UsbMonitor {
  public:
    LibusbMonitor(UsbContext ctx, std::vector<WatchedId> ids) : ctx_(std::move(ctx)), ids_(std::move(ids)) {}
    ~LibusbMonitor() override {
        if (registered_) libusb_hotplug_deregister_callback(ctx_.get(), handle_);
    }
    LibusbMonitor(const LibusbMonitor&) = delete;
    LibusbMonitor& operator=(const LibusbMonitor&) = delete;

    [[nodiscard]] std::optional<Error> arm() {
        // ENUMERATE fires the callback for the devices present, inside this call.
        const int r = libusb_hotplug_register_callback(
            ctx_.get(),
            static_cast<libusb_hotplug_event>(LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED | LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT),
            LIBUSB_HOTPLUG_ENUMERATE, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY,
            LIBUSB_HOTPLUG_MATCH_ANY, &LibusbMonitor::on_hotplug, this, &handle_);
        if (r != 0) return Error{usb_error_text(r, "watch USB hotplug events")};
        registered_ = true;
        return std::nullopt;
    }

    std::vector<UsbHotplugEvent> poll(int timeout_ms) override {
        const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(0, timeout_ms));
        do {
            const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
                end - std::chrono::steady_clock::now());
            const long us = pending_.empty() ? std::max<long>(0, static_cast<long>(left.count())) : 0;
            timeval tv{us / 1000000, us % 1000000};
            if (libusb_handle_events_timeout_completed(ctx_.get(), &tv, nullptr) != 0) break;
        } while (pending_.empty() && std::chrono::steady_clock::now() < end);
        return std::exchange(pending_, {});
    }

    [[nodiscard]] std::vector<UsbBoardInfo> present() const override { return present_; }

  private:
    static int LIBUSB_CALL on_hotplug(libusb_context*, libusb_device* dev, libusb_hotplug_event ev,
                                      void* user) {
        auto* self = static_cast<LibusbMonitor*>(user);
        libusb_device_descriptor dd{};
        if (libusb_get_device_descriptor(dev, &dd) != 0) return 0;
        const auto it = std::find_if(self->ids_.begin(), self->ids_.end(), [&](const WatchedId& w) {
            return w.id.matches(dd.idVendor, dd.idProduct);
        });
        if (it == self->ids_.end()) return 0;
        UsbHotplugEvent e;
        e.arrived = ev == LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED;
        e.board = {{libusb_get_bus_number(dev), libusb_get_device_address(dev)}, dd.idVendor, dd.idProduct, it->driver};
        auto& p = self->present_;
        p.erase(std::remove_if(p.begin(), p.end(), [&](const UsbBoardInfo& b) { return b.where == e.board.where; }),
                p.end());
        if (e.arrived) p.push_back(e.board);
        trace_channel("usb").note(std::string(e.arrived ? "arrived: " : "left: ") + e.board.str() + " " + it->driver);
        self->pending_.push_back(std::move(e));
        return 0;
    }

    UsbContext ctx_;
    std::vector<WatchedId> ids_;
    libusb_hotplug_callback_handle handle_{};
    bool registered_ = false;
    std::vector<UsbHotplugEvent> pending_;
    std::vector<UsbBoardInfo> present_;
};

} // namespace

Expected<std::unique_ptr<UsbMonitor>> open_usb_monitor(std::string_view driver) {
    if (!libusb_has_capability(LIBUSB_CAP_HAS_HOTPLUG))
        return Error{"this libusb has no hotplug support: boards plugged in later are not seen"};
    std::vector<WatchedId> ids;
    for (const DriverInfo* d : all_drivers()) {
        if (!driver.empty() && d->name != driver) continue;
        for (const UsbId& u : d->usb_ids)
            ids.push_back({UsbId{u.vid, u.pid, {}, u.certain, u.access, u.pid_last}, std::string(d->name)});
    }
    if (ids.empty())
        return Error{driver.empty() ? std::string("no registered driver declares USB ids")
                                    : "driver '" + std::string(driver) + "' declares no USB ids"};
    auto ctx = make_usb_context();
    if (!ctx) return ctx.error();
    auto m = std::make_unique<LibusbMonitor>(std::move(ctx.value()), std::move(ids));
    if (auto failed = m->arm()) return *failed;
    return std::unique_ptr<UsbMonitor>(std::move(m));
}

} // namespace eboard::drivers
