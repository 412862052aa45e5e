#include "perf/group.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

namespace topdown::perf {

constexpr std::size_t kGroupHeaderWords = 3;  // nr, time_enabled, time_running
constexpr std::size_t kWordsPerEvent = 2;     // value, id

bool parse_group_read(std::span<const uint64_t> words, std::span<const uint64_t> ids, std::span<uint64_t> values,
                      Times& times) {
  const std::size_t count = ids.size();
  if (words.size() < kGroupHeaderWords + kWordsPerEvent * count || values.size() < count || words[0] != count) {
    return false;
  }
  times = {words[1], words[2]};
  const uint64_t* entry = words.data() + kGroupHeaderWords;
  for (std::size_t i = 0; i < count; ++i, entry += kWordsPerEvent) {
    // The kernel gives the events in the order they joined the group; the id
    // is checked so that a group that changed cannot pass for this one.
    std::size_t at = i;
    if (ids[at] != entry[1]) {
      at = 0;
      while (at < count && ids[at] != entry[1]) ++at;
      if (at == count) return false;
    }
    values[at] = entry[0];
  }
  return true;
}

int Group::add(const perf_event_attr& attr) {
  Opened opened = open_event(attr, target_, empty() ? -1 : leader());
  if (opened.error != 0) return opened.error;
  uint64_t id = 0;
  if ((attr.read_format & PERF_FORMAT_ID) != 0 && ::ioctl(opened.fd.get(), PERF_EVENT_IOC_ID, &id) != 0) return errno;
  fds_.push_back(std::move(opened.fd));
  ids_.push_back(id);
  buffer_.resize(kGroupHeaderWords + kWordsPerEvent * fds_.size());
  return 0;
}

int Group::ioctl_group(unsigned long request) const {
  return ::ioctl(leader(), request, PERF_IOC_FLAG_GROUP) == 0 ? 0 : errno;
}

int Group::enable() const { return ioctl_group(PERF_EVENT_IOC_ENABLE); }
int Group::disable() const { return ioctl_group(PERF_EVENT_IOC_DISABLE); }
int Group::reset() const { return ioctl_group(PERF_EVENT_IOC_RESET); }

int Group::read(std::span<uint64_t> values, Times& times) {
  if (const int failed = read_words(leader(), buffer_.data(), buffer_.size())) return failed;
  return parse_group_read(buffer_, ids_, values, times) ? 0 : kShortRead;
}

bool Group::map_pages() {
  if (!pages_.empty()) return true;
  const auto page_size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<Mapping> pages;
  for (const Fd& event : fds_) {
    pages.push_back(Mapping::map(event.get(), page_size));
    if (!pages.back().valid()) return false;
  }
  pages_ = std::move(pages);
  return true;
}

}  // namespace topdown::perf
