// FakeUsbBus (fake_usb.hpp): umockdev testbed + usbdevfs ioctl handler, after umockdev's own
// usbfs ioctl tests. The kernel side of usbfs is modelled only as far
// as libusb 1.0.26 uses it (os/linux_usbfs.c): capabilities, claim/release, kernel driver
// detach and re-attach, interrupt and control URBs, reap without delay, discard.
#include "drivers/emu/umockdev/fake_usb.hpp"

#include "drivers/core/session.hpp"

#include <umockdev.h>
// <linux/usbdevice_fs.h> needs <sys/ioctl.h> first.
#include <sys/ioctl.h>
#include <linux/usbdevice_fs.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

namespace eboard::drivers::emu {

namespace {

void put16(std::vector<std::uint8_t>& v, unsigned x) {
    v.push_back(static_cast<std::uint8_t>(x & 0xff));
    v.push_back(static_cast<std::uint8_t>(x >> 8));
}

/// A vendor-page (FF00) HID report descriptor with 64-byte input and output reports, the usage
/// page the Chessnut SDK looks for (chessnut.md 1). Only served on request.
constexpr std::uint8_t kReportDescriptor[] = {
    0x06, 0x00, 0xff,  // usage page FF00
    0x09, 0x01,        // usage 1
    0xa1, 0x01,        // collection (application)
    0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x40,  // 0..255, 8 bits, 64 of them
    0x09, 0x01, 0x81, 0x02,  // input (data, var, abs)
    0x09, 0x01, 0x91, 0x02,  // output (data, var, abs)
    0xc0,                    // end collection
};

/// A boot keyboard's HID report descriptor (HID 1.11 appendix B.1, shortened): usage page 01
/// (generic desktop), usage 06 (keyboard), an 8-byte input report.
constexpr std::uint8_t kKeyboardReportDescriptor[] = {
    0x05, 0x01, 0x09, 0x06, 0xa1, 0x01,              // generic desktop, keyboard, collection
    0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00,  // key codes page, modifiers
    0x25, 0x01, 0x75, 0x01, 0x95, 0x08, 0x81, 0x02,  // 8 bits of modifiers
    0x95, 0x07, 0x75, 0x08, 0x81, 0x01,              // 7 bytes
    0xc0,                                            // end collection
};

/// A USB string descriptor (UTF-16LE of ASCII text).
std::vector<std::uint8_t> string_descriptor(const std::string& s) {
    std::vector<std::uint8_t> v{static_cast<std::uint8_t>(2 + 2 * s.size()), 0x03};
    for (const char c : s) put16(v, static_cast<unsigned char>(c));
    return v;
}

std::string hex(const std::vector<std::uint8_t>& v) {
    std::string out;
    char b[3];
    for (const std::uint8_t x : v) {
        std::snprintf(b, sizeof b, "%02X", x);
        out += b;
    }
    return out;
}

} // namespace

std::vector<std::uint8_t> usb_descriptors(const FakeUsbDescription& d) {
    std::vector<std::uint8_t> v{18, 0x01};
    put16(v, 0x0200);  // bcdUSB
    v.insert(v.end(), {0x00, 0x00, 0x00, 64});  // class per interface; ep0 64 bytes
    put16(v, d.vid);
    put16(v, d.pid);
    put16(v, 0x0100);  // bcdDevice
    v.insert(v.end(), {1, 2, 3, 1});  // string indexes; one configuration
    const std::uint8_t n_ep = d.out_endpoint ? 2 : 1;
    const bool keyboard = d.keyboard_interface_first;
    const unsigned total = 9 + 9 + 9 + 7u * n_ep + (keyboard ? 9 + 9 + 7 : 0);
    v.insert(v.end(), {9, 0x02});
    put16(v, total);
    // 1 or 2 interfaces, configuration 1, bus powered, 100 mA
    v.insert(v.end(), {static_cast<std::uint8_t>(keyboard ? 2 : 1), 1, 0, 0x80, 50});
    if (keyboard) {
        v.insert(v.end(), {9, 0x04, 0, 0, 1, 3, 1, 1, 0});  // HID, boot interface, keyboard
        v.insert(v.end(), {9, 0x21});
        put16(v, 0x0111);
        v.insert(v.end(), {0, 1, 0x22});
        put16(v, sizeof kKeyboardReportDescriptor);
        v.insert(v.end(), {7, 0x05, d.keyboard_in_endpoint, 0x03});
        put16(v, 8);
        v.push_back(10);
    }
    const std::uint8_t number = keyboard ? 1 : 0;
    v.insert(v.end(), {9, 0x04, number, 0, n_ep, d.interface_class, 0, 0, 0});
    v.insert(v.end(), {9, 0x21});  // HID descriptor: HID 1.11, one report descriptor
    put16(v, 0x0111);
    v.insert(v.end(), {0, 1, 0x22});
    put16(v, sizeof kReportDescriptor);
    v.insert(v.end(), {7, 0x05, d.in_endpoint, 0x03});
    put16(v, d.max_packet);
    v.push_back(1);
    if (d.out_endpoint) {
        v.insert(v.end(), {7, 0x05, d.out_endpoint, 0x03});
        put16(v, d.max_packet);
        v.push_back(1);
    }
    return v;
}

/// One plugged device and its usbfs state; guarded by `mutex` (umockdev's worker thread
/// against the test thread).
struct FakeDevice {
    FakeUsbDescription desc;
    std::shared_ptr<UsbReportDevice> model;
    std::vector<std::uint8_t> descriptors;
    std::string syspath, devnode;
    UMockdevIoctlBase* handler = nullptr;
    std::mutex mutex;
    FakeUsbStats stats;
    bool gone = false;
    struct Urb {
        UMockdevIoctlClient* client;
        UMockdevIoctlData* data;  // one reference held while parked or done
    };
    std::deque<Urb> parked_in, done;
    /// hold_output(): output URBs taken and not completed, with what they carry.
    struct Held {
        Urb urb;
        std::vector<std::uint8_t> bytes; ///< the report (SET_REPORT: its data stage)
        bool control = false;
    };
    bool hold = false;
    std::deque<Held> held;
    /// The clients (one per open fd), each holding a reference. umockdev 0.17.16 reports no
    /// client going (no "client-vanished", no "notify::connected" when a process closes the
    /// fd or dies), and a freed client's address soon is a new client's: a URB left by a
    /// process killed with it in flight was then reaped by the next process's client, and
    /// umockdev's reply, which writes that URB back through the dead connection, never came
    /// (the next process hung in its ioctl). Held, a client's address is never reused; it
    /// is forgotten where umockdev does report the close.
    std::set<UMockdevIoctlClient*> clients;
    /// The client whose fd claimed the interface last (nullptr once released).
    UMockdevIoctlClient* claimer = nullptr;

