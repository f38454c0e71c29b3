#include "daemon/device_thread.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#include "daemon/log.hpp"
#include "drivers/core/device_waiter.hpp"

namespace eboard::daemon {

namespace {

// While a usb board is away, how often the thread looks whether hotplug saw it come back
// (otherwise it sleeps until input, a queued command's wake(), or the driver's next timer).
constexpr int kHotplugCheckMs = 50;
constexpr int kShutdownMs = 1000;    // clean exit: time for a driver to put the board back
// open_after(): how long a board attached again waits for its previous link to close the
// device (its driver's clean exit, kShutdownMs, and a transfer's 1 s libusb timeout fit), and
// how often that wait looks at stop.
constexpr int kPreviousLinkWaitMs = 3000;
constexpr int kPreviousLinkPollMs = 20;

} // namespace

DeviceThread::DeviceThread(std::string board)
    : board_(std::move(board)), stop_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

DeviceThread::~DeviceThread() {
    // join() throws only on a broken invariant (the device thread destroying its own link); a
    // destructor must not throw, so say it and go on.
    try {
        request_stop();
        join();
    } catch (const std::exception& e) {
        char line[256]; // not a std::string: building one could throw again
        std::snprintf(line, sizeof line, "device thread not stopped cleanly: %s", e.what());
        log_error(line);
    }
    if (stop_fd_ >= 0) ::close(stop_fd_);
}

void DeviceThread::start(std::string uri, drivers::DeviceSession::EventSink events, LearnedSink learned) {
    stop_ = false;
    std::uint64_t count = 0;
    if (stop_fd_ >= 0) (void)!::read(stop_fd_, &count, sizeof count); // a stop of the last run is over
    thread_ = std::thread([this, uri = std::move(uri), events = std::move(events), learned = std::move(learned)] {
        run(uri, events, learned);
    });
}

void DeviceThread::request_stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        const std::uint64_t one = 1;
        if (stop_fd_ >= 0) (void)!::write(stop_fd_, &one, sizeof one); // an open that waits gives up
        if (live_) live_->wake();
    }
    wake_.notify_all();
}

void DeviceThread::join() {
    if (thread_.joinable()) thread_.join();
}

void DeviceThread::queue(std::function<void(drivers::Driver&)> command) {
    std::lock_guard lock(mutex_);
    commands_.push_back(std::move(command));
    if (live_) live_->wake(); // out now, not with the next input or timer
}

void DeviceThread::wait_for_previous_link() {
    if (!previous_closed_.valid()) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kPreviousLinkWaitMs);
    while (!stop_ && previous_closed_.wait_for(std::chrono::milliseconds(kPreviousLinkPollMs)) !=
                         std::future_status::ready) {
        if (std::chrono::steady_clock::now() >= until) {
            log_warning("board " + board_ + ": its device is still held by the link DETACH closed, " +
                        std::to_string(kPreviousLinkWaitMs) + " ms on; opening it anyway");
            break;
        }
    }
    previous_closed_ = {};
}

void DeviceThread::run(const std::string& uri, const drivers::DeviceSession::EventSink& events,
                       const LearnedSink& learned_sink) {
    // Two handles on one device race: the new one's claim fails (EBUSY) while the old one holds
    // it, and the old one's close gives the device back to the kernel driver.
    wait_for_previous_link();
    // A device that is not there: back-off for serial paths, libusb hotplug for usb boards.
    drivers::DeviceWaiter waiter(uri);
    LearnedSettings learned; // what the driver learnt, for the store
    auto pause = [this](int ms) {
        std::unique_lock lock(mutex_);
        return !wake_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stop_.load(); });
    };
    bool reported = false;
    while (!stop_) {
        auto device = opener_ ? opener_(events, stop_fd_)
                              : drivers::open_device(uri, events, {}, drivers::steady_now_ms, drivers::ReconnectPolicy{}, stop_fd_);
        if (!device) {
            if (!reported) log_warning("board " + board_ + ": " + device.error().message + "; " + waiter.note());
            reported = true;
            (void)waiter.wait(pause);
            continue;
        }
        reported = false;
        waiter.reset();
        {
            std::lock_guard lock(mutex_);
            live_ = device->get();
        }
        (*device)->start();
        auto wait_ms = [&] { return waiter.hotplug() && (*device)->reconnecting() ? kHotplugCheckMs : -1; };
        while (!stop_ && (*device)->poll(wait_ms())) {
            // A usb board plugged in again is reopened at once, not on the session's back-off.
            if (waiter.arrived() && (*device)->reconnecting()) (*device)->reconnect_now();
            if (auto settings = learned.poll((*device)->driver()); settings && learned_sink)
                learned_sink(std::move(*settings));
            std::vector<std::function<void(drivers::Driver&)>> commands;
            {
                std::lock_guard lock(mutex_);
                commands.swap(commands_);
            }
            for (auto& c : commands) c((*device)->driver());
        }
        // A clean exit: the board gets back what the driver changed on it (Millennium's E2ROM).
        if (stop_) (void)(*device)->shutdown(kShutdownMs);
        std::lock_guard lock(mutex_);
        live_ = nullptr;
    }
}

} // namespace eboard::daemon
