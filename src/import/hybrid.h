#pragma once
// perf stat on a hybrid CPU counts each core type on its own PMU and names
// its rows so: cpu_core/INST_RETIRED.ANY/ for the P-cores,
// cpu_atom/INST_RETIRED.ANY/ for the E-cores; on an Arm big.LITTLE system
// armv8_pmuv3_0/stall_slot/, armv8_pmuv3_1/stall_slot/, one PMU per core
// kind. Each core type's tree reads only its own rows.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/import.h"

namespace topdown::import {

// Whether `pmu` is an Arm core PMU: one of `arm_core_pmus`, the probe's of
// the machine that counted the file (cpu::CpuInfo::arm_core_pmus: a
// device-tree core PMU may have any name); for a file from another machine,
// `arm_core_pmus` empty, one named as such (perf::is_arm_core_pmu).
bool is_arm_core_pmu(std::string_view pmu, const std::vector<std::string>& arm_core_pmus);

// The core PMUs the file's event names are counted on ("cpu_atom",
// "cpu_core": a name "cpu_X/.../"; two or more Arm core PMUs, "armv8_pmuv3_0/.../"),
// sorted; empty for a CPU with one kind of core. The Arm core PMUs are
// `arm_core_pmus`' (is_arm_core_pmu).
std::vector<std::string> core_pmus_of(const std::vector<std::string>& events,
                                      const std::vector<std::string>& arm_core_pmus = {});

// The name a file's event `name` has in the tree of `pmu`'s core type:
// cpu_atom/X/ is X; a spelling with terms (cpu_atom/config=0xc4/) stays
// whole, for the resolver of `pmu` to match, as does a name of no core PMU
// (duration_time); nullopt for an event of another of `core_pmus`.
std::optional<std::string> core_type_name(std::string_view name, std::string_view pmu,
                                          const std::vector<std::string>& core_pmus);

// What one core type's tree reads of a hybrid file: rows of `pmu` under the
// name they give (cpu_atom/X/ is X; a spelling with terms, such as
// cpu_atom/config=0xc4/, stays whole, for the resolver of `pmu` to match),
// no rows of the other core PMUs in `core_pmus`, and every row of no core
// PMU (duration_time, msr/tsc/). Places without a row of `pmu` (the CPUs of
// another core type in -A output) are left out.
FileInfo core_type_file(const FileInfo& file, std::string_view pmu, const std::vector<std::string>& core_pmus);
Interval core_type_interval(const Interval& interval, std::string_view pmu, const std::vector<std::string>& core_pmus);

// Whether `interval` (as read) counted anything on `pmu`: the task ran on
// that core type. perf prints <not counted> for the PMU of a core type the
// task never ran on.
bool ran_on(const Interval& interval, std::string_view pmu);

}  // namespace topdown::import
