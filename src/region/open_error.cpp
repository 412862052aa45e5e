#include "region/open_error.h"

#include <linux/perf_event.h>

#include <cerrno>

#include "collect/collect.h"

namespace topdown::region {
namespace {

const char* const kSysfsDevices = "/sys/bus/event_source/devices";

ErrorCode classify(int err) {
  switch (err) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      return collect::pmu_available(kSysfsDevices) ? ErrorCode::OpenFailed : ErrorCode::NoPmu;
    case EACCES:
    case EPERM:
      return ErrorCode::NotPermitted;
    default:
      return ErrorCode::OpenFailed;
  }
}

}  // namespace

Error open_error(int err, const events::Encoding& encoding, const std::string& paranoid) {
  return Error(classify(err), collect::explain_open_failure(err, encoding, kSysfsDevices, paranoid));
}

Error no_pmu_error(const std::string& paranoid) {
  events::Encoding cycles;
  cycles.name = "cycles";
  cycles.type = PERF_TYPE_HARDWARE;
  cycles.config = PERF_COUNT_HW_CPU_CYCLES;
  return Error(ErrorCode::NoPmu, collect::explain_open_failure(ENODEV, cycles, kSysfsDevices, paranoid));
}

}  // namespace topdown::region
