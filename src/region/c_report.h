#pragma once
// The C API's report of a session: everything td_region_report points into,
// in one allocation that td_region_report_free deletes. Private to the
// library; tests build reports of sessions on synthetic readers with it.
#include <memory>
#include <string>
#include <vector>

#include "topdown/region.h"
#include "topdown/region.hpp"

namespace topdown::region {

struct ReportStorage : td_region_report {
  std::vector<RegionResult> results;
  std::vector<td_region_result> c_results;
  std::vector<std::vector<td_region_node>> c_nodes;
  std::vector<std::vector<const char*>> c_warnings;
  std::string reader_name;
  std::string method_name;
};

std::unique_ptr<ReportStorage> make_report(const Session& session);

}  // namespace topdown::region
