#pragma once
// What the samples of a recording will need named, found by a pass over them
// before naming: how many samples each mapped file holds, and the kernel
// addresses of samples and call stacks. Naming then reads the DWARF (source
// lines, inlined functions) of the files that matter only, and of the
// kernel's symbols those at the addresses met only.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "profile/task_replay.h"
#include "recording/recording.h"

namespace topdown::profile {

// Files holding less of the samples than this are named from their symbol
// tables alone: their source lines are never the ones a report points at,
// and their DWARF can be the largest thing read (libc's is 15 MB).
constexpr double kDwarfShare = 0.01;

struct SampleSurvey {
  uint64_t samples = 0;                               // those still to be named
  std::unordered_map<std::string, uint64_t> by_file;  // of them, at an address of the file
  std::vector<uint64_t> kernel_addresses;             // sorted, once each

  // The files holding at least `share` of the samples.
  std::unordered_set<std::string> files_holding(double share) const {
    std::unordered_set<std::string> files;
    for (const auto& [file, count] : by_file) {
      if (static_cast<double>(count) >= share * static_cast<double>(samples)) files.insert(file);
    }
    return files;
  }
};

// `Resolver` has symbols::Symbolizer's map, exec, fork, exit and file_at
// members; it is fed the whole recording (restart() it before naming).
template <class Resolver>
SampleSurvey survey_samples(const recording::Recording& recording, Resolver& resolver) {
  SampleSurvey survey;
  TaskReplay replay(recording, resolver);
  auto add_kernel = [&](uint64_t address) {
    survey.kernel_addresses.push_back(address);
    survey.kernel_addresses.push_back(address - 1);  // a caller is named by the byte before its return address
  };
  for (const recording::Sample& sample : recording.samples) {
    replay.until(sample.time);
    for (uint32_t i = 0; i < sample.kernel_frames; ++i) add_kernel(recording.frames.addresses[sample.first_frame + i]);
    if (sample.symbol != recording::kNoSymbol) continue;
    ++survey.samples;
    // As name_samples charges them: kernel time to the user function that
    // entered the kernel, where known.
    const bool charge_caller = sample.kernel && sample.user_ip != 0;
    if (sample.kernel && !charge_caller) {
      add_kernel(sample.ip);
    } else if (const std::string* file = resolver.file_at(sample.pid, charge_caller ? sample.user_ip : sample.ip)) {
      ++survey.by_file[*file];
    }
  }
  std::sort(survey.kernel_addresses.begin(), survey.kernel_addresses.end());
  survey.kernel_addresses.erase(std::unique(survey.kernel_addresses.begin(), survey.kernel_addresses.end()),
                                survey.kernel_addresses.end());
  return survey;
}

}  // namespace topdown::profile
