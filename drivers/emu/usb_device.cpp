#include "drivers/emu/usb_device.hpp"

#include "drivers/core/session.hpp"

#include <algorithm>

namespace eboard::drivers::emu {

ReportLoopback::ReportLoopback(std::shared_ptr<UsbReportDevice> device, std::string name)
    : device_(std::move(device)), name_("loopback:" + std::move(name)) {
    device_->power_on(steady_now_ms());
}

bool ReportLoopback::write(std::span<const std::uint8_t> bytes) {
    if (down_) return false;
    device_->out_report(bytes, steady_now_ms());
    return true;
}

std::size_t ReportLoopback::read(std::span<std::uint8_t> buf, int timeout_ms) {
    const TimeMs end = steady_now_ms() + std::max(0, timeout_ms);
    while (!down_) {
        const TimeMs now = steady_now_ms();
        if (auto r = device_->in_report(now)) {
            const std::size_t n = std::min(buf.size(), r->size());
            std::copy_n(r->begin(), n, buf.begin());
            return n;
        }
        if (now >= end) break;
        device_->wait_for_activity(static_cast<int>(std::min<TimeMs>(end - now, 5)));
    }
    return 0;
}

void ReportLoopback::close() {
    down_ = true;
    if (error_.empty()) error_ = "closed";
}

void ReportLoopback::unplug() {
    if (error_.empty()) error_ = "board unplugged";
    down_ = true;
}

} // namespace eboard::drivers::emu
