// The fake BlueZ of fake_bluez.hpp: object tree, methods and signals with sd-bus vtables.
#include "fake_bluez.hpp"

#include "drivers/core/session.hpp"

#include <systemd/sd-bus.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace eboard::test {

namespace {

constexpr const char* kDevice = "org.bluez.Device1";
constexpr const char* kAdapter = "org.bluez.Adapter1";
constexpr const char* kService = "org.bluez.GattService1";
constexpr const char* kCharacteristic = "org.bluez.GattCharacteristic1";
constexpr const char* kAdapterPath = "/org/bluez/hci0";

TimeMs now_ms() { return drivers::steady_now_ms(); }

} // namespace

// ---- peers ----

PtyPeer::PtyPeer(const std::string& pty_path, std::string notify_uuid, std::size_t mtu_payload)
    : notify_uuid_(std::move(notify_uuid)), mtu_payload_(mtu_payload) {
    auto t = drivers::open_termios(pty_path, drivers::SerialSettings{});
    if (!t) throw std::runtime_error(t.error().message);
    pty_ = std::move(t.value());
}

void PtyPeer::written(std::span<const std::uint8_t> bytes) { (void)pty_->write(bytes); }

std::vector<std::pair<std::string, std::vector<std::uint8_t>>> PtyPeer::take_notifications() {
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> out;
    std::array<std::uint8_t, 256> buf{};
    while (const std::size_t n = pty_->read(buf, 0)) {
        for (std::size_t at = 0; at < n; at += mtu_payload_) {
            const std::size_t len = std::min(mtu_payload_, n - at);
            out.emplace_back(notify_uuid_, std::vector<std::uint8_t>(buf.begin() + static_cast<std::ptrdiff_t>(at),
                                                                     buf.begin() + static_cast<std::ptrdiff_t>(at + len)));
        }
    }
    return out;
}

ReportPeer::ReportPeer(drivers::emu::UsbReportDevice& device, std::string board_uuid, std::uint8_t board_type,
                       std::string other_uuid)
    : device_(device), board_uuid_(std::move(board_uuid)), other_uuid_(std::move(other_uuid)), board_type_(board_type) {}

void ReportPeer::written(std::span<const std::uint8_t> bytes) { device_.out_report(bytes, now_ms()); }

std::vector<std::pair<std::string, std::vector<std::uint8_t>>> ReportPeer::take_notifications() {
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> out;
    while (auto r = device_.in_report(now_ms())) {
        if (r->empty()) continue;
        out.emplace_back(r->front() == board_type_ ? board_uuid_ : other_uuid_, std::move(*r));
    }
    return out;
}

// ---- the service ----

struct FakeChar {
    struct FakeDev* device = nullptr;
    std::string path, service_path, uuid;
    bool write = false, notify = false, notifying = false;
    std::vector<std::uint8_t> value;
};

struct FakeServiceObject {
    std::string path, uuid, device_path;
};

struct FakeDev {
    FakeBluez::State* state = nullptr;
    FakeBleDevice spec;
    std::string path;
    bool visible = false, connected = false, resolved = false, in_range = true, gatt_registered = false;
    bool answers_connect = true;
    std::deque<FakeServiceObject> services;
    std::deque<FakeChar> chars;
};

struct FakeBluez::State {
    sd_bus* bus = nullptr;
    std::vector<sd_bus_slot*> slots;
    std::deque<FakeDev> devices;
    FakeBluezStats stats;
    std::vector<sd_bus_message*> held; ///< Connect calls left unanswered (answers_connect false)
    bool discovering = false;
    int wake_fd = -1;
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::condition_variable done;
    std::deque<std::function<void(State&)>> jobs;
    std::uint64_t jobs_done = 0, jobs_posted = 0;

    void add(sd_bus_slot* s) { slots.push_back(s); }
};

