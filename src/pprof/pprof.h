#pragma once
// A recording's samples as pprof's profile.proto, gzipped (`report --pprof
// FILE`), for `go tool pprof` and the tools that read it: one sample per
// recorded sample with its call stack, and as its values the sample itself,
// its clockticks and, per tree node of the report, the slots it loses there
// (`-sample_index=Backend_Bound` ranks functions by those).
#include <string>

#include "profile/profile.h"
#include "recording/recording.h"

namespace topdown::pprof {

// What the file says of the run beside the samples (its comments).
struct About {
  std::string model;   // "software: Software events (test model)"
  std::string source;  // the recording it came from
};

// The profile of `recording` (named: profile::name_samples) with the values
// of `profile`'s functions, as the uncompressed bytes of a profile.proto.
// Sample types: samples (count), clockticks (the clock event's deltas, in
// nanoseconds for task-clock and cpu-clock, else in cycles or events), then
// one per tree node: the node's value in the sample's function times the
// sample's clockticks (0 where it is n/a). Locations are the named places
// (inlined functions as lines before the function they are in), mappings
// the modules with their build ids.
std::string encode_profile(const recording::Recording& recording, const profile::Profile& profile, const About& about);

// The gzip (RFC 1952) stream of `bytes`, as pprof files are (the CLI writes
// them like its other outputs).
std::string gzip(const std::string& bytes);

}  // namespace topdown::pprof
