#include "region/perf_group.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "collect/collect.h"
#include "region/open_error.h"

namespace topdown::region {

PerfGroup::PerfGroup(const std::vector<perf_event_attr>& attrs, const std::vector<events::Encoding>& described,
                     const std::string& paranoid) {
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    perf_event_attr attr = attrs[i];
    const int leader = fds_.empty() ? -1 : fds_.front();
    const long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      close_all();
      throw open_error(err, described[i], paranoid);
    }
    fds_.push_back(static_cast<int>(fd));
  }
}

PerfGroup::~PerfGroup() { close_all(); }

void PerfGroup::close_all() {
  for (const perf_event_mmap_page* page : pages_) {
    if (page) ::munmap(const_cast<perf_event_mmap_page*>(page), page_size_);
  }
  pages_.clear();
  for (int fd : fds_) ::close(fd);
  fds_.clear();
}

void PerfGroup::enable() const { ::ioctl(leader_fd(), PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP); }

void PerfGroup::reset() const { ::ioctl(leader_fd(), PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP); }

bool PerfGroup::map_pages() {
  if (!pages_.empty()) return true;
  page_size_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  for (int fd : fds_) {
    void* mapped = ::mmap(nullptr, page_size_, PROT_READ, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
      for (const perf_event_mmap_page* page : pages_) ::munmap(const_cast<perf_event_mmap_page*>(page), page_size_);
      pages_.clear();
      return false;
    }
    pages_.push_back(static_cast<const perf_event_mmap_page*>(mapped));
  }
  return true;
}

}  // namespace topdown::region