namespace {

using State = FakeBluez::State;

int dev_property(sd_bus* /*bus*/, const char* /*path*/, const char* /*iface*/, const char* property,
                 sd_bus_message* reply, void* userdata, sd_bus_error* /*err*/) {
    const auto& d = *static_cast<FakeDev*>(userdata);
    const std::string_view p = property;
    if (p == "Address") return sd_bus_message_append(reply, "s", d.spec.address.c_str());
    if (p == "Name" || p == "Alias") return sd_bus_message_append(reply, "s", d.spec.name.c_str());
    if (p == "Connected") return sd_bus_message_append(reply, "b", d.connected);
    if (p == "ServicesResolved") return sd_bus_message_append(reply, "b", d.resolved);
    if (p == "Adapter") return sd_bus_message_append(reply, "o", kAdapterPath);
    return -EINVAL;
}

int service_property(sd_bus* /*bus*/, const char* /*path*/, const char* /*iface*/, const char* property,
                     sd_bus_message* reply, void* userdata, sd_bus_error* /*err*/) {
    const auto& s = *static_cast<FakeServiceObject*>(userdata);
    const std::string_view p = property;
    if (p == "UUID") return sd_bus_message_append(reply, "s", s.uuid.c_str());
    if (p == "Device") return sd_bus_message_append(reply, "o", s.device_path.c_str());
    if (p == "Primary") return sd_bus_message_append(reply, "b", 1);
    return -EINVAL;
}

int char_property(sd_bus* /*bus*/, const char* /*path*/, const char* /*iface*/, const char* property,
                  sd_bus_message* reply, void* userdata, sd_bus_error* /*err*/) {
    const auto& c = *static_cast<FakeChar*>(userdata);
    const std::string_view p = property;
    if (p == "UUID") return sd_bus_message_append(reply, "s", c.uuid.c_str());
    if (p == "Service") return sd_bus_message_append(reply, "o", c.service_path.c_str());
    if (p == "Value") return sd_bus_message_append_array(reply, 'y', c.value.data(), c.value.size());
    if (p == "Notifying") return sd_bus_message_append(reply, "b", c.notifying);
    if (p == "Flags") {
        if (c.write && c.notify) return sd_bus_message_append(reply, "as", 2, "write", "notify");
        return sd_bus_message_append(reply, "as", 1, c.write ? "write" : "notify");
    }
    return -EINVAL;
}

int adapter_property(sd_bus* /*bus*/, const char* /*path*/, const char* /*iface*/, const char* property,
                     sd_bus_message* reply, void* userdata, sd_bus_error* /*err*/) {
    const auto& st = *static_cast<State*>(userdata);
    const std::string_view p = property;
    if (p == "Address") return sd_bus_message_append(reply, "s", "00:1A:7D:DA:71:13");
    if (p == "Powered") return sd_bus_message_append(reply, "b", 1);
    if (p == "Discovering") return sd_bus_message_append(reply, "b", st.discovering);
    return -EINVAL;
}

int method_connect(sd_bus_message* m, void* userdata, sd_bus_error* err);
int method_disconnect(sd_bus_message* m, void* userdata, sd_bus_error* err);
int method_write(sd_bus_message* m, void* userdata, sd_bus_error* err);
int method_start_notify(sd_bus_message* m, void* userdata, sd_bus_error* err);
int method_stop_notify(sd_bus_message* m, void* userdata, sd_bus_error* err);
int method_start_discovery(sd_bus_message* m, void* userdata, sd_bus_error* err);
int method_stop_discovery(sd_bus_message* m, void* userdata, sd_bus_error* err);

const sd_bus_vtable adapter_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("StartDiscovery", "", "", method_start_discovery, 0),
    SD_BUS_METHOD("StopDiscovery", "", "", method_stop_discovery, 0),
    SD_BUS_PROPERTY("Address", "s", adapter_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Powered", "b", adapter_property, 0, 0),
    SD_BUS_PROPERTY("Discovering", "b", adapter_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END};

const sd_bus_vtable device_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Connect", "", "", method_connect, 0),
    SD_BUS_METHOD("Disconnect", "", "", method_disconnect, 0),
    SD_BUS_PROPERTY("Address", "s", dev_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Name", "s", dev_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Alias", "s", dev_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Adapter", "o", dev_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Connected", "b", dev_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("ServicesResolved", "b", dev_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END};

const sd_bus_vtable service_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("UUID", "s", service_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Device", "o", service_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Primary", "b", service_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END};

const sd_bus_vtable char_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("WriteValue", "aya{sv}", "", method_write, 0),
    SD_BUS_METHOD("StartNotify", "", "", method_start_notify, 0),
    SD_BUS_METHOD("StopNotify", "", "", method_stop_notify, 0),
    SD_BUS_PROPERTY("UUID", "s", char_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Service", "o", char_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Flags", "as", char_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Value", "ay", char_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("Notifying", "b", char_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END};

void make_visible(FakeDev& d) {
    if (d.visible) return;
    State& st = *d.state;
    sd_bus_slot* slot = nullptr;
    if (sd_bus_add_object_vtable(st.bus, &slot, d.path.c_str(), kDevice, device_vtable, &d) < 0)
        throw std::runtime_error("fake bluez: device vtable");
    st.add(slot);
    d.visible = true;
    (void)sd_bus_emit_interfaces_added(st.bus, d.path.c_str(), kDevice, nullptr);
}

void register_gatt(FakeDev& d) {
    if (d.gatt_registered) return;
    State& st = *d.state;
    int n = 0x0c;
    for (const auto& s : d.spec.services) {
        auto& so = d.services.emplace_back();
        char buf[32];
        std::snprintf(buf, sizeof buf, "/service%04x", n++);
        so.path = d.path + buf;
        so.uuid = s.uuid;
        so.device_path = d.path;
        sd_bus_slot* slot = nullptr;
        if (sd_bus_add_object_vtable(st.bus, &slot, so.path.c_str(), kService, service_vtable, &so) < 0)
            throw std::runtime_error("fake bluez: service vtable");
        st.add(slot);
        (void)sd_bus_emit_interfaces_added(st.bus, so.path.c_str(), kService, nullptr);
        for (const auto& c : s.characteristics) {
            auto& co = d.chars.emplace_back();
            std::snprintf(buf, sizeof buf, "/char%04x", n++);
            co.device = &d;
            co.path = so.path + buf;
            co.service_path = so.path;
            co.uuid = c.uuid;
            co.write = c.write;
            co.notify = c.notify;
            if (sd_bus_add_object_vtable(st.bus, &slot, co.path.c_str(), kCharacteristic, char_vtable, &co) < 0)
                throw std::runtime_error("fake bluez: characteristic vtable");
            st.add(slot);
            (void)sd_bus_emit_interfaces_added(st.bus, co.path.c_str(), kCharacteristic, nullptr);
        }
    }
    d.gatt_registered = true;
}

void set_link(FakeDev& d, bool up) {
    State& st = *d.state;
    d.connected = up;
    d.resolved = up;
    if (!up)
        for (auto& c : d.chars) c.notifying = false;
    if (up) register_gatt(d);
    (void)sd_bus_emit_properties_changed(st.bus, d.path.c_str(), kDevice, "Connected", "ServicesResolved", nullptr);
}

int method_connect(sd_bus_message* m, void* userdata, sd_bus_error* err) {
    auto& d = *static_cast<FakeDev*>(userdata);
    ++d.state->stats.connect_calls;
    if (!d.answers_connect) {
        d.state->held.push_back(sd_bus_message_ref(m));
        return 1; // handled; the reply never comes
    }
    if (!d.in_range) {
        ++d.state->stats.refused_connects;
        return sd_bus_error_set(err, "org.bluez.Error.Failed", "le-connection-abort-by-local");
    }
    if (!d.connected) {
        ++d.state->stats.connects;
        set_link(d, true);
    }
    return sd_bus_reply_method_return(m, "");
}

int method_disconnect(sd_bus_message* m, void* userdata, sd_bus_error* /*err*/) {
    auto& d = *static_cast<FakeDev*>(userdata);
    if (d.connected) set_link(d, false);
    return sd_bus_reply_method_return(m, "");
}

int method_write(sd_bus_message* m, void* userdata, sd_bus_error* err) {
    auto& c = *static_cast<FakeChar*>(userdata);
    if (!c.device->connected) return sd_bus_error_set(err, "org.bluez.Error.NotConnected", "Not Connected");
    if (!c.write) return sd_bus_error_set(err, "org.bluez.Error.NotPermitted", "Write not permitted");
    const void* p = nullptr;
    std::size_t n = 0;
    if (const int r = sd_bus_message_read_array(m, 'y', &p, &n); r < 0) return r;
    ++c.device->state->stats.writes;
    c.device->spec.peer->written(std::span(static_cast<const std::uint8_t*>(p), n));
    return sd_bus_reply_method_return(m, "");
}

int method_start_notify(sd_bus_message* m, void* userdata, sd_bus_error* err) {
    auto& c = *static_cast<FakeChar*>(userdata);
    if (!c.device->connected) return sd_bus_error_set(err, "org.bluez.Error.NotConnected", "Not Connected");
    if (!c.notify) return sd_bus_error_set(err, "org.bluez.Error.NotSupported", "Notify not supported");
    c.notifying = true;
    (void)sd_bus_emit_properties_changed(c.device->state->bus, c.path.c_str(), kCharacteristic, "Notifying", nullptr);
    return sd_bus_reply_method_return(m, "");
}

int method_stop_notify(sd_bus_message* m, void* userdata, sd_bus_error* /*err*/) {
    auto& c = *static_cast<FakeChar*>(userdata);
    c.notifying = false;
    return sd_bus_reply_method_return(m, "");
}

int method_start_discovery(sd_bus_message* m, void* userdata, sd_bus_error* /*err*/) {
    auto& st = *static_cast<State*>(userdata);
    ++st.stats.discoveries;
    st.discovering = true;
    const int r = sd_bus_reply_method_return(m, "");
    // Devices in range are "seen" during the scan: they appear after the reply, as in BlueZ.
    for (auto& d : st.devices)
        if (d.in_range) make_visible(d);
    return r;
}

int method_stop_discovery(sd_bus_message* m, void* userdata, sd_bus_error* /*err*/) {
    static_cast<State*>(userdata)->discovering = false;
    return sd_bus_reply_method_return(m, "");
}

/// Forwards what the boards have to send (the link up and notifications on: else dropped, as
/// a board out of range drops what nobody hears).
void pump(State& st) {
    for (auto& d : st.devices) {
        auto notes = d.spec.peer->take_notifications();
        if (!d.connected) continue;
        for (auto& [uuid, bytes] : notes)
            for (auto& c : d.chars)
                if (c.uuid == uuid && c.notifying) {
                    c.value = std::move(bytes);
                    (void)sd_bus_emit_properties_changed(st.bus, c.path.c_str(), kCharacteristic, "Value", nullptr);
                    break;
                }
    }
}

/// The address of a private dbus-daemon started as `pid`; its readiness is the printed address.
std::string start_bus(pid_t& pid) {
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    // Its only complaint as a user without CAP_SYS_RESOURCE (the fd limit) is noise here.
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> args = {"dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"};
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int r = posix_spawnp(&pid, "dbus-daemon", &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(out[1]);
    if (r != 0) {
        ::close(out[0]);
        throw std::runtime_error("cannot start dbus-daemon (scripts/deps installs dbus-daemon)");
    }
    std::string address;
    char c = 0;
    while (::read(out[0], &c, 1) == 1 && c != '\n') address += c;
    ::close(out[0]);
    if (address.empty()) throw std::runtime_error("dbus-daemon printed no address");
    return address;
}

} // namespace

FakeBluez::FakeBluez(std::vector<FakeBleDevice> devices) : state_(std::make_unique<State>()) {
    address_ = start_bus(daemon_pid_);
    ::setenv("DBUS_SYSTEM_BUS_ADDRESS", address_.c_str(), 1);
    State& st = *state_;
    if (sd_bus_new(&st.bus) < 0 || sd_bus_set_address(st.bus, address_.c_str()) < 0 ||
        sd_bus_set_bus_client(st.bus, 1) < 0 || sd_bus_start(st.bus) < 0)
        throw std::runtime_error("fake bluez: cannot connect to the private bus");
    sd_bus_slot* slot = nullptr;
    if (sd_bus_add_object_manager(st.bus, &slot, "/") < 0) throw std::runtime_error("fake bluez: object manager");
    st.add(slot);
    if (sd_bus_add_object_vtable(st.bus, &slot, kAdapterPath, kAdapter, adapter_vtable, &st) < 0)
        throw std::runtime_error("fake bluez: adapter");
    st.add(slot);
    for (auto& spec : devices) {
        auto& d = st.devices.emplace_back();
        d.state = &st;
        d.spec = std::move(spec);
        d.path = std::string(kAdapterPath) + "/dev_" + d.spec.address;
        std::replace(d.path.begin(), d.path.end(), ':', '_');
        if (d.spec.known) make_visible(d);
    }
    // Readiness: the name is ours once RequestName returned.
    if (sd_bus_request_name(st.bus, "org.bluez", 0) < 0) throw std::runtime_error("fake bluez: cannot own org.bluez");
    st.wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    thread_ = std::thread([&st] {
        while (!st.stop) {
            while (sd_bus_process(st.bus, nullptr) > 0) {
            }
            {
                std::unique_lock lock(st.mutex);
                while (!st.jobs.empty()) {
                    auto job = std::move(st.jobs.front());
                    st.jobs.pop_front();
                    lock.unlock();
                    job(st);
                    lock.lock();
                    ++st.jobs_done;
                }
            }
            st.done.notify_all();
            pump(st);
            while (sd_bus_process(st.bus, nullptr) > 0) {
            }
            std::array<pollfd, 2> fds{pollfd{sd_bus_get_fd(st.bus), POLLIN, 0}, pollfd{st.wake_fd, POLLIN, 0}};
            // The boards are polled every 2 ms for output (the emulators have no descriptor
            // for it); bus traffic and jobs wake the loop at once.
            (void)::poll(fds.data(), fds.size(), 2);
            std::uint64_t count = 0;
            if (fds[1].revents & POLLIN) (void)!::read(st.wake_fd, &count, sizeof count);
        }
    });
}

FakeBluez::~FakeBluez() {
    state_->stop = true;
    const std::uint64_t one = 1;
    (void)!::write(state_->wake_fd, &one, sizeof one);
    if (thread_.joinable()) thread_.join();
    for (sd_bus_slot* s : state_->slots) sd_bus_slot_unref(s);
    for (sd_bus_message* m : state_->held) sd_bus_message_unref(m);
    sd_bus_flush_close_unref(state_->bus);
    ::close(state_->wake_fd);
    if (daemon_pid_ > 0) {
        ::kill(daemon_pid_, SIGTERM);
        int status = 0;
        ::waitpid(daemon_pid_, &status, 0);
    }
    ::unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
}

void FakeBluez::run(const std::function<void(State&)>& f) {
    std::unique_lock lock(state_->mutex);
    state_->jobs.push_back(f);
    const std::uint64_t ticket = ++state_->jobs_posted;
    const std::uint64_t one = 1;
    (void)!::write(state_->wake_fd, &one, sizeof one);
    state_->done.wait(lock, [&] { return state_->jobs_done >= ticket; });
}

void FakeBluez::drop_link(const std::string& address) {
    run([&](State& st) {
        for (auto& d : st.devices)
            if (d.spec.address == address && d.connected) set_link(d, false);
    });
}

void FakeBluez::set_in_range(const std::string& address, bool in_range) {
    run([&](State& st) {
        for (auto& d : st.devices)
            if (d.spec.address == address) d.in_range = in_range;
    });
}

void FakeBluez::set_answers_connect(const std::string& address, bool answers) {
    run([&](State& st) {
        for (auto& d : st.devices)
            if (d.spec.address == address) d.answers_connect = answers;
    });
}

bool FakeBluez::wait_for(const std::function<bool(const FakeBluezStats&)>& holds, int timeout_ms) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!holds(stats()))
        if (std::chrono::steady_clock::now() >= end) return false;
    return true;
}

bool FakeBluez::connected(const std::string& address) {
    bool up = false;
    run([&](State& st) {
        for (auto& d : st.devices)
            if (d.spec.address == address) up = d.connected;
    });
    return up;
}

FakeBluezStats FakeBluez::stats() {
    FakeBluezStats s;
    run([&](State& st) { s = st.stats; });
    return s;
}

} // namespace eboard::test
