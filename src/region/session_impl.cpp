#include "region/session_impl.h"

#include <sstream>

namespace topdown::region {

Session::Impl::Impl(std::unique_ptr<CounterReader> reader_in, std::unique_ptr<Method> method_in,
                    std::size_t value_count_in, SessionInfo info_in)
    : owner(std::this_thread::get_id()),
      reader(std::move(reader_in)),
      method(std::move(method_in)),
      value_count(value_count_in),
      info(std::move(info_in)) {}

void Session::Impl::check_owner() const {
  if (std::this_thread::get_id() != owner) {
    std::ostringstream message;
    message << "this topdown region session belongs to thread " << owner << " (it counts that thread only), not to "
            << std::this_thread::get_id() << "; open a session on each thread that measures regions";
    throw Error(ErrorCode::WrongThread, message.str());
  }
}

RegionId Session::Impl::region(std::string_view name) {
  check_owner();
  if (const auto found = ids.find(name); found != ids.end()) return RegionId{found->second};
  const auto index = static_cast<uint32_t>(regions.size());
  regions.push_back(Region{std::string(name), -1, false, {}, {}});
  ids.emplace(std::string(name), index);
  return RegionId{index};
}

void Session::Impl::begin(RegionId id) {
  check_owner();
  if (id.index >= regions.size()) {
    throw Error(ErrorCode::InvalidArgument,
                "region id " + std::to_string(id.index) + " was not given by this session; get ids from region(name)");
  }
  if (depth == kMaxDepth) {
    throw Error(ErrorCode::BadNesting, "regions nested more than " + std::to_string(kMaxDepth) + " deep (inside '" +
                                           regions[stack[depth - 1].region].name + "'); is an end() missing?");
  }
  Region& region = regions[id.index];
  if (!region.parent_known) {
    region.parent = depth == 0 ? -1 : static_cast<int>(stack[depth - 1].region);
    region.parent_known = true;
  }
  Open& open = stack[depth++];
  open.region = id.index;
  // Last, so that the library's own work stays outside the region.
  reader->read(open.start);
}

void Session::Impl::end() {
  check_owner();
  if (depth == 0) throw Error(ErrorCode::BadNesting, "end() without an open region; call begin() first");
  // First, so that the library's own work stays outside the region.
  reader->read(ending);
  const Open& open = stack[--depth];
  regions[open.region].totals.add(open.start, ending, value_count);
}

void Session::Impl::end_noexcept() noexcept {
  try {
    end();
  } catch (const std::exception& error) {
    try {
      auto& warnings = depth == 0 ? session_warnings : regions[stack[depth - 1].region].warnings;
      warnings.emplace_back(std::string("a Scope could not end its region: ") + error.what());
    } catch (...) {
      // Out of memory while reporting misuse: nothing more can be done.
    }
  }
}

std::vector<RegionResult> Session::Impl::results() const {
  std::vector<RegionResult> results;
  for (const Region& region : regions) {
    RegionResult result;
    result.name = region.name;
    if (region.parent >= 0) result.parent = regions[static_cast<std::size_t>(region.parent)].name;
    for (int at = region.parent; at >= 0; at = regions[static_cast<std::size_t>(at)].parent) ++result.depth;
    result.calls = region.totals.calls;
    result.dropped_calls = region.totals.dropped_calls;
    if (result.calls > 0) method->evaluate(region.totals, result);
    if (result.dropped_calls > 0) {
      result.warnings.push_back(std::to_string(result.dropped_calls) +
                                " calls were left out: their counters could not be read consistently (see "
                                "docs/region-library.md, 'Dropped calls')");
    }
    result.warnings.insert(result.warnings.end(), region.warnings.begin(), region.warnings.end());
    result.warnings.insert(result.warnings.end(), session_warnings.begin(), session_warnings.end());
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace topdown::region
