// The `ble:` transport: a board's GATT characteristics through BlueZ's D-Bus API (ble.hpp).
// BlueZ's interfaces: doc/org.bluez.Adapter.rst, Device.rst, GattCharacteristic.rst in the
// BlueZ sources; the object tree comes from org.freedesktop.DBus.ObjectManager.
#include "drivers/core/ble.hpp"

#include "drivers/core/session.hpp"
#include "drivers/core/trace.hpp"

#include <poll.h>
#include <systemd/sd-bus.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <deque>
#include <functional>
#include <map>
#include <variant>
#include <vector>

namespace eboard::drivers {

namespace {

constexpr const char* kBluez = "org.bluez";
constexpr const char* kDevice = "org.bluez.Device1";
constexpr const char* kAdapter = "org.bluez.Adapter1";
constexpr const char* kService = "org.bluez.GattService1";
constexpr const char* kCharacteristic = "org.bluez.GattCharacteristic1";

const TraceChannel& ble_trace() {
    static const TraceChannel& t = trace_channel("ble");
    return t;
}

struct BusUnref {
    void operator()(sd_bus* b) const { sd_bus_flush_close_unref(b); }
};
struct MessageUnref {
    void operator()(sd_bus_message* m) const { sd_bus_message_unref(m); }
};
struct SlotUnref {
    void operator()(sd_bus_slot* s) const { sd_bus_slot_unref(s); }
};
using BusPtr = std::unique_ptr<sd_bus, BusUnref>;
using MessagePtr = std::unique_ptr<sd_bus_message, MessageUnref>;
using SlotPtr = std::unique_ptr<sd_bus_slot, SlotUnref>;

/// An sd_bus_error freed on scope exit.
struct BusError {
    sd_bus_error e{}; // SD_BUS_ERROR_NULL, without its C99 compound literal
    BusError() = default;
    BusError(const BusError&) = delete;
    BusError& operator=(const BusError&) = delete;
    ~BusError() { sd_bus_error_free(&e); }
    [[nodiscard]] std::string text(int r) const {
        if (e.message) return std::string(e.name ? e.name : "") + ": " + e.message;
        return std::strerror(-r);
    }
};

/// A property value as far as the transport reads them.
using Value = std::variant<std::monostate, std::string, bool, std::vector<std::string>, std::vector<std::uint8_t>>;
using Properties = std::map<std::string, Value, std::less<>>;
/// path -> interface -> properties (GetManagedObjects).
using Objects = std::map<std::string, std::map<std::string, Properties, std::less<>>, std::less<>>;

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

int read_value(sd_bus_message* m, Value& out) {
    const char* contents = nullptr;
    int r = sd_bus_message_peek_type(m, nullptr, &contents);
    if (r < 0) return r;
    const std::string_view sig = contents ? contents : "";
    if (sig == "s" || sig == "o") {
        const char* s = nullptr;
        r = sd_bus_message_read(m, "v", sig == "s" ? "s" : "o", &s);
        if (r >= 0) out = std::string(s ? s : "");
        return r;
    }
    if (sig == "b") {
        int b = 0;
        r = sd_bus_message_read(m, "v", "b", &b);
        if (r >= 0) out = b != 0;
        return r;
    }
    if (sig == "as" || sig == "ay") {
        if ((r = sd_bus_message_enter_container(m, 'v', sig.data())) < 0) return r;
        if (sig == "as") {
            char** strv = nullptr;
            if ((r = sd_bus_message_read_strv(m, &strv)) < 0) return r;
            std::vector<std::string> v;
            for (char** p = strv; p && *p; ++p) {
                v.emplace_back(*p);
                std::free(*p); // NOLINT(cppcoreguidelines-no-malloc): sd-bus hands out malloc'd strings
            }
            std::free(strv); // NOLINT(cppcoreguidelines-no-malloc)
            out = std::move(v);
        } else {
            const void* p = nullptr;
            std::size_t n = 0;
            if ((r = sd_bus_message_read_array(m, 'y', &p, &n)) < 0) return r;
            const auto* b = static_cast<const std::uint8_t*>(p);
            out = std::vector<std::uint8_t>(b, b + n);
        }
        return sd_bus_message_exit_container(m);
    }
    out = std::monostate{};
    return sd_bus_message_skip(m, "v");
}

/// Reads an a{sv}.
int read_properties(sd_bus_message* m, Properties& out) {
    int r = sd_bus_message_enter_container(m, 'a', "{sv}");
    if (r < 0) return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char* name = nullptr;
        if ((r = sd_bus_message_read(m, "s", &name)) < 0) return r;
        Value v;
        if ((r = read_value(m, v)) < 0) return r;
        out[name ? name : ""] = std::move(v);
        if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    }
    if (r < 0) return r;
    return sd_bus_message_exit_container(m);
}

/// Reads an a{sa{sv}} (interfaces and their properties).
int read_interfaces(sd_bus_message* m, std::map<std::string, Properties, std::less<>>& out) {
    int r = sd_bus_message_enter_container(m, 'a', "{sa{sv}}");
    if (r < 0) return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sa{sv}")) > 0) {
        const char* iface = nullptr;
        if ((r = sd_bus_message_read(m, "s", &iface)) < 0) return r;
        if ((r = read_properties(m, out[iface ? iface : ""])) < 0) return r;
        if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    }
    if (r < 0) return r;
    return sd_bus_message_exit_container(m);
}

