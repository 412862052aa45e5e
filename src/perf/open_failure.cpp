#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "perf/open_failure.h"

namespace topdown::perf {

bool pmu_available(const std::filesystem::path& sysfs_devices) {
  std::error_code ignored;
  for (const char* core_pmu : {"cpu", "cpu_core", "cpu_atom", "cpu_lowpower"}) {
    if (std::filesystem::exists(sysfs_devices / core_pmu / "type", ignored)) return true;
  }
  for (const auto& entry : std::filesystem::directory_iterator(sysfs_devices, ignored)) {
    const bool arm_core =
        is_arm_core_pmu(entry.path().filename().string(), std::filesystem::exists(entry.path() / "cpus", ignored));
    if (arm_core && std::filesystem::exists(entry.path() / "type", ignored)) return true;
  }
  return false;
}

bool is_arm_core_pmu(std::string_view name, bool has_cpu_list) {
  return name.starts_with("armv8_") || name.starts_with("armv9_") || (has_cpu_list && !name.starts_with("cpu_"));
}

namespace {

// What kernel.perf_event_paranoid allows a user without CAP_PERFMON, and so
// what to change. Levels above 2 come from distribution patches (Debian 3,
// Ubuntu 4): no perf_event_open at all.
std::string not_permitted(const Event& event, const std::string& paranoid) {
  int level = 0;
  const char* end = paranoid.data() + paranoid.size();
  const auto [stop, error] = std::from_chars(paranoid.data(), end, level);
  if (paranoid.empty() || error != std::errc() || stop != end) {
    return "not permitted (kernel.perf_event_paranoid is unreadable); allow it with 'sudo sysctl "
           "kernel.perf_event_paranoid=1' or give topdown CAP_PERFMON";
  }
  if (level >= 3) {
    return fmt::format(
        "not permitted: kernel.perf_event_paranoid is {}, which forbids performance counters to users without "
        "CAP_PERFMON; allow counting user space with 'sudo sysctl kernel.perf_event_paranoid=2', or run topdown "
        "with sudo",
        level);
  }
  if (level == 2) {
    return fmt::format(
        "not permitted: kernel.perf_event_paranoid is 2, which allows counting only user space of your own "
        "processes{}; leave out --kernel, kernel-only events (:SUP) and -a/-C, or allow kernel counting with "
        "'sudo sysctl kernel.perf_event_paranoid=1'",
        event.exclude_user ? " and this event counts only the kernel" : "");
  }
  return fmt::format(
      "not permitted although kernel.perf_event_paranoid is {}: counting whole CPUs (-a, -C) needs 0 or less, "
      "and a security module (SELinux, AppArmor) or a container's seccomp filter may forbid perf_event_open; run "
      "topdown with sudo or give it CAP_PERFMON",
      level);
}

}  // namespace

std::string explain_open_failure(int err, const Event& event, const std::filesystem::path& sysfs_devices,
                                 const std::string& paranoid) {
  const std::string what = fmt::format("cannot count '{}' (type {}, config {:#x}, config1 {:#x})", event.name,
                                       event.type, event.config, event.config1);
  switch (err) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      if (!pmu_available(sysfs_devices)) {
        return what +
               ": no hardware PMU: this kernel exposes no CPU performance counters (a VM without a virtual "
               "PMU?); enable the vPMU in the hypervisor or run on bare metal";
      }
      return fmt::format(
          "{}: the PMU does not support this event or its modifiers ({}); check that the event exists on this "
          "CPU and drop precise or user/kernel modifiers",
          what, std::strerror(err));
    case EACCES:
    case EPERM:
      return what + ": " + not_permitted(event, paranoid);
    case EINVAL:
      return what +
             ": the kernel rejected this encoding; check the event's umask, cmask and modifiers for "
             "this CPU";
    case EMFILE:
    case ENFILE:
      return what + ": too many open files; raise the limit with 'ulimit -n' or count fewer events";
    default:
      return fmt::format("{}: perf_event_open failed: {}", what, std::strerror(err));
  }
}

}  // namespace topdown::perf
