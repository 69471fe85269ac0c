// Bounded reads of input files (configs, models, JSON): a regular file of at most a given size,
// or a clear kInvalidFile error -- fast, without reading, for a directory, a device (/dev/zero),
// a FIFO or a socket, and for a file over the limit.
//
// Thread-safety: pure functions (the file system aside).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "common/status.h"

namespace aclsim {

// What a file is when it is not a regular file ("a directory", "a device", ...).
inline const char* FileKindName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The contents of regular file `path` (`what` names it in messages: "config file"), at most
// `max_bytes` long. kInvalidFile: missing, unreadable, not a regular file, or too large.
template <typename Bytes = std::string>
Result<Bytes> ReadRegularFile(const std::string& path, uint64_t max_bytes, const char* what) {
  // O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused below anyway).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return Err(StatusCode::kInvalidFile, "cannot open {} '{}': {}", what, path,
               std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return Err(StatusCode::kInvalidFile, "cannot read {} '{}': {}", what, path,
               std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return Err(StatusCode::kInvalidFile, "{} '{}' is {}, not a file", what, path,
               FileKindName(st.st_mode));
  }
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) {
    return Err(StatusCode::kInvalidFile, "{} '{}' is {} bytes, more than the {} bytes accepted",
               what, path, size, max_bytes);
  }
  Bytes bytes;
  bytes.resize(static_cast<size_t>(size));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, reinterpret_cast<char*>(&bytes[0]) + done, bytes.size() - done);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) {
      return Err(StatusCode::kInvalidFile, "cannot read {} '{}': {}", what, path,
                 std::strerror(errno));
    }
    if (n == 0) break;  // shrank while read: what is there
    done += static_cast<size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

}  // namespace aclsim