template <typename T>
const T* prop(const Properties& p, std::string_view name) {
    const auto it = p.find(name);
    return it == p.end() ? nullptr : std::get_if<T>(&it->second);
}

std::string string_prop(const Properties& p, std::string_view name) {
    const auto* s = prop<std::string>(p, name);
    return s ? *s : std::string();
}

bool bool_prop(const Properties& p, std::string_view name) {
    const auto* b = prop<bool>(p, name);
    return b && *b;
}

Expected<Objects> managed_objects(sd_bus* bus) {
    BusError err;
    sd_bus_message* raw = nullptr;
    int r = sd_bus_call_method(bus, kBluez, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
                               &err.e, &raw, "");
    MessagePtr reply(raw);
    if (r < 0) return Error{"BlueZ is not reachable on the system bus (" + err.text(r) + "); is bluetoothd running?"};
    Objects objects;
    if ((r = sd_bus_message_enter_container(raw, 'a', "{oa{sa{sv}}}")) < 0)
        return Error{"BlueZ's object list: " + std::string(std::strerror(-r))};
    while ((r = sd_bus_message_enter_container(raw, 'e', "oa{sa{sv}}")) > 0) {
        const char* path = nullptr;
        if ((r = sd_bus_message_read(raw, "o", &path)) < 0) break;
        if ((r = read_interfaces(raw, objects[path ? path : ""])) < 0) break;
        if ((r = sd_bus_message_exit_container(raw)) < 0) break;
    }
    if (r < 0) return Error{"BlueZ's object list: " + std::string(std::strerror(-r))};
    return objects;
}

/// The path of the device `target` names (address or name prefix), "" if BlueZ does not know it.
std::string find_device(const Objects& objects, const std::string& target) {
    const bool by_address = is_bluetooth_address(target);
    for (const auto& [path, ifaces] : objects) {
        const auto it = ifaces.find(kDevice);
        if (it == ifaces.end()) continue;
        const Properties& p = it->second;
        if (by_address) {
            if (lower(string_prop(p, "Address")) == lower(target)) return path;
            continue;
        }
        for (const char* key : {"Name", "Alias"})
            if (string_prop(p, key).rfind(target, 0) == 0) return path;
    }
    return {};
}

/// The object with interface `iface` (a GATT service or characteristic) and UUID `uuid` under
/// the device at `device_path`, "" if it has none.
std::string find_gatt(const Objects& objects, const std::string& device_path, const char* iface, std::string_view uuid) {
    const std::string prefix = device_path + "/";
    for (const auto& [path, ifaces] : objects) {
        if (path.rfind(prefix, 0) != 0) continue;
        const auto it = ifaces.find(iface);
        if (it != ifaces.end() && lower(string_prop(it->second, "UUID")) == lower(uuid)) return path;
    }
    return {};
}

TimeMs now_ms() { return steady_now_ms(); }

class BleTransport final : public Transport {
  public:
    BleTransport(const BleProfile& profile, int cancel_fd) : profile_(profile), cancel_fd_(cancel_fd) {}
    ~BleTransport() override { BleTransport::close(); }
    BleTransport(const BleTransport&) = delete;
    BleTransport& operator=(const BleTransport&) = delete;

    Expected<bool> open(const std::string& target, const BleTimeouts& timeouts);

