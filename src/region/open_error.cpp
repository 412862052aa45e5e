#include "region/open_error.h"

#include <cerrno>

#include "perf/open_failure.h"

namespace topdown::region {
namespace {

ErrorCode classify(int err) {
  switch (err) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
      return perf::pmu_available() ? ErrorCode::OpenFailed : ErrorCode::NoPmu;
    case EACCES:
    case EPERM:
      return ErrorCode::NotPermitted;
    default:
      return ErrorCode::OpenFailed;
  }
}

}  // namespace

Error open_error(int err, const perf::Event& event, const std::string& paranoid) {
  return Error(classify(err), perf::explain_open_failure(err, event, perf::kSysfsDevices, paranoid));
}

Error no_pmu_error(const std::string& paranoid) {
  perf::Event cycles;
  cycles.name = "cycles";
  cycles.type = PERF_TYPE_HARDWARE;
  cycles.config = PERF_COUNT_HW_CPU_CYCLES;
  return Error(ErrorCode::NoPmu, perf::explain_open_failure(ENODEV, cycles, perf::kSysfsDevices, paranoid));
}

}  // namespace topdown::region
