#include "drivers/emu/umockdev/fake_tty.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <stdexcept>
#include <sys/ioctl.h>
#include <umockdev.h>
#include <unistd.h>

namespace eboard::drivers::emu {

namespace {

std::string hex4(std::uint16_t v) {
    char b[8];
    std::snprintf(b, sizeof b, "%04x", v);
    return b;
}

/// The device in umockdev-record format: tty -> (usb-serial port ->) interface -> USB device,
/// the shapes libserialport walks to report a USB port with its VID:PID.
std::string record(const FakeTtyDescription& d) {
    const bool acm = d.name.rfind("ttyACM", 0) == 0;
    const std::string usb = "/devices/pci0000:00/0000:00:14.0/usb" + std::to_string(d.bus) + "/" +
                            std::to_string(d.bus) + "-" + d.port;
    const std::string intf = usb + "/" + std::to_string(d.bus) + "-" + d.port + ":1.0";
    const std::string parent = acm ? intf : intf + "/" + d.name;
    const std::string major = acm ? "166" : "188";
    std::string r;
    // `device` leads from the class device to its parent, as in sysfs (libserialport follows it).
    const std::string device_link =
        acm ? "../../../" + std::to_string(d.bus) + "-" + d.port + ":1.0" : "../../../" + d.name;
    r += "P: " + parent + "/tty/" + d.name + "\nN: " + d.name + "\nE: DEVNAME=/dev/" + d.name +
         "\nE: SUBSYSTEM=tty\nE: ID_BUS=usb\nE: ID_VENDOR_ID=" + hex4(d.vid) +
         "\nE: ID_MODEL_ID=" + hex4(d.pid) + "\nA: dev=" + major + ":0\nL: device=" + device_link +
         "\n\n";
    if (!acm)
        r += "P: " + parent + "\nE: SUBSYSTEM=usb-serial\nE: DRIVER=ftdi_sio\nA: port_number=0\n\n";
    r += "P: " + intf + "\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_interface\nE: DRIVER=" +
         std::string(acm ? "cdc_acm" : "ftdi_sio") +
         "\nA: bInterfaceNumber=00\nA: bInterfaceClass=" + std::string(acm ? "02" : "ff") + "\n\n";
    r +=
        "P: " + usb +
        "\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DRIVER=usb\nE: ID_VENDOR_ID=" + hex4(d.vid) +
        "\nE: ID_MODEL_ID=" + hex4(d.pid) + "\nA: busnum=" + std::to_string(d.bus) +
        "\\n\nA: devnum=" + std::to_string(d.address) + "\\n\nA: idVendor=" + hex4(d.vid) +
        "\nA: idProduct=" + hex4(d.pid) + "\nA: manufacturer=" + d.manufacturer +
        "\nA: product=" + d.product + "\nA: serial=" + d.serial + "\n";
    return r;
}

/// Where a symlink points ("" if it is none).
std::string link_target(const std::string& path) {
    char buf[512];
    const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

/// The UART side of every FakeTty: the termios each fake device keeps, by the pty behind it.
struct Uarts {
    std::mutex mutex;
    std::vector<std::string> nodes;          // FakeTty::node() of every live FakeTty
    std::map<std::string, termios> settings; // "/dev/pts/N" -> the termios last set
};
Uarts& uarts() {
    static Uarts u;
    return u;
}

/// The pty of a fake device `fd` is open on, or "" if it is something else.
std::string fake_device_of(int fd) {
    std::string path = link_target("/proc/self/fd/" + std::to_string(fd));
    if (path.empty()) return {};
    Uarts& u = uarts();
    const std::lock_guard lock(u.mutex);
    for (const auto& node : u.nodes)
        if (link_target(node) == path) return path;
    return {};
}

} // namespace

// A real UART keeps 7 data bits and parity; a pty overwrites them with CS8 and no PARENB, and
// umockdev's preload then fails tcsetattr() with EINVAL because the settings did not stick.
// For fds on a FakeTty these two functions play the UART: tcsetattr() keeps the whole termios
// and hands the pty the rest (CS8, no PARENB), tcgetattr() answers with what was kept. Every
// other fd goes straight on (umockdev's wrapper, then glibc). They take precedence over the
// preload because they are linked into the executable, and only programs that use FakeTty
// pull this object file in.
extern "C" int tcsetattr(int fd, int action, const termios* t) {
    using Fn = int (*)(int, int, const termios*);
    static const Fn next = reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, "tcsetattr"));
    if (t == nullptr) return next(fd, action, t);
    const std::string pty = fake_device_of(fd);
    if (pty.empty()) return next(fd, action, t);
    termios line = *t;
    line.c_cflag = (line.c_cflag & ~static_cast<tcflag_t>(CSIZE | PARENB)) | CS8;
    const int r = next(fd, action, &line);
    if (r == 0) {
        const std::lock_guard lock(uarts().mutex);
        uarts().settings[pty] = *t;
    }
    return r;
}

