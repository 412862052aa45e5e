#pragma once
// A cgroup made for a test under the mount perf counts cgroups from, with
// processes moved into it; removed at the end (its processes must have
// ended by then). Needs root and a writable cgroup mount: tests skip with
// the reason otherwise.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>

#include "collect/cgroups.h"

namespace topdown::testing {

class ScratchCgroup {
 public:
  // A cgroup `leaf` (a name, or a path of several levels) under a new
  // "/topdown-test-PID" one; null with `why_not` said when this machine
  // cannot have it.
  static std::unique_ptr<ScratchCgroup> create(const std::string& leaf, std::string& why_not) {
    std::ifstream in("/proc/self/mountinfo");
    std::ostringstream text;
    text << in.rdbuf();
    const auto mount = collect::perf_cgroup_mount(text.str());
    if (!mount) {
      why_not = "no cgroup2 mount and no perf_event cgroup hierarchy";
      return nullptr;
    }
    const std::string name = "/topdown-test-" + std::to_string(::getpid()) + "/" + leaf;
    std::error_code error;
    std::filesystem::create_directories(*mount / name.substr(1), error);
    if (error) {
      why_not = "cannot create a cgroup under " + mount->string() + ": " + error.message() + " (needs root)";
      return nullptr;
    }
    return std::unique_ptr<ScratchCgroup>(new ScratchCgroup(*mount, name));
  }

  ~ScratchCgroup() {
    // The kernel empties a cgroup a moment after its last process was reaped.
    for (int attempt = 0; attempt < 50; ++attempt) {
      std::error_code error;
      std::filesystem::remove(directory(), error);
      if (!error) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // Each level above it up to "/topdown-test-PID", once its last leaf is gone.
    for (auto level = directory().parent_path(); level != mount_; level = level.parent_path()) {
      std::error_code ignored;
      std::filesystem::remove(level, ignored);
    }
  }

  // Moves process `pid` (all its threads) into the cgroup; false if refused.
  bool add(pid_t pid) const {
    std::ofstream procs(directory() / "cgroup.procs");
    procs << pid << std::flush;
    return static_cast<bool>(procs);
  }

  const std::string& name() const { return name_; }  // "/topdown-test-PID/LEAF"
  std::filesystem::path directory() const { return mount_ / name_.substr(1); }

 private:
  ScratchCgroup(std::filesystem::path mount, std::string name) : mount_(std::move(mount)), name_(std::move(name)) {}

  std::filesystem::path mount_;
  std::string name_;
};

}  // namespace topdown::testing