    static usbdevfs_urb* urb_of(UMockdevIoctlData* u) { return reinterpret_cast<usbdevfs_urb*>(u->data); }

    /// Completes `u` with `status` and `reply` written at `offset` of its buffer.
    void complete(const Urb& u, int status, std::span<const std::uint8_t> reply, std::size_t offset) {
        usbdevfs_urb* urb = urb_of(u.data);
        std::size_t n = 0;
        if (!reply.empty() && urb->buffer_length > 0) {
            UMockdevIoctlData* buf = umockdev_ioctl_data_resolve(
                u.data, offsetof(usbdevfs_urb, buffer), static_cast<gsize>(urb->buffer_length), nullptr);
            const std::size_t room = static_cast<std::size_t>(urb->buffer_length) - offset;
            n = std::min(room, reply.size());
            if (buf) std::memcpy(buf->data + offset, reply.data(), n);
        }
        urb->status = status;
        urb->actual_length = static_cast<int>(n);
        done.push_back(u);
    }

    /// Gives parked IN URBs the reports the device has now.
    void feed_in() {
        const TimeMs now = steady_now_ms();
        while (!parked_in.empty()) {
            auto report = model->in_report(now);
            if (!report) break;
            const Urb u = parked_in.front();
            parked_in.pop_front();
            ++stats.in_reports;
            complete(u, 0, *report, 0);
        }
    }