extern "C" int tcgetattr(int fd, termios* t) {
    using Fn = int (*)(int, termios*);
    static const Fn next = reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, "tcgetattr"));
    const int r = next(fd, t);
    if (r != 0 || !t) return r;
    const std::string pty = fake_device_of(fd);
    if (pty.empty()) return r;
    const std::lock_guard lock(uarts().mutex);
    const auto it = uarts().settings.find(pty);
    if (it != uarts().settings.end()) {
        const tcflag_t kept = CSIZE | PARENB;
        t->c_cflag = (t->c_cflag & ~kept) | (it->second.c_cflag & kept);
    }
    return r;
}

struct FakeTty::Impl {
    FakeTtyDescription description;
    UMockdevTestbed* testbed = nullptr;
    UMockdevIoctlBase* handler = nullptr;
    mutable std::mutex mutex;
    int modem = 0;
    std::vector<ModemRequest> requests;

    static gboolean on_ioctl(UMockdevIoctlBase*, UMockdevIoctlClient* client, gpointer self) {
        return static_cast<Impl*>(self)->ioctl(client);
    }

    gboolean ioctl(UMockdevIoctlClient* client) {
        UMockdevIoctlData* arg = umockdev_ioctl_client_get_arg(client);
        const unsigned long request = umockdev_ioctl_client_get_request(client);
        if (request == TIOCMGET || request == TIOCMSET || request == TIOCMBIS ||
            request == TIOCMBIC) {
            UMockdevIoctlData* d = umockdev_ioctl_data_resolve(arg, 0, sizeof(int), nullptr);
            if (!d) {
                umockdev_ioctl_client_complete(client, -1, EFAULT);
                return TRUE;
            }
            const std::lock_guard lock(mutex);
            int bits = 0;
            if (request == TIOCMGET) {
                bits = modem;
                std::memcpy(d->data, &bits, sizeof bits);
            } else {
                std::memcpy(&bits, d->data, sizeof bits);
                modem = request == TIOCMSET   ? bits
                        : request == TIOCMBIS ? (modem | bits)
                                              : (modem & ~bits);
            }
            requests.push_back({request, bits});
            umockdev_ioctl_client_complete(client, 0, 0);
            return TRUE;
        }
        // TCGETS/TCSETS/TIOCEXCL/TCFLSH/FIONREAD...: run on the real pty.
        int err = 0;
        const int r = umockdev_ioctl_client_execute(client, &err, nullptr);
        umockdev_ioctl_client_complete(client, r, err);
        return TRUE;
    }
};

FakeTty::FakeTty(FakeTtyDescription description) : impl_(std::make_unique<Impl>()) {
    impl_->description = std::move(description);
    impl_->testbed = umockdev_testbed_new();
    const std::string text = record(impl_->description);
    GError* err = nullptr;
    impl_->handler = umockdev_ioctl_base_new();
    g_signal_connect_data(impl_->handler, "handle-ioctl",
                          reinterpret_cast<GCallback>(&Impl::on_ioctl), impl_.get(), nullptr,
                          GConnectFlags{});
    if (!umockdev_testbed_add_from_string(impl_->testbed, text.c_str(), &err) ||
        !umockdev_testbed_attach_ioctl(impl_->testbed, device().c_str(), impl_->handler, &err)) {
        const std::string why = err ? err->message : "umockdev refused the device";
        if (err) g_error_free(err);
        g_object_unref(impl_->handler);
        g_object_unref(impl_->testbed);
        throw std::runtime_error("fake tty: " + why);
    }
    const std::lock_guard lock(uarts().mutex);
    uarts().nodes.push_back(node());
}

FakeTty::~FakeTty() {
    {
        const std::lock_guard lock(uarts().mutex);
        auto& nodes = uarts().nodes;
        nodes.erase(std::remove(nodes.begin(), nodes.end(), node()), nodes.end());
    }
    (void)umockdev_testbed_detach_ioctl(impl_->testbed, device().c_str(), nullptr);
    g_object_unref(impl_->handler);
    g_object_unref(impl_->testbed);
}

bool FakeTty::usable() const {
    return umockdev_in_mock_environment() != 0;
}

std::string FakeTty::device() const {
    return "/dev/" + impl_->description.name;
}

std::string FakeTty::node() const {
    gchar* root = umockdev_testbed_get_root_dir(impl_->testbed);
    std::string out = std::string(root) + device();
    g_free(root);
    return out;
}

int FakeTty::modem_bits() const {
    const std::lock_guard lock(impl_->mutex);
    return impl_->modem;
}

bool FakeTty::line_settings(termios& out) const {
    const std::string pty = link_target(node());
    const std::lock_guard lock(uarts().mutex);
    const auto it = uarts().settings.find(pty);
    if (pty.empty() || it == uarts().settings.end()) return false;
    out = it->second;
    return true;
}

std::vector<ModemRequest> FakeTty::modem_requests() const {
    const std::lock_guard lock(impl_->mutex);
    return impl_->requests;
}

} // namespace eboard::drivers::emu