    [[nodiscard]] std::string name() const override { return name_; }
    bool write(std::span<const std::uint8_t> bytes) override;
    std::size_t read(std::span<std::uint8_t> buf, int timeout_ms) override;
    void close() override;
    [[nodiscard]] bool disconnected() const override { return down_; }
    [[nodiscard]] std::string error() const override { return error_; }
    [[nodiscard]] bool message_oriented() const override { return profile_.message_oriented; }

  private:
    static int on_properties_changed(sd_bus_message* m, void* self, sd_bus_error* /*err*/);
    static int on_interfaces_removed(sd_bus_message* m, void* self, sd_bus_error* /*err*/);
    void fail(std::string why);
    /// Dispatches what the bus has; false (and disconnected) when the bus connection broke.
    bool process();
    /// Waits for bus traffic until `done()` holds, `timeout_ms` passed or the open is given up
    /// (cancelled()).
    bool wait_until(int timeout_ms, const std::function<bool()>& done);
    /// Waits at most `timeout_ms` for the bus (its descriptor, or a timeout sd-bus keeps) or
    /// for cancel_fd_. False when the wait itself failed.
    bool wait_bus(TimeMs timeout_ms);
    /// True once cancel_fd_ turned readable (the caller gave the open up); stays true.
    bool cancelled();
    /// Device1.Connect without blocking the thread: the call goes out asynchronously and its
    /// reply is waited for by wait_until, so that cancel_fd_ is heard meanwhile.
    Expected<bool> connect(int timeout_ms);
    /// Reads BlueZ's object tree into `tree` again after every bus wake-up until `holds(tree)`,
    /// at most `timeout_ms`: false on timeout, an error when BlueZ cannot be read.
    Expected<bool> wait_for(int timeout_ms, Objects& tree, const std::function<bool(Objects&)>& holds);
    Expected<bool> call(const std::string& path, const char* iface, const char* method, std::uint64_t timeout_us = 0);

    BleProfile profile_;
    int cancel_fd_ = -1;     ///< open_ble's cancel_fd: readable = give the open up
    bool cancelled_ = false; ///< cancel_fd_ was seen readable
    BusPtr bus_;
    SlotPtr changed_slot_, removed_slot_;
    std::string device_path_, write_path_, name_ = "ble";
    std::vector<std::string> notify_paths_;
    std::deque<std::vector<std::uint8_t>> received_; ///< notifications not read yet
    std::size_t front_offset_ = 0;                   ///< bytes of received_.front() already read
    bool down_ = true;
    std::string error_;
};

void BleTransport::fail(std::string why) {
    if (down_) return;
    down_ = true;
    error_ = std::move(why);
    ble_trace().note(name_ + ": " + error_);
}

bool BleTransport::process() {
    if (!bus_) return false;
    int r = 0;
    while ((r = sd_bus_process(bus_.get(), nullptr)) > 0) {
    }
    if (r < 0) {
        fail("D-Bus connection lost: " + std::string(std::strerror(-r)));
        return false;
    }
    return true;
}

bool BleTransport::cancelled() {
    if (cancelled_ || cancel_fd_ < 0) return cancelled_;
    pollfd p{cancel_fd_, POLLIN, 0};
    cancelled_ = ::poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) != 0;
    return cancelled_;
}

bool BleTransport::wait_bus(TimeMs timeout_ms) {
    // sd_bus_wait() would not hear cancel_fd_: poll the bus's descriptor with the events and
    // the timeout sd-bus asks for (a method call's reply deadline), and cancel_fd_ beside it.
    const int events = sd_bus_get_events(bus_.get());
    if (events < 0) return false;
    std::uint64_t until_us = 0;
    if (sd_bus_get_timeout(bus_.get(), &until_us) >= 0 && until_us != UINT64_MAX) {
        timespec ts{};
        (void)::clock_gettime(CLOCK_MONOTONIC, &ts);
        const std::uint64_t now_us = static_cast<std::uint64_t>(ts.tv_sec) * 1000000U +
                                     static_cast<std::uint64_t>(ts.tv_nsec) / 1000U;
        const auto bus_ms = static_cast<TimeMs>(until_us > now_us ? (until_us - now_us + 999) / 1000 : 0);
        timeout_ms = std::min(timeout_ms, bus_ms);
    }
    std::array<pollfd, 2> fds{pollfd{sd_bus_get_fd(bus_.get()), static_cast<short>(events), 0},
                              pollfd{cancel_fd_, POLLIN, 0}};
    const nfds_t n = cancel_fd_ >= 0 ? 2 : 1;
    const int r = ::poll(fds.data(), n, static_cast<int>(std::clamp<TimeMs>(timeout_ms, 0, 60000)));
    return r >= 0 || errno == EINTR;
}