    /// Control request on endpoint 0: SET_REPORT goes to the device, descriptors are served,
    /// anything else stalls. Returns the data stage for IN requests.
    std::optional<std::vector<std::uint8_t>> control(const std::uint8_t* setup, std::span<const std::uint8_t> data) {
        const std::uint8_t type = setup[0], request = setup[1];
        const unsigned value = static_cast<unsigned>(setup[2] | (setup[3] << 8));
        if (type == 0x21 && request == 0x09) {  // HID SET_REPORT
            ++stats.set_reports;
            model->out_report(data, steady_now_ms());
            return std::vector<std::uint8_t>{};
        }
        if ((type == 0x80 || type == 0x81) && request == 0x06) {  // GET_DESCRIPTOR
            switch (value >> 8) {
            case 1: return std::vector<std::uint8_t>(descriptors.begin(), descriptors.begin() + 18);
            case 2: return std::vector<std::uint8_t>(descriptors.begin() + 18, descriptors.end());
            case 3:
                switch (value & 0xff) {
                case 0: return std::vector<std::uint8_t>{4, 0x03, 0x09, 0x04};  // en-US
                case 1: return string_descriptor(desc.manufacturer);
                case 2: return string_descriptor(desc.product);
                case 3: return string_descriptor(desc.serial);
                default: return std::nullopt;
                }
            case 0x22:  // report descriptor of interface wIndex
                if (desc.keyboard_interface_first && (setup[4] | (setup[5] << 8)) == 0)
                    return std::vector<std::uint8_t>(std::begin(kKeyboardReportDescriptor),
                                                     std::end(kKeyboardReportDescriptor));
                return std::vector<std::uint8_t>(std::begin(kReportDescriptor), std::end(kReportDescriptor));
            default: return std::nullopt;
            }
        }
        return std::nullopt;
    }

    /// SUBMITURB. Returns the errno for the ioctl (0 = accepted).
    int submit(UMockdevIoctlClient* client, UMockdevIoctlData* arg) {
        UMockdevIoctlData* u = umockdev_ioctl_data_resolve(arg, 0, sizeof(usbdevfs_urb), nullptr);
        if (!u) return EFAULT;
        usbdevfs_urb* urb = urb_of(u);
        UMockdevIoctlData* buf =
            urb->buffer_length > 0
                ? umockdev_ioctl_data_resolve(u, offsetof(usbdevfs_urb, buffer),
                                              static_cast<gsize>(urb->buffer_length), nullptr)
                : nullptr;
        const std::size_t len = static_cast<std::size_t>(urb->buffer_length);
        const std::span<const std::uint8_t> bytes(buf ? buf->data : nullptr, buf ? len : 0);
        const Urb entry{client, u};
        if (urb->type == USBDEVFS_URB_TYPE_INTERRUPT && urb->endpoint == desc.in_endpoint) {
            g_object_ref(u);
            parked_in.push_back(entry);
        } else if (hold && ((urb->type == USBDEVFS_URB_TYPE_INTERRUPT && desc.out_endpoint &&
                             urb->endpoint == desc.out_endpoint) ||
                            (urb->type == USBDEVFS_URB_TYPE_CONTROL && bytes.size() >= 8 && bytes[0] == 0x21 &&
                             bytes[1] == 0x09))) {
            // The device stopped answering: the output stays in flight (hold_output()).
            g_object_ref(u);
            const bool control = urb->type == USBDEVFS_URB_TYPE_CONTROL;
            held.push_back(Held{entry, std::vector<std::uint8_t>(bytes.begin() + (control ? 8 : 0), bytes.end()), control});
            ++stats.held;
        } else if (urb->type == USBDEVFS_URB_TYPE_INTERRUPT && desc.out_endpoint &&
                   urb->endpoint == desc.out_endpoint) {
            g_object_ref(u);
            ++stats.out_reports;
            model->out_report(bytes, steady_now_ms());
            complete(entry, 0, {}, 0);
            urb->actual_length = urb->buffer_length;
        } else if (urb->type == USBDEVFS_URB_TYPE_CONTROL && bytes.size() >= 8) {
            g_object_ref(u);
            const auto reply = control(bytes.data(), bytes.subspan(8));
            if (!reply) {
                ++stats.refused;
                complete(entry, -EPIPE, {}, 0);  // stall
            } else if (bytes[0] & 0x80) {
                complete(entry, 0, *reply, 8);
            } else {
                complete(entry, 0, {}, 0);
                urb->actual_length = static_cast<int>(len - 8);
            }
        } else {
            ++stats.refused;
            return ENOENT;  // no such endpoint
        }
        feed_in();
        return 0;
    }

