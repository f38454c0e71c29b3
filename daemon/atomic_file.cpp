#include "daemon/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace eboard::daemon {

namespace {

Error sys_error(const std::string& what, const std::filesystem::path& p) {
    return Error{what + " " + p.string() + ": " + std::strerror(errno)};
}

} // namespace

Expected<bool> sync_directory(const std::filesystem::path& dir) {
    const std::string d = dir.empty() ? std::string(".") : dir.string();
    const int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return sys_error("open directory", d);
    const int rc = ::fsync(fd);
    const int saved = errno;
    ::close(fd);
    errno = saved;
    if (rc != 0) return sys_error("fsync directory", d);
    return true;
}

Expected<std::size_t> write_file_atomically(const std::filesystem::path& path,
                                            std::string_view content, bool sync_dir) {
    std::filesystem::path tmp = path;
    tmp += ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return sys_error("create", tmp);
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int saved = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            errno = saved;
            return sys_error("write", tmp);
        }
        done += static_cast<std::size_t>(n);
    }
    // An fsync error is not retried: the kernel may have dropped the dirty pages
    // (PostgreSQL "fsyncgate", 2018), so a second fsync could falsely succeed.
    if (::fsync(fd) != 0) {
        const int saved = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        errno = saved;
        return sys_error("fsync", tmp);
    }
    if (::close(fd) != 0) return sys_error("close", tmp);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int saved = errno;
        ::unlink(tmp.c_str());
        errno = saved;
        return sys_error("rename to", path);
    }
    if (sync_dir) {
        auto synced = sync_directory(path.parent_path());
        if (!synced) return synced.error();
    }
    return done;
}

} // namespace eboard::daemon