bool BleTransport::wait_until(int timeout_ms, const std::function<bool()>& done) {
    const TimeMs end = now_ms() + timeout_ms;
    while (true) {
        if (!process()) return false;
        if (done()) return true;
        if (cancelled()) return false;
        const TimeMs left = end - now_ms();
        if (left <= 0) return false;
        if (!wait_bus(left)) return false;
    }
}

Expected<bool> BleTransport::wait_for(int timeout_ms, Objects& tree, const std::function<bool(Objects&)>& holds) {
    std::string error;
    const bool ok = wait_until(timeout_ms, [&] {
        auto now = managed_objects(bus_.get());
        if (!now) {
            error = now.error().message;
            return true;
        }
        tree = std::move(now.value());
        return holds(tree);
    });
    if (!error.empty()) return Error{error};
    return ok;
}

Expected<bool> BleTransport::call(const std::string& path, const char* iface, const char* method,
                                  std::uint64_t timeout_us) {
    BusError err;
    sd_bus_message* m = nullptr;
    int r = sd_bus_message_new_method_call(bus_.get(), &m, kBluez, path.c_str(), iface, method);
    MessagePtr msg(m);
    if (r >= 0) r = sd_bus_call(bus_.get(), m, timeout_us, &err.e, nullptr);
    if (r < 0) return Error{std::string(method) + " on " + path + ": " + err.text(r)};
    return true;
}

Expected<bool> BleTransport::connect(int timeout_ms) {
    struct Reply {
        bool came = false;
        std::string error; ///< BlueZ's error, empty on success
    } reply;
    auto on_reply = [](sd_bus_message* m, void* userdata, sd_bus_error* /*err*/) -> int {
        auto& r = *static_cast<Reply*>(userdata);
        r.came = true;
        if (const sd_bus_error* e = sd_bus_message_get_error(m); e && e->name)
            r.error = std::string(e->name) + ": " + (e->message ? e->message : "");
        return 0;
    };
    sd_bus_message* m = nullptr;
    int r = sd_bus_message_new_method_call(bus_.get(), &m, kBluez, device_path_.c_str(), kDevice, "Connect");
    const MessagePtr msg(m);
    sd_bus_slot* raw = nullptr;
    // The call's own deadline is a second past ours, so that ours is the one that speaks.
    const auto deadline_us = (static_cast<std::uint64_t>(std::max(timeout_ms, 0)) + 1000U) * 1000U;
    if (r >= 0) r = sd_bus_call_async(bus_.get(), &raw, m, on_reply, &reply, deadline_us);
    if (r < 0) return Error{"Connect on " + device_path_ + ": " + std::strerror(-r)};
    const SlotPtr slot(raw); // freed on return: a reply that comes later finds no one waiting
    (void)wait_until(timeout_ms, [&] { return reply.came; });
    if (!reply.came) {
        if (cancelled()) return Error{"Connect given up (the open was cancelled)"};
        if (down_) return Error{error_};
        return Error{"Connect on " + device_path_ + ": no answer from BlueZ in " + std::to_string(timeout_ms / 1000) + " s"};
    }
    if (!reply.error.empty()) return Error{"Connect on " + device_path_ + ": " + reply.error};
    return true;
}

int BleTransport::on_properties_changed(sd_bus_message* m, void* self, sd_bus_error* /*err*/) {
    auto& t = *static_cast<BleTransport*>(self);
    const char* p = sd_bus_message_get_path(m);
    const std::string_view path = p ? p : "";
    const bool device = path == t.device_path_;
    const bool notify = std::find(t.notify_paths_.begin(), t.notify_paths_.end(), path) != t.notify_paths_.end();
    if (!device && !notify) return 0;
    const char* iface = nullptr;
    Properties changed;
    if (sd_bus_message_read(m, "s", &iface) < 0 || read_properties(m, changed) < 0) return 0;
    if (device) {
        if (const bool* c = prop<bool>(changed, "Connected"); c && !*c) t.fail("board disconnected (Bluetooth link lost)");
        return 0;
    }
    if (const auto* v = prop<std::vector<std::uint8_t>>(changed, "Value"); v && !v->empty())
        t.received_.push_back(*v);
    return 0;
}

