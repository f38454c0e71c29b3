// The libusb HID transport (usb.hpp): device choice by the registry's VID:PID table, kernel
// driver detach, one interrupt IN transfer always in flight (reports queue up between reads),
// writes on interrupt OUT or as SET_REPORT, disconnect from hotplug or NO_DEVICE.
#include "drivers/core/usb.hpp"

#include "drivers/core/usb_common.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <optional>

namespace eboard::drivers {

namespace {

/// The HID interface and endpoints chosen on a device.
struct HidEndpoints {
    int interface = -1;
    std::uint8_t in = 0, out = 0;  ///< endpoint addresses; out = 0: no interrupt OUT
    int in_size = 64;              ///< wMaxPacketSize of the IN endpoint
};

/// The HID interfaces (altsetting 0) of the active configuration with an interrupt IN endpoint,
/// in interface order (chessnut.md 1-2: the board's vendor HID interface is one of them).
Expected<std::vector<HidEndpoints>> find_hid_interfaces(libusb_device* dev, const std::string& name) {
    libusb_config_descriptor* cfg = nullptr;
    if (const int r = libusb_get_active_config_descriptor(dev, &cfg); r != 0)
        return Error{usb_error_text(r, "read the configuration descriptor of " + name)};
    std::vector<HidEndpoints> found;
    for (int i = 0; i < cfg->bNumInterfaces; ++i) {
        const libusb_interface& itf = cfg->interface[i];
        if (itf.num_altsetting < 1) continue;
        const libusb_interface_descriptor& alt = itf.altsetting[0];
        if (alt.bInterfaceClass != LIBUSB_CLASS_HID) continue;
        HidEndpoints ep;
        ep.interface = alt.bInterfaceNumber;
        for (int e = 0; e < alt.bNumEndpoints; ++e) {
            const libusb_endpoint_descriptor& d = alt.endpoint[e];
            if ((d.bmAttributes & 3) != LIBUSB_TRANSFER_TYPE_INTERRUPT) continue;
            if (d.bEndpointAddress & LIBUSB_ENDPOINT_IN) {
                if (!ep.in) {
                    ep.in = d.bEndpointAddress;
                    ep.in_size = std::max(8, static_cast<int>(d.wMaxPacketSize & 0x7ff));
                }
            } else if (!ep.out) {
                ep.out = d.bEndpointAddress;
            }
        }
        if (ep.in) found.push_back(ep);
    }
    libusb_free_config_descriptor(cfg);
    if (found.empty())
        return Error{name + " has no HID interface with an interrupt IN endpoint: not a HID board "
                            "(see the driver's README for the expected descriptors)"};
    return found;
}

/// True if the report descriptor of claimed interface `interface` has a top-level collection
/// on the vendor usage page 0xFF00 (HID 1.11 7.1.1 GET_DESCRIPTOR, report descriptor 0x22).
bool vendor_page_interface(libusb_device_handle* h, int interface) {
    std::array<std::uint8_t, 1024> buf{};
    const int n = libusb_control_transfer(h, 0x81, LIBUSB_REQUEST_GET_DESCRIPTOR, 0x2200,
                                          static_cast<std::uint16_t>(interface), buf.data(),
                                          static_cast<std::uint16_t>(buf.size()), 1000);
    if (n <= 0) return false;
    const auto pages = hid_top_level_usage_pages(std::span<const std::uint8_t>(buf.data(), static_cast<std::size_t>(n)));
    return std::find(pages.begin(), pages.end(), std::uint16_t{0xff00}) != pages.end();
}

/// Claims the board's interface among `candidates` (usbhid detached): the only one, else the
/// first whose report descriptor is on the vendor page 0xFF00, as the Chessnut SDK chooses
/// (its report descriptor can only be read once usbhid lets the interface go, so each is
/// claimed in turn and the others given back); none on that page: the first. Returns it or
/// the libusb error of the claim.
Expected<HidEndpoints> claim_board_interface(libusb_device_handle* h, const std::vector<HidEndpoints>& candidates,
                                             const std::string& name) {
    const auto claim = [&](const HidEndpoints& ep) -> std::optional<Error> {
        if (const int r = libusb_claim_interface(h, ep.interface); r != 0)
            return Error{usb_error_text(r, "claim interface " + std::to_string(ep.interface) + " of " + name)};
        return std::nullopt;
    };
    if (candidates.size() > 1) {
        for (const HidEndpoints& ep : candidates) {
            if (claim(ep)) continue;
            if (vendor_page_interface(h, ep.interface)) return ep;
            (void)libusb_release_interface(h, ep.interface);
        }
        trace_channel("usb").note(name + ": no HID interface on the vendor page FF00; taking the first");
    }
    if (auto failed = claim(candidates.front())) return *failed;
    return candidates.front();
}

class UsbTransport final : public Transport {
  public:
    UsbTransport(UsbContext ctx, libusb_device* dev, libusb_device_handle* handle, HidEndpoints ep,
                 std::string name)
        : ctx_(std::move(ctx)), dev_(dev), handle_(handle), ep_(ep), name_(std::move(name)),
          trace_(trace_channel("usb")), in_buf_(static_cast<std::size_t>(ep.in_size)) {}
    ~UsbTransport() override { UsbTransport::close(); }

