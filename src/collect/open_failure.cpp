#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "collect/collect.h"

namespace topdown::collect {

bool pmu_available(const std::filesystem::path& sysfs_devices) {
  std::error_code ignored;
  for (const char* core_pmu : {"cpu", "cpu_core", "cpu_atom"}) {
    if (std::filesystem::exists(sysfs_devices / core_pmu / "type", ignored)) return true;
  }
  return false;
}

std::string explain_open_failure(int err, const events::Encoding& encoding, const std::filesystem::path& sysfs_devices,
                                 const std::string& paranoid) {
  const std::string event = fmt::format("cannot count '{}' (type {}, config {:#x}, config1 {:#x})", encoding.name,
                                        encoding.type, encoding.config, encoding.config1);
  switch (err) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      if (!pmu_available(sysfs_devices)) {
        return event +
               ": no hardware PMU: this kernel exposes no CPU performance counters (a VM without a virtual "
               "PMU?); enable the vPMU in the hypervisor or run on bare metal";
      }
      return fmt::format(
          "{}: the PMU does not support this event or its modifiers ({}); check that the event exists on this "
          "CPU and drop precise or user/kernel modifiers",
          event, std::strerror(err));
    case EACCES:
    case EPERM:
      return fmt::format(
          "{}: not permitted (kernel.perf_event_paranoid is {}); allow it with 'sudo sysctl "
          "kernel.perf_event_paranoid=1' or give topdown CAP_PERFMON",
          event, paranoid.empty() ? "unreadable" : paranoid);
    case EINVAL:
      return event +
             ": the kernel rejected this encoding; check the event's umask, cmask and modifiers for "
             "this CPU";
    case EMFILE:
    case ENFILE:
      return event + ": too many open files; raise the limit with 'ulimit -n' or count fewer events";
    default:
      return fmt::format("{}: perf_event_open failed: {}", event, std::strerror(err));
  }
}

}  // namespace topdown::collect
