// --cgroup names: which mount they are under, and how a path given the way
// perf -G takes it becomes a cgroup's directory and label.
#include "collect/cgroups.h"

#include <gtest/gtest.h>

#include <fstream>

#include "../support/temp_tree.h"
#include "common/error.h"

namespace topdown::collect {
namespace {

// A hybrid machine: cgroup v1 controllers, and v2 beside them.
const std::string kHybrid =
    "25 30 0:22 / /sys/fs/cgroup rw,nosuid shared:9 - tmpfs tmpfs ro,mode=755\n"
    "26 25 0:23 / /sys/fs/cgroup/unified rw,nosuid shared:10 - cgroup2 cgroup2 rw,nsdelegate\n"
    "27 25 0:24 / /sys/fs/cgroup/cpu rw,nosuid shared:11 - cgroup cgroup rw,cpu\n"
    "28 25 0:25 / /sys/fs/cgroup/perf\\040event rw,nosuid shared:12 - cgroup cgroup rw,perf_event\n";

TEST(CgroupMount, AV1PerfEventHierarchyComesBeforeTheUnifiedOne) {
  EXPECT_EQ(perf_cgroup_mount(kHybrid), std::filesystem::path("/sys/fs/cgroup/perf event"));
}

TEST(CgroupMount, ElseTheCgroup2Mount) {
  const std::string v2_only =
      "31 1 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw\n";
  EXPECT_EQ(perf_cgroup_mount(v2_only), std::filesystem::path("/sys/fs/cgroup"));
  // The v1 cpu controller alone cannot count.
  EXPECT_EQ(perf_cgroup_mount(kHybrid.substr(0, kHybrid.find("27 25"))),
            std::filesystem::path("/sys/fs/cgroup/unified"));
}

TEST(CgroupMount, NoneWithoutACgroupFileSystem) {
  EXPECT_FALSE(perf_cgroup_mount("22 1 8:1 / / rw - ext4 /dev/sda1 rw\nshort line\n\n").has_value());
  EXPECT_FALSE(perf_cgroup_mount("27 25 0:24 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n").has_value());
}

TEST(FindCgroup, TakesPathsUnderTheMountOrWholeDirectories) {
  const testing::TempTree mount;
  std::filesystem::create_directories(mount.root() / "system.slice" / "web.service");
  const std::string web = (mount.root() / "system.slice" / "web.service").string();
  for (const std::string& given : {std::string("/system.slice/web.service"), std::string("system.slice/web.service/"),
                                   web, std::string("/system.slice/./x/../web.service")}) {
    const Cgroup cgroup = find_cgroup(given, mount.root());
    EXPECT_EQ(cgroup.name, "/system.slice/web.service") << given;
    EXPECT_TRUE(std::filesystem::equivalent(cgroup.directory, web)) << given;
  }
  EXPECT_EQ(find_cgroup("/", mount.root()).name, "/");
  EXPECT_EQ(find_cgroup(mount.root().string(), mount.root()).name, "/");
}

TEST(FindCgroup, AMissingCgroupOrOneOutsideTheMountIsOneLine) {
  const testing::TempTree mount;
  std::filesystem::create_directories(mount.root() / "a");
  for (const std::string given : {"/nope", "", "a/../../etc", "../a"}) {
    try {
      find_cgroup(given, mount.root());
      ADD_FAILURE() << "accepted '" << given << "'";
    } catch (const Error& error) {
      const std::string what = error.what();
      EXPECT_NE(what.find("--cgroup '" + given + "': no such cgroup under " + mount.root().string()), std::string::npos)
          << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

TEST(FindCgroup, AMachineWithoutACgroupMountSaysSo) {
  const testing::TempTree dir;
  const std::filesystem::path mountinfo = dir.root() / "mountinfo";
  std::ofstream(mountinfo) << "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n";
  try {
    find_cgroups({"/a"}, mountinfo);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("no cgroup2 mount"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace topdown::collect