    /// Registers the unplug callback and starts reading; call once after construction.
    [[nodiscard]] std::optional<Error> start() {
        if (libusb_has_capability(LIBUSB_CAP_HAS_HOTPLUG)) {
            libusb_device_descriptor dd{};
            (void)libusb_get_device_descriptor(dev_, &dd);
            const int r = libusb_hotplug_register_callback(
                ctx_.get(), LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT, 0, dd.idVendor, dd.idProduct,
                LIBUSB_HOTPLUG_MATCH_ANY, &UsbTransport::on_hotplug, this, &hotplug_);
            if (r == 0) hotplug_registered_ = true;
        }
        in_ = libusb_alloc_transfer(0);
        if (!in_) return Error{"libusb: out of memory for a transfer"};
        libusb_fill_interrupt_transfer(in_, handle_, ep_.in, in_buf_.data(), ep_.in_size,
                                       &UsbTransport::on_in, this, 0);
        if (const int r = libusb_submit_transfer(in_); r != 0)
            return Error{usb_error_text(r, "start reading " + name_)};
        in_flight_ = true;
        return std::nullopt;
    }

    [[nodiscard]] std::string name() const override { return name_; }
    [[nodiscard]] bool message_oriented() const override { return true; }
    [[nodiscard]] bool disconnected() const override { return down_; }
    [[nodiscard]] std::string error() const override { return error_; }

    bool write(std::span<const std::uint8_t> bytes) override {
        if (down_) return false;
        if (bytes.empty()) return true;
        std::vector<std::uint8_t> report(bytes.begin(), bytes.end());  // libusb wants non-const
        const int len = static_cast<int>(report.size());
        int r = 0;
        if (ep_.out) {
            int done = 0;
            r = libusb_interrupt_transfer(handle_, ep_.out, report.data(), len, &done, kWriteTimeoutMs);
            if (r == 0 && done != len) r = LIBUSB_ERROR_IO;
        } else {
            // HID class SET_REPORT(Output), report id = first byte (chessnut.md 2).
            r = libusb_control_transfer(
                handle_, kSetReportRequestType,
                0x09, static_cast<std::uint16_t>(0x0200 | report[0]),
                static_cast<std::uint16_t>(ep_.interface), report.data(),
                static_cast<std::uint16_t>(len), kWriteTimeoutMs);
            r = r == len ? 0 : (r >= 0 ? LIBUSB_ERROR_IO : r);
        }
        if (r != 0) {
            fail(usb_error_text(r, "write to " + name_));
            return false;
        }
        return !down_;
    }

    std::size_t read(std::span<std::uint8_t> buf, int timeout_ms) override {
        if (reports_.empty() && !down_) pump(timeout_ms);
        if (reports_.empty() || buf.empty()) return 0;
        const std::vector<std::uint8_t> report = std::move(reports_.front());
        reports_.pop_front();
        const std::size_t n = std::min(buf.size(), report.size());
        std::copy_n(report.begin(), n, buf.begin());
        return n;
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        down_ = true;
        if (error_.empty()) error_ = "closed";
        if (in_flight_) {
            // Cancel and wait (bounded) for the callback; a vanished device never calls back,
            // and libusb_close() then drops the transfer from its in-flight list.
            if (libusb_cancel_transfer(in_) == 0) {
                const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
                while (in_flight_ && std::chrono::steady_clock::now() < end) {
                    timeval tv{0, 20000};
                    if (libusb_handle_events_timeout_completed(ctx_.get(), &tv, nullptr) != 0) break;
                }
            }
        }
        if (hotplug_registered_) libusb_hotplug_deregister_callback(ctx_.get(), hotplug_);
        hotplug_registered_ = false;
        // Releasing gives the interface back to usbhid (auto-detach re-attaches it).
        (void)libusb_release_interface(handle_, ep_.interface);
        libusb_close(handle_);
        if (in_) libusb_free_transfer(in_);
        in_ = nullptr;
        libusb_unref_device(dev_);
        ctx_.reset();
    }

