#include "drivers/core/session.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <thread>

namespace eboard::drivers {

Millis steady_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

DeviceSession::DeviceSession(std::unique_ptr<Transport> transport, std::unique_ptr<Driver> driver,
                             EventSink sink, Clock clock)
    : transport_(std::move(transport)), driver_(std::move(driver)), sink_(std::move(sink)),
      clock_(std::move(clock)), trace_(trace_channel(driver_->trace_name())),
      framer_(driver_->frame_rule(), trace_), name_(transport_->name()) {}

void DeviceSession::start() {
    emit(LinkStatus{clock_(), true, transport_->name()});
    driver_->start(*this, clock_());
}

void DeviceSession::enable_reconnect(TransportOpener reopen, ReconnectPolicy policy) {
    reopen_ = std::move(reopen);
    policy_ = policy;
    policy_.first_delay_ms = std::max<Millis>(policy_.first_delay_ms, 1);
    policy_.max_delay_ms = std::max(policy_.max_delay_ms, policy_.first_delay_ms);
}

bool DeviceSession::poll(int max_wait_ms) {
    if (!connected()) {
        handle_disconnect();
        if (!reopen_) return false;
        try_reopen(max_wait_ms);
        return true;
    }
    const int wait = static_cast<int>(
        std::clamp<Millis>(std::min<Millis>(max_wait_ms, driver_->tick_interval_ms()), 0, 60000));
    std::array<std::uint8_t, 512> buf{};
    const std::size_t n = transport_->read(buf, wait);
    if (n > 0) {
        const std::span<const std::uint8_t> got(buf.data(), n);
        trace_.received(got);
        const Framer::ResyncHandler resync = [this] { driver_->on_resync(clock_()); };
        framer_.push(
            got, [this](std::span<const std::uint8_t> packet) { driver_->on_packet(packet, clock_()); },
            resync);
        if (transport_->message_oriented()) framer_.end_of_message(resync);
    }
    if (transport_->disconnected()) {
        handle_disconnect();
        return reopen_ != nullptr;
    }
    driver_->on_tick(clock_());
    if (!transport_->disconnected()) return true;
    handle_disconnect();  // a write in on_tick failed
    return reopen_ != nullptr;
}

bool DeviceSession::shutdown(int max_wait_ms) {
    reopen_ = nullptr;
    if (!connected()) return driver_->stopped();
    driver_->stop(clock_());
    const Millis end = clock_() + std::max(max_wait_ms, 0);
    while (!driver_->stopped() && connected()) {
        const Millis left = end - clock_();
        if (left <= 0 || !poll(static_cast<int>(std::min<Millis>(left, 50)))) break;
    }
    return driver_->stopped();
}

void DeviceSession::handle_disconnect() {
    if (down_reported_) return;
    down_reported_ = true;
    const Millis now = clock_();
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
    const Millis wait = std::min<Millis>(std::max(max_wait_ms, 0), next_attempt_ - clock_());
    if (wait > 0) std::this_thread::sleep_for(std::chrono::milliseconds(wait));
    const Millis now = clock_();
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
                                                     std::optional<ReconnectPolicy> reconnect) {
    auto uri = parse_device_uri(uri_text);
    if (!uri) return uri.error();
    const DriverInfo* info = find_driver(uri->driver);
    if (!info) return Error{"unknown driver '" + uri->driver + "'"};
    const ModelInfo* model = info->model(uri->model);
    if (!model) return Error{"driver '" + uri->driver + "' has no model '" + uri->model + "'"};
    auto transport = open_transport(uri->transport, model->serial, info->usb_ids);
    if (!transport) return transport.error();
    options.model = std::string(model->name);
    auto driver = info->create(options);
    if (!driver) return Error{"driver '" + uri->driver + "' rejected its options"};
    auto session = std::make_unique<DeviceSession>(std::move(transport.value()), std::move(driver),
                                                   std::move(sink), std::move(clock));
    if (reconnect) {
        std::vector<UsbId> usb_ids = info->usb_ids;
        session->enable_reconnect(
            [spec = uri->transport, serial = model->serial, usb_ids = std::move(usb_ids)] {
                return open_transport(spec, serial, usb_ids);
            },
            *reconnect);
    }
    return session;
}

} // namespace eboard::drivers
