// The C API over the C++ one: no exception crosses it, every failure is a
// code plus a thread-local message.
#include <string>

#include "region/c_report.h"
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

}  // namespace

extern "C" {

void td_region_options_init(td_region_options* options) {
  if (options == nullptr) return;
  *options = td_region_options{};
  options->struct_size = sizeof(td_region_options);
  options->level = 1;
  options->reader = TD_REGION_READER_AUTO;
}

int td_region_open(const td_region_options* options, td_region_session** session) {
  if (options == nullptr) return null_argument("options");
  if (session == nullptr) return null_argument("session");
  *session = nullptr;
  return guarded([&] {
    // Only one version of the struct exists so far; later versions will
    // accept the sizes of the earlier ones too.
    if (options->struct_size != sizeof(td_region_options)) {
      throw Error(ErrorCode::InvalidArgument,
                  "td_region_options.struct_size is " + std::to_string(options->struct_size) +
                      ", not the size this library knows (" + std::to_string(sizeof(td_region_options)) +
                      "); fill the options with td_region_options_init() before changing them");
    }
    topdown::region::Options cpp;
    cpp.level = options->level;
    cpp.reader = reader_choice(options->reader);
    cpp.include_kernel = options->include_kernel != 0;
    if (options->models_dir) cpp.models_dir = options->models_dir;
    if (options->model_file) cpp.model_file = options->model_file;
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
  return guarded([&] { *report = topdown::region::make_report(session->session).release(); });
}

void td_region_report_free(td_region_report* report) { delete static_cast<topdown::region::ReportStorage*>(report); }

const char* td_region_last_error(void) { return last_error.c_str(); }

}  // extern "C"