  private:
    static constexpr unsigned kWriteTimeoutMs = 1000;
    /// Host to device, class request, recipient interface (HID 1.11 7.2).
    static constexpr std::uint8_t kSetReportRequestType = 0x21;
    static constexpr int kMaxInErrors = 10;  ///< consecutive failed IN transfers before giving up

    void fail(std::string why) {
        if (!down_) trace_.note(name_ + ": " + why);
        if (error_.empty()) error_ = std::move(why);
        down_ = true;
    }

    /// Handles libusb events until a report is queued, the link is down or `timeout_ms` passed.
    void pump(int timeout_ms) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(0, timeout_ms));
        do {
            const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
                end - std::chrono::steady_clock::now());
            const long us = std::max<long>(0, static_cast<long>(left.count()));
            timeval tv{us / 1000000, us % 1000000};
            int completed = 0;
            completed_ = &completed;
            const int r = libusb_handle_events_timeout_completed(ctx_.get(), &tv, &completed);
            completed_ = nullptr;
            if (r != 0 && r != LIBUSB_ERROR_INTERRUPTED) {
                fail(usb_error_text(r, "libusb event handling for " + name_));
                return;
            }
        } while (reports_.empty() && !down_ && std::chrono::steady_clock::now() < end);
    }

    static void LIBUSB_CALL on_in(libusb_transfer* t) {
        auto* self = static_cast<UsbTransport*>(t->user_data);
        self->in_flight_ = false;
        if (self->completed_) *self->completed_ = 1;
        switch (t->status) {
        case LIBUSB_TRANSFER_COMPLETED:
            self->in_errors_ = 0;
            if (t->actual_length > 0)
                self->reports_.emplace_back(t->buffer, t->buffer + t->actual_length);
            break;
        case LIBUSB_TRANSFER_CANCELLED: return;
        case LIBUSB_TRANSFER_NO_DEVICE: self->fail("board unplugged (no device)"); return;
        case LIBUSB_TRANSFER_STALL:
        case LIBUSB_TRANSFER_OVERFLOW:
        case LIBUSB_TRANSFER_TIMED_OUT:
        case LIBUSB_TRANSFER_ERROR:
            if (++self->in_errors_ > kMaxInErrors) {
                self->fail("reading " + self->name_ + " keeps failing (transfer status " +
                           std::to_string(static_cast<int>(t->status)) + ")");
                return;
            }
            self->trace_.note(self->name_ + ": input transfer failed (status " +
                              std::to_string(static_cast<int>(t->status)) + "), retrying");
            break;
        }
        if (self->closed_ || self->down_) return;
        if (const int r = libusb_submit_transfer(t); r != 0) {
            self->fail(usb_error_text(r, "read from " + self->name_));
            return;
        }
        self->in_flight_ = true;
    }

    static int LIBUSB_CALL on_hotplug(libusb_context*, libusb_device* dev, libusb_hotplug_event ev,
                                      void* user) {
        auto* self = static_cast<UsbTransport*>(user);
        if (ev == LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT && dev == self->dev_)
            self->fail("board unplugged (" + self->name_ + " left the bus)");
        return 0;
    }

    UsbContext ctx_;
    libusb_device* dev_;
    libusb_device_handle* handle_;
    HidEndpoints ep_;
    std::string name_;
    const TraceChannel& trace_;
    std::vector<std::uint8_t> in_buf_;
    libusb_transfer* in_ = nullptr;
    bool in_flight_ = false;
    int in_errors_ = 0;
    int* completed_ = nullptr;
    libusb_hotplug_callback_handle hotplug_{};
    bool hotplug_registered_ = false;
    std::deque<std::vector<std::uint8_t>> reports_;
    bool down_ = false, closed_ = false;
    std::string error_;
};

