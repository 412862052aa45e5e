#include "common/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/error.h"
#include "common/fd.h"

namespace topdown {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, const std::string& remedy = "") {
  const int error = errno;  // before anything below can change it
  throw Error(what + " " + path + ": " + std::strerror(error) + remedy);
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  const Fd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) fail("cannot open", path, "; check the path given");
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) fail("cannot read", path);
  if (S_ISDIR(status.st_mode)) {
    errno = EISDIR;
    fail("cannot open", path, "; check the path given");
  }
  if (S_ISREG(status.st_mode) && status.st_size > 0) {
    const auto size = static_cast<std::size_t>(status.st_size);
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.get(), 0);
    if (mapped != MAP_FAILED) {
      mapping_ = mapped;
      bytes_ = std::string_view(static_cast<const char*>(mapped), size);
      return;
    }
  }
  // Pipes, character devices, and files mmap refuses: read them whole.
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", path);
    }
    read_.append(buffer, static_cast<std::size_t>(got));
  }
  bytes_ = read_;
}

void MappedFile::release_before(std::size_t offset) const {
  if (mapping_ == nullptr) return;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t whole_pages = std::min(offset, bytes_.size()) / page * page;
  // Advice only: a mapping the kernel keeps costs memory, never correctness.
  if (whole_pages > 0) ::madvise(mapping_, whole_pages, MADV_DONTNEED);
}

MappedFile::~MappedFile() {
  if (mapping_ != nullptr) ::munmap(mapping_, bytes_.size());
}

}  // namespace topdown
