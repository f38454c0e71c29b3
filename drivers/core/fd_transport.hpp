// A Transport over a file descriptor (shared by the termios and TCP transports).
#pragma once

#include "drivers/core/transport.hpp"

namespace eboard::drivers {

/// Owns `fd`; reads with poll(); treats EOF, EIO, ENODEV, ECONNRESET and POLLHUP/POLLERR
/// without data as "disconnected".
class FdTransport : public Transport {
  public:
    FdTransport(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
    ~FdTransport() override { FdTransport::close(); }

    [[nodiscard]] std::string name() const override { return name_; }
    bool write(std::span<const std::uint8_t> bytes) override;
    std::size_t read(std::span<std::uint8_t> buf, int timeout_ms) override;
    void close() override;
    [[nodiscard]] bool disconnected() const override { return fd_ < 0; }
    [[nodiscard]] std::string error() const override { return error_; }
    [[nodiscard]] int wait_fd() const override { return fd_; }

  private:
    void fail(std::string why);
    int fd_;
    std::string name_;
    std::string error_;
};

} // namespace eboard::drivers