    /// REAPURBNDELAY: hands back the oldest completed URB of `client`.
    int reap(UMockdevIoctlClient* client, UMockdevIoctlData* arg) {
        feed_in();
        for (auto it = done.begin(); it != done.end(); ++it) {
            if (it->client != client) continue;
            const Urb u = *it;
            done.erase(it);
            UMockdevIoctlData* slot = umockdev_ioctl_data_resolve(arg, 0, sizeof(void*), nullptr);
            if (slot) umockdev_ioctl_data_set_ptr(slot, 0, u.data);  // *arg = the client's urb pointer
            g_object_unref(u.data);  // `slot` keeps it alive until the reply is flushed
            return 0;
        }
        return EAGAIN;
    }

    /// DISCARDURB: a parked IN URB completes as cancelled.
    int discard(UMockdevIoctlClient* client, UMockdevIoctlData* arg) {
        const gulong addr = *reinterpret_cast<gulong*>(arg->data);
        for (auto it = parked_in.begin(); it != parked_in.end(); ++it) {
            if (it->client != client || it->data->client_addr != addr) continue;
            const Urb u = *it;
            parked_in.erase(it);
            ++stats.discarded;
            complete(u, -ENOENT, {}, 0);
            return 0;
        }
        return EINVAL;
    }

    /// hold_output(false): the held output reaches the device and completes, in order.
    void release_held() {
        hold = false;
        while (!held.empty()) {
            const Held h = held.front();
            held.pop_front();
            if (h.control) ++stats.set_reports;
            else ++stats.out_reports;
            model->out_report(h.bytes, steady_now_ms());
            complete(h.urb, 0, {}, 0);
            urb_of(h.urb.data)->actual_length = static_cast<int>(h.bytes.size());
        }
    }

    /// `client` claims the interface (nullptr: released). A claim while another client holds
    /// it is counted, not refused as usbfs would (EBUSY): a process that died holding it
    /// never releases it here, umockdev does not say it went.
    void claim(UMockdevIoctlClient* client) {
        if (client && claimer && claimer != client) ++stats.claim_conflicts;
        claimer = client;
        stats.claimed = client != nullptr;
    }

