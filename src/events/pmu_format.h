#pragma once
// How a PMU's named terms (event, umask, cmask, ...) map onto the bits of
// perf_event_attr config/config1/config2, as the kernel describes it in
// /sys/bus/event_source/devices/<pmu>/format.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "cpu/cpu_info.h"
#include "events/event.h"

namespace topdown::events {

// A term the PMU's format lacks: a field of a newer kernel's layout (umask2,
// which Lunar Lake's events need, on an older kernel), or a misspelt term.
class MissingTerm : public Error {
 public:
  MissingTerm(std::string term, std::string pmu);
  const std::string& term() const { return term_; }
  const std::string& pmu() const { return pmu_; }

 private:
  std::string term_;
  std::string pmu_;
};

class PmuFormat {
 public:
  // Reads every file of `format_dir`; throws topdown::Error when one cannot be
  // parsed.
  static PmuFormat from_directory(const std::filesystem::path& format_dir);
  // The x86 core layout the kernel would publish, for hosts without sysfs.
  static PmuFormat builtin_x86_core(cpu::Vendor vendor);
  // The layout Intel's uncore units publish (Ice Lake and Sapphire Rapids
  // servers: the unit mask's extension above bit 32, the counter mask named
  // thresh), for another CPU's uncore events: the client units' terms sit in
  // the same bits. The IIO boxes' port and function masks (ch_mask, fc_mask)
  // sit where `cpu`'s generation has them.
  static PmuFormat builtin_intel_uncore(std::string pmu, const cpu::CpuId& cpu);

  // Adds a term from its sysfs description, e.g. "config:0-7,32-35".
  // `origin` names the description in errors.
  void add_term(const std::string& term, std::string_view description, std::string_view origin);

  // perf's config/config1/config2 terms are always known, whatever the format.
  bool knows(std::string_view term) const;
  // Replaces the term's bits in `encoding` with `value`; value bits go to the
  // term's ranges in the order listed (low bits to the first range). Throws
  // MissingTerm when the term is unknown, Error when the value does not fit.
  void set(Encoding& encoding, std::string_view term, uint64_t value) const;
  // The term's value as packed in `encoding` (0 for unknown terms).
  uint64_t get(const Encoding& encoding, std::string_view term) const;

  void set_pmu_name(std::string name) { pmu_name_ = std::move(name); }

 private:
  struct BitRange {
    int word = 0;  // 0: config, 1: config1, 2: config2
    unsigned low = 0;
    unsigned high = 0;
  };
  const std::vector<BitRange>* ranges_of(std::string_view term) const;

  std::string pmu_name_;
  std::map<std::string, std::vector<BitRange>, std::less<>> terms_;
};

}  // namespace topdown::events