int BleTransport::on_interfaces_removed(sd_bus_message* m, void* self, sd_bus_error* /*err*/) {
    auto& t = *static_cast<BleTransport*>(self);
    const char* path = nullptr;
    if (sd_bus_message_read(m, "o", &path) >= 0 && path && t.device_path_ == path)
        t.fail("board removed from BlueZ");
    return 0;
}

Expected<bool> BleTransport::open(const std::string& target, const BleTimeouts& timeouts) {
    sd_bus* raw = nullptr;
    if (const int r = sd_bus_open_system(&raw); r < 0)
        return Error{"cannot connect to the system D-Bus: " + std::string(std::strerror(-r))};
    bus_.reset(raw);
    down_ = false;
    sd_bus_slot* slot = nullptr;
    if (sd_bus_match_signal(bus_.get(), &slot, nullptr, nullptr, "org.freedesktop.DBus.Properties",
                            "PropertiesChanged", &BleTransport::on_properties_changed, this) < 0)
        return Error{"cannot subscribe to BlueZ's PropertiesChanged"};
    changed_slot_.reset(slot);
    if (sd_bus_match_signal(bus_.get(), &slot, nullptr, "/", "org.freedesktop.DBus.ObjectManager",
                            "InterfacesRemoved", &BleTransport::on_interfaces_removed, this) < 0)
        return Error{"cannot subscribe to BlueZ's InterfacesRemoved"};
    removed_slot_.reset(slot);

    auto first = managed_objects(bus_.get());
    if (!first) return first.error();
    Objects tree = std::move(first.value());
    device_path_ = find_device(tree, target);
    if (device_path_.empty()) {
        // Not known yet: discover it. Devices that appear come as InterfacesAdded; each wake-up
        // reads the object list again.
        std::string adapter;
        for (const auto& [path, ifaces] : tree)
            if (ifaces.count(kAdapter)) {
                adapter = path;
                break;
            }
        if (adapter.empty()) return Error{"no Bluetooth adapter (BlueZ lists none; is one plugged in and powered?)"};
        sd_bus_slot* added = nullptr;
        if (sd_bus_match_signal(bus_.get(), &added, nullptr, "/", "org.freedesktop.DBus.ObjectManager",
                                "InterfacesAdded", nullptr, nullptr) < 0)
            return Error{"cannot subscribe to BlueZ's InterfacesAdded"};
        const SlotPtr added_slot(added);
        if (auto started = call(adapter, kAdapter, "StartDiscovery"); !started) return started.error();
        ble_trace().note("discovering '" + target + "' on " + adapter);
        const auto found = wait_for(timeouts.discovery_ms, tree, [&](Objects& now) {
            device_path_ = find_device(now, target);
            return !device_path_.empty();
        });
        (void)call(adapter, kAdapter, "StopDiscovery");
        if (!found) return found.error();
        if (cancelled()) return Error{"given up while discovering (the open was cancelled)"};
        if (!found.value())
            return Error{"Bluetooth board '" + target + "' not found in " + std::to_string(timeouts.discovery_ms / 1000) +
                         " s of discovery (is it switched on and not connected to another device?)"};
    }

    const Properties dev = tree[device_path_][kDevice];
    name_ = "ble:" + string_prop(dev, "Address");
    if (const std::string n = string_prop(dev, "Name"); !n.empty()) name_ += " (" + n + ")";
    if (!bool_prop(dev, "Connected")) {
        ble_trace().note("connecting " + name_);
        if (auto c = connect(timeouts.connect_ms); !c) {
            if (cancelled()) return Error{"given up while connecting to " + name_ + " (the open was cancelled)"};
            return Error{"cannot connect to " + name_ + ": " + c.error().message +
                         " (pair it first with bluetoothctl if the board asks for pairing)"};
        }
    }
    const auto resolved = wait_for(timeouts.services_ms, tree, [&](Objects& now) {
        return bool_prop(now[device_path_][kDevice], "ServicesResolved");
    });
    if (!resolved) return resolved.error();
    if (down_) return Error{name_ + ": " + error_};
    if (cancelled()) return Error{name_ + ": given up while BlueZ resolved its services (the open was cancelled)"};
    if (!resolved.value()) return Error{name_ + ": BlueZ did not resolve the GATT services in time"};
    if (find_gatt(tree, device_path_, kService, profile_.service).empty())
        return Error{name_ + " has no GATT service " + std::string(profile_.service) + " (not a board of this driver?)"};
    write_path_ = find_gatt(tree, device_path_, kCharacteristic, profile_.write);
    if (write_path_.empty()) return Error{name_ + " has no characteristic " + std::string(profile_.write)};
    for (const std::string_view uuid : profile_.notify) {
        if (uuid.empty()) continue;
        const std::string path = find_gatt(tree, device_path_, kCharacteristic, uuid);
        if (path.empty()) return Error{name_ + " has no characteristic " + std::string(uuid)};
        notify_paths_.push_back(path);
    }
    for (const std::string& path : notify_paths_)
        if (auto n = call(path, kCharacteristic, "StartNotify"); !n) return Error{name_ + ": " + n.error().message};
    ble_trace().note("connected " + name_ + " (" + device_path_ + ")");
    return true;
}

