#pragma once
// What perf_event_open is asked to count, and the perf_event_attr for it. The
// rest of topdown describes events with events::Encoding; this stage needs no
// more than the fields below, so that cpu (the counter health check) can use
// it before events exist.
#include <linux/perf_event.h>

#include <cstdint>
#include <string>

namespace topdown::perf {

struct Event {
  std::string name;  // for messages only
  uint32_t type = PERF_TYPE_RAW;
  uint64_t config = 0;
  uint64_t config1 = 0;
  uint64_t config2 = 0;
  bool exclude_user = false;
  bool exclude_kernel = false;
  bool exclude_hv = false;
  int precise = 0;  // precise_ip, 0-3
};

// read() of one event: value, time_enabled, time_running.
constexpr uint64_t kReadTimes = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
// read() of a group leader: nr, time_enabled, time_running, then a value and
// an id per event (Group::read matches them by id).
constexpr uint64_t kReadGroup = PERF_FORMAT_GROUP | kReadTimes | PERF_FORMAT_ID;

// How the event is opened, beyond what it counts. Sampling sets its own
// fields on the attr make_attr returns.
struct AttrOptions {
  uint64_t read_format = kReadTimes;
  bool disabled = false;        // a group leader waits for enable (or exec)
  bool enable_on_exec = false;  // starts when the task calls exec
  bool inherit = false;         // counts threads and children created from now on
};

perf_event_attr make_attr(const Event& event, const AttrOptions& options = {});

}  // namespace topdown::perf
