// The C API over the C++ one: no exception crosses it, every failure is a
// code plus a thread-local message.
#include <string>
#include <vector>

#include "topdown/region.h"
#include "topdown/region.hpp"

using topdown::region::Error;
using topdown::region::ErrorCode;

static_assert(TD_REGION_ERR_NO_PMU == static_cast<int>(ErrorCode::NoPmu));
static_assert(TD_REGION_ERR_NOT_PERMITTED == static_cast<int>(ErrorCode::NotPermitted));
static_assert(TD_REGION_ERR_UNSUPPORTED_CPU == static_cast<int>(ErrorCode::UnsupportedCpu));
static_assert(TD_REGION_ERR_DOES_NOT_FIT == static_cast<int>(ErrorCode::DoesNotFit));
static_assert(TD_REGION_ERR_READER_UNAVAILABLE == static_cast<int>(ErrorCode::ReaderUnavailable));
static_assert(TD_REGION_ERR_OPEN_FAILED == static_cast<int>(ErrorCode::OpenFailed));
static_assert(TD_REGION_ERR_WRONG_THREAD == static_cast<int>(ErrorCode::WrongThread));
static_assert(TD_REGION_ERR_BAD_NESTING == static_cast<int>(ErrorCode::BadNesting));
static_assert(TD_REGION_ERR_INVALID_ARGUMENT == static_cast<int>(ErrorCode::InvalidArgument));
static_assert(TD_REGION_ERR_MODEL == static_cast<int>(ErrorCode::Model));
static_assert(TD_REGION_ERR_INTERNAL == static_cast<int>(ErrorCode::Internal));

struct td_region_session {
  topdown::region::Session session;
};

namespace {

thread_local std::string last_error;

int fail(int code, const std::string& message) {
  try {
    last_error = message;
  } catch (...) {
    // No room for the message: the code still says what failed.
  }
  return code;
}

// Runs `action`, turning whatever it throws into a code and a message.
template <typename Action>
int guarded(Action&& action) noexcept {
  try {
    action();
    return TD_REGION_OK;
  } catch (const Error& error) {
    return fail(static_cast<int>(error.code()), error.what());
  } catch (const std::exception& error) {
    return fail(TD_REGION_ERR_INTERNAL, error.what());
  } catch (...) {
    return fail(TD_REGION_ERR_INTERNAL, "unknown failure");
  }
}

int null_argument(const char* what) { return fail(TD_REGION_ERR_INVALID_ARGUMENT, std::string(what) + " is NULL"); }

topdown::region::ReaderChoice reader_choice(td_region_reader reader) {
  switch (reader) {
    case TD_REGION_READER_RDPMC:
      return topdown::region::ReaderChoice::Rdpmc;
    case TD_REGION_READER_READ:
      return topdown::region::ReaderChoice::Read;
    case TD_REGION_READER_AUTO:
      break;
  }
  return topdown::region::ReaderChoice::Auto;
}

// The report and everything its pointers point into.
struct ReportStorage : td_region_report {
  std::vector<topdown::region::RegionResult> results;
  std::vector<td_region_result> c_results;
  std::vector<std::vector<td_region_node>> c_nodes;
  std::string reader_name;
  std::string method_name;
};

td_region_node to_c(const topdown::region::NodeValue& node) {
  td_region_node c{};
  c.name = node.name.c_str();
  c.vendor_name = node.vendor_name.c_str();
  c.parent = node.parent.c_str();
  c.level = node.level;
  c.has_fraction = node.fraction.has_value();
  c.fraction = node.fraction.value_or(0.0);
  c.has_slots = node.slots.has_value();
  c.slots = node.slots.value_or(0.0);
  c.over_threshold = node.over_threshold;
  c.bottleneck = node.bottleneck;
  return c;
}

}  // namespace

extern "C" {

void td_region_options_init(td_region_options* options) {
  if (options == nullptr) return;
  *options = td_region_options{};
  options->level = 1;
  options->reader = TD_REGION_READER_AUTO;
}

int td_region_open(const td_region_options* options, td_region_session** session) {
  if (options == nullptr) return null_argument("options");
  if (session == nullptr) return null_argument("session");
  *session = nullptr;
  return guarded([&] {
    topdown::region::Options cpp;
    cpp.level = options->level;
    cpp.reader = reader_choice(options->reader);
    cpp.include_kernel = options->include_kernel != 0;
    if (options->models_dir) cpp.models_dir = options->models_dir;
    cpp.reset_slots = options->reset_slots;
    *session = new td_region_session{topdown::region::Session(cpp)};
  });
}

void td_region_close(td_region_session* session) { delete session; }

int td_region_register(td_region_session* session, const char* name, td_region_id* id) {
  if (session == nullptr) return null_argument("session");
  if (name == nullptr) return null_argument("name");
  if (id == nullptr) return null_argument("id");
  return guarded([&] { *id = session->session.region(name).index; });
}

int td_region_begin(td_region_session* session, td_region_id id) {
  if (session == nullptr) return null_argument("session");
  return guarded([&] { session->session.begin(topdown::region::RegionId{id}); });
}

int td_region_begin_named(td_region_session* session, const char* name) {
  if (session == nullptr) return null_argument("session");
  if (name == nullptr) return null_argument("name");
  return guarded([&] { session->session.begin(std::string_view(name)); });
}

int td_region_end(td_region_session* session) {
  if (session == nullptr) return null_argument("session");
  return guarded([&] { session->session.end(); });
}

int td_region_get_report(const td_region_session* session, td_region_report** report) {
  if (session == nullptr) return null_argument("session");
  if (report == nullptr) return null_argument("report");
  *report = nullptr;
  return guarded([&] {
    auto storage = std::make_unique<ReportStorage>();
    storage->results = session->session.results();
    const topdown::region::SessionInfo& info = session->session.info();
    storage->reader_name = info.reader == topdown::region::Reader::Rdpmc ? "rdpmc" : "read";
    storage->method_name = info.method;
    for (const auto& result : storage->results) {
      std::vector<td_region_node>& nodes = storage->c_nodes.emplace_back();
      for (const auto& node : result.nodes) nodes.push_back(to_c(node));
      td_region_result c{};
      c.name = result.name.c_str();
      c.parent = result.parent.c_str();
      c.depth = result.depth;
      c.calls = result.calls;
      c.dropped_calls = result.dropped_calls;
      c.has_slots = result.slots.has_value();
      c.slots = result.slots.value_or(0.0);
      c.counted_share = result.counted_share;
      c.node_count = nodes.size();
      c.nodes = nodes.data();
      storage->c_results.push_back(c);
    }
    storage->region_count = storage->c_results.size();
    storage->regions = storage->c_results.data();
    storage->reader = storage->reader_name.c_str();
    storage->method = storage->method_name.c_str();
    *report = storage.release();
  });
}

void td_region_report_free(td_region_report* report) { delete static_cast<ReportStorage*>(report); }

const char* td_region_last_error(void) { return last_error.c_str(); }

}  // extern "C"
