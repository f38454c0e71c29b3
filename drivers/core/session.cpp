#include "drivers/core/session.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <thread>

namespace eboard::drivers {

namespace {

// The longest poll() sleeps without input or timer (then it runs on_tick anyway).
constexpr TimeMs kLongestWaitMs = 60000;
// A transport without a wait_fd() is read in slices this long, so that wake() is heard.
constexpr TimeMs kSliceMs = 50;

} // namespace

TimeMs steady_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

DeviceSession::DeviceSession(std::unique_ptr<Transport> transport, std::unique_ptr<Driver> driver,
                             EventSink sink, Clock clock)
    : transport_(std::move(transport)), driver_(std::move(driver)), sink_(std::move(sink)),
      clock_(std::move(clock)), trace_(trace_channel(driver_->trace_name())),
      framer_(driver_->frame_rule(), trace_), name_(transport_->name()),
      wake_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

DeviceSession::~DeviceSession() {
    if (wake_fd_ >= 0) ::close(wake_fd_);
}

void DeviceSession::wake() {
    const std::uint64_t one = 1;
    if (wake_fd_ >= 0) (void)!::write(wake_fd_, &one, sizeof one);
}

void DeviceSession::drain_wake() {
    std::uint64_t count = 0;
    if (wake_fd_ >= 0) (void)!::read(wake_fd_, &count, sizeof count);
}

std::size_t DeviceSession::wait_and_read(std::span<std::uint8_t> buf, TimeMs wait_ms) {
    const int fd = transport_->wait_fd();
    if (fd < 0 || wake_fd_ < 0) return transport_->read(buf, static_cast<int>(std::min(wait_ms, kSliceMs)));
    std::array<pollfd, 2> fds{pollfd{fd, POLLIN, 0}, pollfd{wake_fd_, POLLIN, 0}};
    int r = 0;
    do {
        r = ::poll(fds.data(), fds.size(), static_cast<int>(wait_ms));
    } while (r < 0 && errno == EINTR);
    if (r <= 0) return 0;
    if (fds[1].revents & POLLIN) drain_wake();
    // Readable, or hung up: read() tells which.
    return fds[0].revents ? transport_->read(buf, 0) : 0;
}

void DeviceSession::start() {
    emit(LinkStatus{clock_(), true, transport_->name()});
    driver_->start(*this, clock_());
}

void DeviceSession::enable_reconnect(TransportOpener reopen, ReconnectPolicy policy) {
    reopen_ = std::move(reopen);
    policy_ = policy;
    policy_.first_delay_ms = std::max<TimeMs>(policy_.first_delay_ms, 1);
    policy_.max_delay_ms = std::max(policy_.max_delay_ms, policy_.first_delay_ms);
}

bool DeviceSession::poll(int max_wait_ms) {
    if (!connected()) {
        handle_disconnect();
        if (!reopen_) return false;
        try_reopen(max_wait_ms);
        return true;
    }
    const TimeMs now = clock_();
    TimeMs wait = max_wait_ms < 0 ? kLongestWaitMs : std::min<TimeMs>(max_wait_ms, kLongestWaitMs);
    if (const TimeMs due = driver_->next_tick_ms(now); due != kNoTick) wait = std::min(wait, due - now);
    if (resync_pending_) wait = std::min(wait, last_resync_ + kMinResyncIntervalMs - now);
    std::array<std::uint8_t, 512> buf{};
    const std::size_t n = wait_and_read(buf, std::max<TimeMs>(wait, 0));
    if (n > 0) {
        const std::span<const std::uint8_t> got(buf.data(), n);
        trace_.received(got);
        const Framer::ResyncHandler resync = [this] { resync_due(); };
        framer_.push(
            got, [this](std::span<const std::uint8_t> packet) { driver_->on_packet(packet, clock_()); },
            resync);
        if (transport_->message_oriented()) framer_.end_of_message(resync);
    }
    if (transport_->disconnected()) {
        handle_disconnect();
        return reopen_ != nullptr;
    }
    if (resync_pending_ && clock_() - last_resync_ >= kMinResyncIntervalMs) resync_due();
    driver_->on_tick(clock_());
    if (!transport_->disconnected()) return true;
    handle_disconnect();  // a write in on_tick failed
    return reopen_ != nullptr;
}

bool DeviceSession::shutdown(int max_wait_ms) {
    reopen_ = nullptr;
    if (!connected()) return driver_->stopped();
    driver_->stop(clock_());
    const TimeMs end = clock_() + std::max(max_wait_ms, 0);
    while (!driver_->stopped() && connected()) {
        const TimeMs left = end - clock_();
        if (left <= 0 || !poll(static_cast<int>(std::min<TimeMs>(left, 50)))) break;
    }
    return driver_->stopped();
}

void DeviceSession::resync_due() {
    // At most one resync (a board dump asked for) per kMinResyncIntervalMs: noise on the line
    // would otherwise ask for one per read (issue 26); one asked for meanwhile comes after it.
    const TimeMs now = clock_();
    if (last_resync_ != kNoTick && now - last_resync_ < kMinResyncIntervalMs) {
        resync_pending_ = true;
        return;
    }
    resync_pending_ = false;
    last_resync_ = now;
    driver_->on_resync(now);
}

void DeviceSession::handle_disconnect() {
    if (down_reported_) return;
    down_reported_ = true;
    resync_pending_ = false; // the start-up after a reconnection reads the board anew
    const TimeMs now = clock_();
    const std::string why = transport_ ? transport_->error() : std::string("closed");
    framer_.reset();  // a message cut by the disconnect is dropped and logged
    trace_.note("link down: " + why);
    driver_->on_link_down(now);
    emit(LinkStatus{now, false, why});
    if (!reopen_) return;
    delay_ = policy_.first_delay_ms;
    next_attempt_ = now + delay_;
    failed_attempts_ = 0;
    trace_.note("reopening " + name_ + " in " + std::to_string(delay_) + " ms");
}

void DeviceSession::try_reopen(int max_wait_ms) {
    // Nothing to read while the device is away: wait for the attempt, at most max_wait_ms.
    const TimeMs longest = max_wait_ms < 0 ? kLongestWaitMs : max_wait_ms;
    const TimeMs wait = std::min<TimeMs>(longest, next_attempt_ - clock_());
    if (wait > 0) {
        pollfd p{wake_fd_, POLLIN, 0};
        if (wake_fd_ < 0) std::this_thread::sleep_for(std::chrono::milliseconds(wait));
        else if (::poll(&p, 1, static_cast<int>(wait)) > 0) drain_wake();
    }
    const TimeMs now = clock_();
    if (now < next_attempt_) return;
    auto t = reopen_();
    if (!t) {
        ++failed_attempts_;
        delay_ = std::min(delay_ * 2, policy_.max_delay_ms);
        next_attempt_ = now + delay_;
        trace_.note("reopen failed (" + t.error().message + "); next attempt in " + std::to_string(delay_) + " ms");
        return;
    }
    transport_ = std::move(t.value());
    name_ = transport_->name();
    down_reported_ = false;
    framer_.reset();
    trace_.note("reconnected: " + name_);
    emit(LinkStatus{now, true, "reconnected: " + name_});
    driver_->start(*this, clock_());
}

void DeviceSession::send(std::span<const std::uint8_t> bytes) {
    trace_.sent(bytes);
    if (!connected()) {
        trace_.note("device away: " + std::to_string(bytes.size()) + " byte(s) not sent");
        return;
    }
    (void)transport_->write(bytes);
}

void DeviceSession::emit(DriverEvent event) {
    if (sink_) sink_(event);
}

Expected<std::unique_ptr<DeviceSession>> open_device(std::string_view uri_text,
                                                     DeviceSession::EventSink sink,
                                                     DriverOptions options,
                                                     DeviceSession::Clock clock,
                                                     std::optional<ReconnectPolicy> reconnect,
                                                     int cancel_fd) {
    auto uri = parse_device_uri(uri_text);
    if (!uri) return uri.error();
    const DriverInfo* info = find_driver(uri->driver);
    if (!info) return Error{"unknown driver '" + uri->driver + "'"};
    const ModelInfo* model = info->model(uri->model);
    if (!model) return Error{"driver '" + uri->driver + "' has no model '" + uri->model + "'"};
    options.model = std::string(model->name);
    if (info->check) // the driver's own message, rather than create()'s nullptr
        if (auto ok = info->check(options); !ok) return Error{"driver '" + uri->driver + "': " + ok.error().message};
    auto transport = open_transport(uri->transport, model->serial, info->usb_ids, model->ble, cancel_fd);
    if (!transport) return transport.error();
    auto driver = info->create(options);
    if (!driver) return Error{"driver '" + uri->driver + "' rejected its options"};
    auto session = std::make_unique<DeviceSession>(std::move(transport.value()), std::move(driver),
                                                   std::move(sink), std::move(clock));
    if (reconnect) {
        std::vector<UsbId> usb_ids = info->usb_ids;
        session->enable_reconnect(
            [spec = uri->transport, serial = model->serial, usb_ids = std::move(usb_ids), ble = model->ble, cancel_fd] {
                return open_transport(spec, serial, usb_ids, ble, cancel_fd);
            },
            *reconnect);
    }
    return session;
}

} // namespace eboard::drivers