    /// One ioctl; returns the errno (0 = success).
    int ioctl(UMockdevIoctlClient* client, gulong request, UMockdevIoctlData* arg) {
        const std::lock_guard lock(mutex);
        if (gone) return ENODEV;
        switch (request) {
        case USBDEVFS_GET_CAPABILITIES: {
            UMockdevIoctlData* d = umockdev_ioctl_data_resolve(arg, 0, sizeof(std::uint32_t), nullptr);
            if (!d) return EFAULT;
            const std::uint32_t caps = USBDEVFS_CAP_BULK_CONTINUATION | USBDEVFS_CAP_NO_PACKET_SIZE_LIM;
            std::memcpy(d->data, &caps, sizeof caps);
            ++stats.opens;
            return 0;
        }
        case USBDEVFS_CLAIMINTERFACE:
            if (stats.kernel_driver_bound) {
                ++stats.refused;
                return EBUSY;
            }
            claim(client);
            return 0;
        case USBDEVFS_DISCONNECT_CLAIM:
            if (stats.kernel_driver_bound) ++stats.kernel_detaches;
            stats.kernel_driver_bound = false;
            claim(client);
            return 0;
        case USBDEVFS_RELEASEINTERFACE:
            if (claimer == client) claim(nullptr);
            return 0;
        case USBDEVFS_GETDRIVER: {
            UMockdevIoctlData* d = umockdev_ioctl_data_resolve(arg, 0, sizeof(usbdevfs_getdriver), nullptr);
            if (!d) return EFAULT;
            if (!stats.kernel_driver_bound) return ENODATA;
            std::strcpy(reinterpret_cast<usbdevfs_getdriver*>(d->data)->driver, "usbhid");
            return 0;
        }
        case USBDEVFS_IOCTL: {
            UMockdevIoctlData* d = umockdev_ioctl_data_resolve(arg, 0, sizeof(usbdevfs_ioctl), nullptr);
            if (!d) return EFAULT;
            const auto code = static_cast<unsigned long>(reinterpret_cast<usbdevfs_ioctl*>(d->data)->ioctl_code);
            if (code == USBDEVFS_DISCONNECT) {
                if (!stats.kernel_driver_bound) return ENODATA;
                stats.kernel_driver_bound = false;
                ++stats.kernel_detaches;
                return 0;
            }
            if (code == USBDEVFS_CONNECT) {
                if (!stats.kernel_driver_bound) ++stats.kernel_reattaches;
                stats.kernel_driver_bound = true;
                return 0;
            }
            return ENOTTY;
        }
        case USBDEVFS_SETINTERFACE:
        case USBDEVFS_SETCONFIGURATION:
        case USBDEVFS_CLEAR_HALT:
        case USBDEVFS_RESET: return 0;
        case USBDEVFS_SUBMITURB: return submit(client, arg);
        case USBDEVFS_REAPURB:
        case USBDEVFS_REAPURBNDELAY: return reap(client, arg);
        case USBDEVFS_DISCARDURB: return discard(client, arg);
        default: return ENOTTY;
        }
    }