bool BleTransport::write(std::span<const std::uint8_t> bytes) {
    if (down_) return false;
    const std::size_t chunk = profile_.message_oriented ? bytes.size() : std::max<std::size_t>(profile_.write_chunk, 1);
    for (std::size_t at = 0; at < bytes.size(); at += chunk) {
        const auto piece = bytes.subspan(at, std::min(chunk, bytes.size() - at));
        BusError err;
        sd_bus_message* m = nullptr;
        int r = sd_bus_message_new_method_call(bus_.get(), &m, kBluez, write_path_.c_str(), kCharacteristic, "WriteValue");
        const MessagePtr msg(m);
        if (r >= 0) r = sd_bus_message_append_array(m, 'y', piece.data(), piece.size());
        if (r >= 0) r = sd_bus_message_open_container(m, 'a', "{sv}");
        if (r >= 0) r = sd_bus_message_close_container(m);
        if (r >= 0) r = sd_bus_call(bus_.get(), m, 0, &err.e, nullptr);
        if (r < 0) {
            fail("write failed: " + err.text(r));
            return false;
        }
    }
    return true;
}

std::size_t BleTransport::read(std::span<std::uint8_t> buf, int timeout_ms) {
    if (down_ || !process()) return 0;
    if (received_.empty() && timeout_ms > 0) {
        if (sd_bus_wait(bus_.get(), static_cast<std::uint64_t>(timeout_ms) * 1000) < 0) {
            fail("D-Bus wait failed");
            return 0;
        }
        if (!process()) return 0;
    }
    std::size_t n = 0;
    while (!received_.empty() && n < buf.size()) {
        const std::vector<std::uint8_t>& front = received_.front();
        const std::size_t take = std::min(front.size() - front_offset_, buf.size() - n);
        std::copy_n(front.begin() + static_cast<std::ptrdiff_t>(front_offset_), take, buf.begin() + static_cast<std::ptrdiff_t>(n));
        n += take;
        front_offset_ += take;
        if (front_offset_ == front.size() || profile_.message_oriented) {
            received_.pop_front();
            front_offset_ = 0;
        }
        if (profile_.message_oriented) break; // one device message per read
    }
    return n;
}

void BleTransport::close() {
    if (!bus_) return;
    if (!down_) {
        // A close asked for (not a link that was lost): stop the notifications and let the
        // board go, so that it is free for the next connection.
        for (const std::string& path : notify_paths_) (void)call(path, kCharacteristic, "StopNotify");
        if (!device_path_.empty()) (void)call(device_path_, kDevice, "Disconnect");
        down_ = true;
        error_ = "closed";
    }
    changed_slot_.reset();
    removed_slot_.reset();
    bus_.reset();
}

} // namespace

bool is_bluetooth_address(std::string_view text) noexcept {
    if (text.size() != 17) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool colon = i % 3 == 2;
        if (colon != (text[i] == ':')) return false;
        if (!colon && !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
    }
    return true;
}

Expected<std::unique_ptr<Transport>> open_ble(const std::string& target, const BleProfile& profile,
                                              const BleTimeouts& timeouts, int cancel_fd) {
    auto t = std::make_unique<BleTransport>(profile, cancel_fd);
    if (auto ok = t->open(target, timeouts); !ok) {
        // A half-opened link: let the board go (close() disconnects what was connected).
        return Error{"ble:" + target + ": " + ok.error().message};
    }
    return std::unique_ptr<Transport>(std::move(t));
}

} // namespace eboard::drivers
