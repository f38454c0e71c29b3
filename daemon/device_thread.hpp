// A board's device thread: it opens the board's driver session (drivers/core/session.hpp) over
// its transport, waiting for a device that is not there (a back-off for serial paths, libusb
// hotplug for usb boards), reads it, runs the commands queued for its driver between polls, and
// on a clean exit gives the board back what the driver changed on it. It sleeps until input, a
// queued command (queue() wakes it) or the driver's next timer. What the driver reports and
// what it learnt are handed to callbacks on the device thread; the owner (DeviceLink) posts
// them to its event loop.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/expected.hpp"
#include "daemon/board_settings.hpp"
#include "drivers/core/driver.hpp"
#include "drivers/core/session.hpp"

namespace eboard::daemon {

class DeviceThread {
  public:
    /// Opens the board's driver session with this event sink; called on the device thread.
    /// The int is a descriptor that turns readable when the thread is asked to stop: an open
    /// that waits (a Bluetooth board being discovered) gives up then (drivers::open_device's
    /// cancel_fd).
    using Opener = std::function<Expected<std::unique_ptr<drivers::DeviceSession>>(
        drivers::DeviceSession::EventSink, int)>;
    /// Called on the device thread with settings the driver learnt (board_settings.hpp).
    using LearnedSink = std::function<void(BoardSettings)>;

    /// `board` names the board in the log.
    explicit DeviceThread(std::string board);
    ~DeviceThread();
    DeviceThread(const DeviceThread&) = delete;
    DeviceThread& operator=(const DeviceThread&) = delete;

    /// Default: drivers::open_device of the URI given to start(). Set before start().
    void set_opener(Opener opener) { opener_ = std::move(opener); }
    /// Waits before opening until `closed` is ready (the previous link of the same board closed
    /// its device; bounded, kPreviousLinkWaitMs), or stop.
    void open_after(std::shared_future<void> closed) { previous_closed_ = std::move(closed); }

    /// Starts the thread on the board at `uri`.
    void start(std::string uri, drivers::DeviceSession::EventSink events, LearnedSink learned);
    /// Asks the thread to end (it closes the device cleanly); returns at once.
    void request_stop();
    /// Waits for the thread to end.
    void join();
    /// True from request_stop() until the next start().
    [[nodiscard]] bool stopping() const { return stop_; }
    /// Runs `command` on the driver on the device thread, at once if the session is open,
    /// else once it is.
    void queue(std::function<void(drivers::Driver&)> command);

  private:
    void run(const std::string& uri, const drivers::DeviceSession::EventSink& events, const LearnedSink& learned);
    // open_after(): until the previous link closed the device, stop or the bound.
    void wait_for_previous_link();

    std::string board_;
    Opener opener_;
    std::shared_future<void> previous_closed_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    int stop_fd_ = -1; ///< eventfd, readable from request_stop() until the next start(): the opener's cancel_fd
    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<std::function<void(drivers::Driver&)>> commands_;
    drivers::DeviceSession* live_ = nullptr; ///< the open session (under mutex_), for wake()
};

} // namespace eboard::daemon
