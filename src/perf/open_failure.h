#pragma once
// Why perf_event_open failed, in one line that says what to do about it.
#include <filesystem>
#include <string>
#include <string_view>

#include "perf/event.h"

namespace topdown::perf {

inline const std::filesystem::path kSysfsDevices = "/sys/bus/event_source/devices";

// True when the kernel exposes a core CPU PMU ("cpu", or "cpu_core"/"cpu_atom"/"cpu_lowpower"
// on hybrid Intel, or an Arm core PMU) under `sysfs_devices`.
bool pmu_available(const std::filesystem::path& sysfs_devices = kSysfsDevices);

// Whether the PMU called `name` is an Arm CPU's core PMU: armv8_pmuv3_0
// (ACPI), armv8_cortex_a76, armv9_... (device tree), or any other PMU that
// counts on a list of CPUs (a cpus file) without being one of Intel's cpu_*
// core types.
bool is_arm_core_pmu(std::string_view name, bool has_cpu_list);

// One line saying why perf_event_open failed with `err` for `event` and
// what to do about it. `paranoid` is the content of
// /proc/sys/kernel/perf_event_paranoid (empty when unreadable).
std::string explain_open_failure(int err, const Event& event, const std::filesystem::path& sysfs_devices,
                                 const std::string& paranoid);

}  // namespace topdown::perf
