#pragma once
// Helpers shared by the collect tests.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "collect/collect.h"

namespace topdown::collect::testing {

// A fresh directory under /tmp named after the running test, removed at the end.
class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() /
              ("topdown-collect-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { std::filesystem::remove_all(path_); }

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline events::Encoding software_event(const std::string& name, uint64_t config) {
  events::Encoding encoding;
  encoding.name = name;
  encoding.pmu = "software";
  encoding.type = PERF_TYPE_SOFTWARE;
  encoding.config = config;
  return encoding;
}

// Whether this user may count its own processes at all: software events need
// no PMU, only a low enough kernel.perf_event_paranoid.
inline bool perf_events_permitted() {
  perf_event_attr attr = make_attr(software_event("task-clock", PERF_COUNT_SW_TASK_CLOCK), Options{}, false);
  const long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return false;
  ::close(static_cast<int>(fd));
  return true;
}

constexpr const char* kNotPermitted =
    "perf_event_open is not permitted for this user (kernel.perf_event_paranoid too high)";

}  // namespace topdown::collect::testing

// Skips a test that counts perf's software events where perf_event_open is
// not permitted at all.
#define SKIP_WITHOUT_PERF_EVENTS() \
  if (!::topdown::collect::testing::perf_events_permitted()) GTEST_SKIP() << ::topdown::collect::testing::kNotPermitted
