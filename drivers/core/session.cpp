#include "drivers/core/session.hpp"

#include <algorithm>
#include <array>
#include <chrono>

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
      framer_(driver_->frame_rule(), trace_) {}

void DeviceSession::start() {
    emit(LinkStatus{clock_(), true, transport_->name()});
    driver_->start(*this, clock_());
}

bool DeviceSession::poll(int max_wait_ms) {
    if (transport_->disconnected()) {
        handle_disconnect();
        return false;
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
        return false;
    }
    driver_->on_tick(clock_());
    return !transport_->disconnected();
}

void DeviceSession::handle_disconnect() {
    if (down_reported_) return;
    down_reported_ = true;
    framer_.reset();  // a message cut by the disconnect is dropped and logged
    trace_.note("link down: " + transport_->error());
    emit(LinkStatus{clock_(), false, transport_->error()});
}

void DeviceSession::send(std::span<const std::uint8_t> bytes) {
    trace_.sent(bytes);
    (void)transport_->write(bytes);
}

void DeviceSession::emit(DriverEvent event) {
    if (sink_) sink_(event);
}

Expected<std::unique_ptr<DeviceSession>> open_device(std::string_view uri_text,
                                                     DeviceSession::EventSink sink,
                                                     DriverOptions options,
                                                     DeviceSession::Clock clock) {
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
    return std::make_unique<DeviceSession>(std::move(transport.value()), std::move(driver),
                                           std::move(sink), std::move(clock));
}

} // namespace eboard::drivers
