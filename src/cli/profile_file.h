#pragma once
// A recording (topdown's data file or perf script text) profiled as `topdown
// report` profiles it: each core type's part with its own model, each with
// its functions' reports. Shared by report and by compare, which reports
// every recording it is given before comparing.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "eval/evaluate.h"
#include "model/dependencies.h"
#include "profile/profile.h"
#include "recording/recording.h"
#include "report/report.h"
#include "settings/import.h"

namespace topdown::cli {

// The profile of one core type's samples with its model (or of the whole
// recording of a CPU with one kind of core), and its reports.
struct CoreTypeProfile {
  recording::CoreType type;  // empty for a CPU with one kind of core
  recording::Recording recording;
  model::Model model;
  settings::ImportDecision decision;
  std::optional<model::Dependencies> dependencies;
  std::optional<eval::Evaluator> evaluator;
  profile::Options profile_options;
  profile::Profile profile;
  std::vector<report::Report> reports;  // the whole program's first
};

struct ProfiledFile {
  bool header_known = false;  // topdown's data file, whose header names the machine
  bool hybrid = false;        // a report per core type
  std::string counting;       // how it was sampled, in words, for a page's header
  std::vector<std::unique_ptr<CoreTypeProfile>> types;
};

// `options.file` read, named and profiled. Throws Error for a bad
// --min-share and for what the readers refuse.
ProfiledFile profile_file(const ProfileOptions& options);

}  // namespace topdown::cli
