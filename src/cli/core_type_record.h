#pragma once
// A hybrid CPU's record (stat's or import's): the reports of each core type
// the target ran on, P-cores first, labelled with the type and, for a
// record without units, each type's share of the cycles.
#include <optional>
#include <utility>
#include <vector>

#include "model/model.h"
#include "report/report.h"

namespace topdown::cli {

class CoreTypeRecord {
 public:
  // `ran_anywhere`: the target ran on some core type in the record's time;
  // `every_type`: the columns view, which keeps each type's block on every line.
  CoreTypeRecord(bool ran_anywhere, bool every_type) : ran_anywhere_(ran_anywhere), every_type_(every_type) {}

  // Whether the record reports a core type the target ran (`ran`) or did
  // not run on: every type it ran on; every type, n/a, when it ran on none
  // (as an interval it slept through); every type with `every_type`.
  bool shows(bool ran) const { return ran || !ran_anywhere_ || every_type_; }

  // One core type's reports (one, or one per unit), evaluated with `model`;
  // a type the target did not run on while it ran on another has no cycles.
  void add(std::vector<report::Report> reports, const model::Model& model, bool ran);

  // The reports; with `shares`, each type's first report carries its
  // cycles (its model's clock event) over every type's, when every type
  // has a count of its clock.
  std::vector<report::Report> take(bool shares);

 private:
  bool ran_anywhere_;
  bool every_type_;
  std::vector<report::Report> reports_;
  std::vector<std::pair<size_t, std::optional<double>>> cycles_;  // per type: its first report, its cycles
};

// Whether `sample` counted anything: the target ran on the core type whose
// counts it holds (a core type's PMU counts only on its own CPUs).
bool counted_anything(const counts::Sample& sample);

}  // namespace topdown::cli
