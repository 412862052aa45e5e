#pragma once
// One perf_event group opened on the calling thread (pid 0, cpu -1), with the
// mmap pages rdpmc needs.
#include <linux/perf_event.h>

#include <cstddef>
#include <string>
#include <vector>

#include "events/event.h"

namespace topdown::region {

class PerfGroup {
 public:
  // Opens attrs[0] as leader and the rest as its members. `described[i]`
  // names event i in error messages. Throws region::Error with the code and
  // the explanation of collect::explain_open_failure.
  PerfGroup(const std::vector<perf_event_attr>& attrs, const std::vector<events::Encoding>& described,
            const std::string& paranoid);
  PerfGroup(const PerfGroup&) = delete;
  PerfGroup& operator=(const PerfGroup&) = delete;
  ~PerfGroup();

  std::size_t size() const { return fds_.size(); }
  int leader_fd() const { return fds_.front(); }
  void enable() const;
  void reset() const;  // PERF_EVENT_IOC_RESET of the whole group

  // Maps one page per event (rdpmc needs the page of every event it reads);
  // false when the kernel refuses. Idempotent.
  bool map_pages();
  const perf_event_mmap_page* page(std::size_t event) const { return pages_[event]; }

 private:
  void close_all();

  std::vector<int> fds_;
  std::vector<const perf_event_mmap_page*> pages_;
  std::size_t page_size_ = 0;
};

}  // namespace topdown::region