/// The device `address` names, or the first in `ids` (lowest bus, then address). Returns a
/// referenced device.
Expected<libusb_device*> choose_device(libusb_context* ctx, std::string_view address,
                                       std::span<const UsbId> ids) {
    if (ids.empty()) return Error{"this driver declares no libusb USB ids: it cannot use the usb transport"};
    std::optional<UsbAddress> wanted;
    if (!address.empty()) {
        auto a = UsbAddress::parse(address);
        if (!a) return a.error();
        wanted = a.value();
    }
    libusb_device** list = nullptr;
    const ssize_t n = libusb_get_device_list(ctx, &list);
    if (n < 0) return Error{usb_error_text(static_cast<int>(n), "list USB devices")};
    libusb_device* best = nullptr;
    UsbAddress best_at{256, 256};
    std::string refused;
    for (ssize_t i = 0; i < n; ++i) {
        libusb_device* d = list[i];
        const UsbAddress at{libusb_get_bus_number(d), libusb_get_device_address(d)};
        libusb_device_descriptor dd{};
        if (libusb_get_device_descriptor(d, &dd) != 0) continue;
        if (wanted) {
            if (at != *wanted) continue;
            const bool vendor_known = std::any_of(ids.begin(), ids.end(),
                                                  [&](const UsbId& u) { return u.vid == dd.idVendor; });
            if (!vendor_known) {
                refused = "USB device " + at.str() + " is " + usb_id_text(dd.idVendor, dd.idProduct) +
                          ", not a board of this driver (" + usb_ids_text(ids) + ")";
                continue;
            }
            best = d;
            break;
        }
        if (!usb_id_listed(ids, dd.idVendor, dd.idProduct)) continue;
        if (!best || std::pair(at.bus, at.address) < std::pair(best_at.bus, best_at.address)) {
            best = d;
            best_at = at;
        }
    }
    if (best) libusb_ref_device(best);
    libusb_free_device_list(list, 1);
    if (best) return best;
    if (!refused.empty()) return Error{refused};
    if (wanted) return Error{"no USB device at bus " + std::to_string(wanted->bus) + " address " +
                             std::to_string(wanted->address) + " (see `lsusb`)"};
    return Error{"no USB board of this driver is connected (looked for " + usb_ids_text(ids) +
                 "); plug it in, or check `lsusb`"};
}

} // namespace

Expected<std::unique_ptr<Transport>> open_usb(std::string_view address, std::span<const UsbId> ids) {
    auto ctx = make_usb_context();
    if (!ctx) return ctx.error();
    auto chosen = choose_device(ctx->get(), address, ids);
    if (!chosen) return chosen.error();
    libusb_device* dev = chosen.value();
    libusb_device_descriptor dd{};
    (void)libusb_get_device_descriptor(dev, &dd);
    const UsbBoardInfo info{{libusb_get_bus_number(dev), libusb_get_device_address(dev)}, dd.idVendor, dd.idProduct, {}};
    const std::string name = info.str();
    auto candidates = find_hid_interfaces(dev, name);
    if (!candidates) {
        libusb_unref_device(dev);
        return candidates.error();
    }
    libusb_device_handle* h = nullptr;
    if (const int r = libusb_open(dev, &h); r != 0) {
        libusb_unref_device(dev);
        return Error{usb_error_text(r, "open " + name)};
    }
    // usbhid binds the HID interfaces (and makes /dev/hidraw*); take the board's over while we
    // run and give it back on release (chessnut.md 1).
    const bool kernel_driver = libusb_kernel_driver_active(h, candidates->front().interface) == 1;
    (void)libusb_set_auto_detach_kernel_driver(h, 1);
    auto ep = claim_board_interface(h, candidates.value(), name);
    if (!ep) {
        libusb_close(h);
        libusb_unref_device(dev);
        return ep.error();
    }
    trace_channel("usb").note("opened " + name + ": interface " + std::to_string(ep->interface) +
                              ", IN " + hex_bytes(std::array{ep->in}) +
                              (ep->out ? ", OUT " + hex_bytes(std::array{ep->out}) : std::string(", SET_REPORT")) +
                              (kernel_driver ? ", kernel driver detached" : ""));
    auto t = std::make_unique<UsbTransport>(std::move(ctx.value()), dev, h, ep.value(), name);
    if (auto failed = t->start()) return *failed;
    return std::unique_ptr<Transport>(std::move(t));
}

} // namespace eboard::drivers
