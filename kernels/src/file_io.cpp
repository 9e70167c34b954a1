#include "scandof/util/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace scandof {
namespace util {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw std::runtime_error("cannot write " + path + ": " + what +
                           (err ? std::string(" (") + std::strerror(err) + ")" : std::string()));
}

// write(2) until every byte is out; EINTR is retried, a short write to a full disk is an error.
void write_all(int fd, const char* p, std::size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail(path, "write failed", errno);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Streams into a file descriptor in 1 MiB pieces, so a multi-GB array is never held twice.
class FdBuf : public std::streambuf {
 public:
  FdBuf(int fd, const std::string& path) : fd_(fd), path_(path), buf_(1 << 20) {
    setp(buf_.data(), buf_.data() + buf_.size());
  }
  void flush_all() { flush_pending(); }

 protected:
  int_type overflow(int_type ch) override {
    flush_pending();
    if (ch != traits_type::eof()) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n >= static_cast<std::streamsize>(buf_.size())) {
      flush_pending();
      write_all(fd_, s, static_cast<std::size_t>(n), path_);
      return n;
    }
    return std::streambuf::xsputn(s, n);
  }
  int sync() override {
    flush_pending();
    return 0;
  }

 private:
  void flush_pending() {
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    if (n) write_all(fd_, pbase(), n, path_);
    setp(buf_.data(), buf_.data() + buf_.size());
  }
  int fd_;
  const std::string& path_;
  std::vector<char> buf_;
};

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// One destination of write_files_atomic: written and closed, waiting for its rename.
struct Staged {
  std::string path, tmp;  // tmp empty: a special file, already written in place
};

Staged stage(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path.empty()) fail(path, "empty path", 0);
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail(path, "it is a directory", 0);
  const bool special = exists && !S_ISREG(st.st_mode);

  std::string tmp;
  int fd = -1;
  if (special) {
    fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) fail(path, "cannot open", errno);
  } else {
    const std::string base =
        path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    tmp = folder_of(path) + "/." + base + ".tmp-XXXXXX";
    std::vector<char> name(tmp.begin(), tmp.end());
    name.push_back('\0');
    fd = ::mkstemp(name.data());
    if (fd < 0) fail(path, "cannot create a temporary file in " + folder_of(path), errno);
    tmp.assign(name.data());
    // mkstemp makes 0600; a new output gets 0666 & ~umask, an existing one keeps its mode.
    mode_t mode = 0;
    if (exists) {
      mode = st.st_mode & 07777;
    } else {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    ::fchmod(fd, mode);
  }

  try {
    FdBuf buf(fd, path);
    std::ostream out(&buf);
    out.exceptions(std::ios::badbit);
    write(out);
    buf.flush_all();
    if (!special && ::fsync(fd) != 0 && errno != EINVAL) fail(path, "fsync failed", errno);
  } catch (...) {
    ::close(fd);
    if (!tmp.empty()) ::unlink(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int err = errno;
    if (!tmp.empty()) ::unlink(tmp.c_str());
    fail(path, "close failed", err);
  }
  return Staged{path, tmp};
}

}  // namespace

void write_files_atomic(const std::vector<FileWrite>& files) {
  std::vector<Staged> staged;
  try {
    for (const auto& f : files) staged.push_back(stage(f.path, f.write));
  } catch (...) {
    for (const auto& s : staged)
      if (!s.tmp.empty()) ::unlink(s.tmp.c_str());
    throw;
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    const Staged& s = staged[i];
    if (s.tmp.empty() || ::rename(s.tmp.c_str(), s.path.c_str()) == 0) continue;
    const int err = errno;
    for (std::size_t j = i; j < staged.size(); ++j)
      if (!staged[j].tmp.empty()) ::unlink(staged[j].tmp.c_str());
    fail(s.path, "rename from the temporary file failed", err);
  }
}

void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write) {
  write_files_atomic({FileWrite{path, write}});
}

void make_output_folder(const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw std::runtime_error("cannot create output folder " + folder + ": " + ec.message());
  if (!std::filesystem::is_directory(folder, ec))
    throw std::runtime_error("output folder " + folder + " is not a folder");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error("cannot write into output folder " + folder + " (" +
                             std::strerror(errno) + ")");
}

}  // namespace util
}  // namespace scandof
