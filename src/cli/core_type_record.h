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
  // One core type's reports (one, or one per unit), evaluated with `model`;
  // `ran` false for a type the target did not run on, whose cycles are none
  // (its reports n/a, kept where every record shows every type).
  void add(std::vector<report::Report> reports, const model::Model& model, bool ran);

  // The reports; with `shares`, each type's first report carries its
  // cycles (its model's clock event) over every type's, when every type
  // has a count of its clock.
  std::vector<report::Report> take(bool shares);

 private:
  std::vector<report::Report> reports_;
  std::vector<std::pair<size_t, std::optional<double>>> cycles_;  // per type: its first report, its cycles
};

// Whether `sample` counted anything: the target ran on the core type whose
// counts it holds (a core type's PMU counts only on its own CPUs).
bool counted_anything(const counts::Sample& sample);

}  // namespace topdown::cli
