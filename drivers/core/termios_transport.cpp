// Raw termios transport for ptys and ttys that are not USB serial devices.
#include "drivers/core/fd_transport.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace eboard::drivers {

namespace {

Expected<speed_t> baud_constant(int baud) {
    switch (baud) {
    case 1200: return speed_t{B1200};
    case 2400: return speed_t{B2400};
    case 4800: return speed_t{B4800};
    case 9600: return speed_t{B9600};
    case 19200: return speed_t{B19200};
    case 38400: return speed_t{B38400};
    case 57600: return speed_t{B57600};
    case 115200: return speed_t{B115200};
    default: return Error{"unsupported baud rate " + std::to_string(baud)};
    }
}

tcflag_t size_flag(int bits) {
    switch (bits) {
    case 5: return CS5;
    case 6: return CS6;
    case 7: return CS7;
    default: return CS8;
    }
}

} // namespace

Expected<std::unique_ptr<Transport>> open_termios(const std::string& path,
                                                  const SerialSettings& settings) {
    const auto speed = baud_constant(settings.baud);
    if (!speed) return speed.error();
    const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return Error{path + ": " + std::strerror(errno)};
    auto transport = std::make_unique<FdTransport>(fd, path);
    // One reader per board (dgt.md 1): a second program gets EBUSY / EWOULDBLOCK.
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) return Error{path + ": in use by another program"};
    (void)::ioctl(fd, TIOCEXCL);

    termios t{};
    if (::tcgetattr(fd, &t) != 0) return Error{path + ": not a terminal: " + std::strerror(errno)};
    ::cfmakeraw(&t);
    t.c_cflag &= ~static_cast<tcflag_t>(CSIZE | PARENB | PARODD | CSTOPB | CRTSCTS);
    t.c_cflag |= size_flag(settings.data_bits) | CREAD | CLOCAL;
    if (settings.parity != Parity::None) {
        t.c_cflag |= PARENB;
        if (settings.parity == Parity::Odd) t.c_cflag |= PARODD;
        t.c_iflag |= INPCK;
    }
    if (settings.stop_bits == 2) t.c_cflag |= CSTOPB;
    t.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    ::cfsetispeed(&t, speed.value());
    ::cfsetospeed(&t, speed.value());
    if (::tcsetattr(fd, TCSANOW, &t) != 0) return Error{path + ": tcsetattr: " + std::strerror(errno)};
    // Modem lines, each set or cleared as the model asks (a line left alone keeps what the
    // open gave it: Linux raises DTR and RTS on open), as the libserialport path does; ptys
    // answer ENOTTY, which is fine.
    int set = 0;
    int clear = 0;
    (settings.dtr ? set : clear) |= TIOCM_DTR;
    (settings.rts ? set : clear) |= TIOCM_RTS;
    if (set) (void)::ioctl(fd, TIOCMBIS, &set);
    if (clear) (void)::ioctl(fd, TIOCMBIC, &clear);
    ::tcflush(fd, TCIFLUSH);
    return std::unique_ptr<Transport>(std::move(transport));
}

} // namespace eboard::drivers