    /// A client closed its fd (under `mutex`): its URBs and its claim go.
    void forget(UMockdevIoctlClient* client) {
        if (claimer == client) claim(nullptr);
        for (auto* q : {&parked_in, &done}) {
            for (auto it = q->begin(); it != q->end();) {
                if (it->client == client) {
                    g_object_unref(it->data);
                    it = q->erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (auto it = held.begin(); it != held.end();) {
            if (it->urb.client == client) {
                g_object_unref(it->urb.data);
                it = held.erase(it);
            } else {
                ++it;
            }
        }
    }

    void drop_all() {
        for (auto* q : {&parked_in, &done}) {
            for (const Urb& u : *q) g_object_unref(u.data);
            q->clear();
        }
        for (const Held& h : held) g_object_unref(h.urb.data);
        held.clear();
        for (UMockdevIoctlClient* c : clients) {
            g_signal_handlers_disconnect_by_data(c, this);
            g_object_unref(c);
        }
        clients.clear();
        claimer = nullptr;
    }
};

namespace {

gboolean on_ioctl(UMockdevIoctlBase*, UMockdevIoctlClient* client, gpointer user) {
    auto* dev = static_cast<FakeDevice*>(user);
    const int err = dev->ioctl(client, umockdev_ioctl_client_get_request(client),
                               umockdev_ioctl_client_get_arg(client));
    umockdev_ioctl_client_complete(client, err ? -1 : 0, err);
    return TRUE;
}

void on_client_closed(GObject* object, GParamSpec*, gpointer user);

void on_client_connected(UMockdevIoctlBase*, UMockdevIoctlClient* client, gpointer user) {
    auto* dev = static_cast<FakeDevice*>(user);
    const std::lock_guard lock(dev->mutex);
    if (!dev->clients.insert(client).second) return;
    g_object_ref(client);
    g_signal_connect_data(client, "notify::connected", reinterpret_cast<GCallback>(&on_client_closed), dev,
                          nullptr, static_cast<GConnectFlags>(0));
}

/// The client's fd is closed (or its process died): forgotten, its reference dropped.
void client_gone(FakeDevice* dev, UMockdevIoctlClient* client) {
    {
        const std::lock_guard lock(dev->mutex);
        if (dev->clients.erase(client) == 0) return;
        dev->forget(client);
    }
    g_signal_handlers_disconnect_by_data(client, dev);
    g_object_unref(client);
}

void on_client_closed(GObject* object, GParamSpec*, gpointer user) {
    auto* client = reinterpret_cast<UMockdevIoctlClient*>(object);
    if (!umockdev_ioctl_client_get_connected(client)) client_gone(static_cast<FakeDevice*>(user), client);
}

void on_client_vanished(UMockdevIoctlBase*, UMockdevIoctlClient* client, gpointer user) {
    client_gone(static_cast<FakeDevice*>(user), client);
}

} // namespace

struct FakeUsbBus::Impl {
    UMockdevTestbed* testbed = nullptr;
    std::mutex mutex;
    std::map<int, std::unique_ptr<FakeDevice>> devices;
    int next_id = 1;
};

FakeUsbBus::FakeUsbBus() : impl_(std::make_unique<Impl>()) {
    impl_->testbed = umockdev_testbed_new();
    if (!impl_->testbed) throw std::runtime_error("umockdev: cannot create a testbed");
}

FakeUsbBus::~FakeUsbBus() {
    for (auto& [id, dev] : impl_->devices) {
        (void)id;
        (void)umockdev_testbed_detach_ioctl(impl_->testbed, dev->devnode.c_str(), nullptr);
        if (dev->handler) g_object_unref(dev->handler);
        const std::lock_guard lock(dev->mutex);
        dev->drop_all();
    }
    g_object_unref(impl_->testbed);
}

bool FakeUsbBus::usable() const { return umockdev_in_mock_environment() != 0; }

std::string FakeUsbBus::dir() const {
    gchar* d = umockdev_testbed_get_root_dir(impl_->testbed);
    std::string out = d ? d : "";
    g_free(d);
    return out;
}

int FakeUsbBus::plug(const FakeUsbDescription& description, std::shared_ptr<UsbReportDevice> device) {
    auto dev = std::make_unique<FakeDevice>();
    dev->desc = description;
    dev->model = std::move(device);
    dev->descriptors = usb_descriptors(description);
    dev->stats.kernel_driver_bound = description.kernel_driver_bound;
    char node[64], ids[64];
    std::snprintf(node, sizeof node, "bus/usb/%03d/%03d", description.bus, description.address);
    std::snprintf(ids, sizeof ids, "%04x/%04x", description.vid, description.pid);
    const std::string vid(ids, 4), pid(ids + 5, 4);
    dev->devnode = std::string("/dev/") + node;
    const std::string name = std::to_string(description.bus) + "-" + description.port;
    const std::string path = "/devices/pci0000:00/0000:00:14.0/usb" + std::to_string(description.bus) + "/" + name;
    dev->syspath = "/sys" + path;
    const std::string minor = std::to_string((description.bus - 1) * 128 + description.address - 1);
    std::string properties;
    for (const auto& p : description.udev_properties) properties += "E: " + p + "\n";
    const std::string text =
        "P: " + path + "\nN: " + node + "\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DRIVER=usb\n" + properties +
        "E: DEVNAME=" + dev->devnode + "\nE: BUSNUM=" + std::string(node + 8, 3) +
        "\nE: DEVNUM=" + std::string(node + 12, 3) + "\nE: ID_VENDOR_ID=" + vid + "\nE: ID_MODEL_ID=" + pid +
        "\nE: MAJOR=189\nE: MINOR=" + minor + "\nA: dev=189:" + minor + // sd-device finds a node by it
        "\nA: busnum=" + std::to_string(description.bus) + "\\n\nA: devnum=" + std::to_string(description.address) +
        "\\n\nA: speed=12\nA: bConfigurationValue=1\nA: bNumInterfaces= 1\nA: idVendor=" + vid +
        "\nA: idProduct=" + pid + "\nA: manufacturer=" + description.manufacturer + "\nA: product=" +
        description.product + "\nA: serial=" + description.serial + "\nH: descriptors=" + hex(dev->descriptors) + "\n";
    dev->model->power_on(steady_now_ms());
    dev->handler = umockdev_ioctl_base_new();
    g_signal_connect_data(dev->handler, "handle-ioctl", reinterpret_cast<GCallback>(&on_ioctl), dev.get(),
                          nullptr, static_cast<GConnectFlags>(0));
    g_signal_connect_data(dev->handler, "client-connected", reinterpret_cast<GCallback>(&on_client_connected),
                          dev.get(), nullptr, static_cast<GConnectFlags>(0));
    g_signal_connect_data(dev->handler, "client-vanished", reinterpret_cast<GCallback>(&on_client_vanished),
                          dev.get(), nullptr, static_cast<GConnectFlags>(0));
    GError* err = nullptr;
    // The ioctl socket first: adding the device sends the "add" uevent, and a client in another
    // process that opens the node at once must find the socket there.
    if (!umockdev_testbed_attach_ioctl(impl_->testbed, dev->devnode.c_str(), dev->handler, &err) ||
        !umockdev_testbed_add_from_string(impl_->testbed, text.c_str(), &err)) {
        const std::string why = err ? err->message : "unknown error";
        if (err) g_error_free(err);
        g_object_unref(dev->handler);
        throw std::runtime_error("umockdev: cannot add " + dev->devnode + ": " + why);
    }
    const std::lock_guard lock(impl_->mutex);
    const int id = impl_->next_id++;
    impl_->devices.emplace(id, std::move(dev));
    return id;
}

void FakeUsbBus::unplug(int id) {
    FakeDevice* dev = nullptr;
    {
        const std::lock_guard lock(impl_->mutex);
        const auto it = impl_->devices.find(id);
        if (it == impl_->devices.end()) return;
        dev = it->second.get();
    }
    {
        const std::lock_guard lock(dev->mutex);
        if (dev->gone) return;
        dev->gone = true;
        dev->claim(nullptr);
    }
    umockdev_testbed_uevent(impl_->testbed, dev->syspath.c_str(), "remove");
    // Gone from sysfs too, so a new libusb scan does not list it.
    umockdev_testbed_remove_device(impl_->testbed, dev->syspath.c_str());
}

void FakeUsbBus::hold_output(int id, bool hold) {
    const std::lock_guard lock(impl_->mutex);
    const auto it = impl_->devices.find(id);
    if (it == impl_->devices.end()) return;
    const std::lock_guard dlock(it->second->mutex);
    if (hold) it->second->hold = true;
    else it->second->release_held();
}

FakeUsbStats FakeUsbBus::stats(int id) const {
    const std::lock_guard lock(impl_->mutex);
    const auto it = impl_->devices.find(id);
    if (it == impl_->devices.end()) return {};
    const std::lock_guard dlock(it->second->mutex);
    return it->second->stats;
}

} // namespace eboard::drivers::emu
