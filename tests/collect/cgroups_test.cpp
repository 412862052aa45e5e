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

TEST(CgroupsIn, FindsTheTopAndTheCgroupsBelowItToItsDepth) {
  const testing::TempTree mount;
  for (const char* path : {"kubepods/burstable/pod1/c1", "kubepods/burstable/pod2", "kubepods/besteffort", "other"}) {
    std::filesystem::create_directories(mount.root() / path);
  }
  std::ofstream(mount.root() / "kubepods" / "cgroup.procs") << "";  // a file is no cgroup
  const Cgroup top = find_cgroup("/kubepods", mount.root());
  const auto names = [](const std::vector<Cgroup>& cgroups) {
    std::vector<std::string> out;
    for (const Cgroup& cgroup : cgroups) out.push_back(cgroup.name);
    return out;
  };
  EXPECT_EQ(names(cgroups_in({top, 1})),
            (std::vector<std::string>{"/kubepods", "/kubepods/besteffort", "/kubepods/burstable"}));
  EXPECT_EQ(names(cgroups_in({top, 2})),
            (std::vector<std::string>{"/kubepods", "/kubepods/besteffort", "/kubepods/burstable",
                                      "/kubepods/burstable/pod1", "/kubepods/burstable/pod2"}));
  const std::vector<Cgroup> deepest = cgroups_in({top, 3});
  ASSERT_EQ(deepest.size(), 6u);
  EXPECT_EQ(deepest[4].name, "/kubepods/burstable/pod1/c1");
  EXPECT_EQ(deepest[4].directory, mount.root() / "kubepods" / "burstable" / "pod1" / "c1");
  // Below the root cgroup the names start at "/".
  EXPECT_EQ(names(cgroups_in({find_cgroup("/", mount.root()), 1})),
            (std::vector<std::string>{"/", "/kubepods", "/other"}));
}

TEST(CgroupsIn, NoneWhenTheTopIsGone) {
  const testing::TempTree mount;
  std::filesystem::create_directories(mount.root() / "gone" / "child");
  const Cgroup top = find_cgroup("/gone", mount.root());
  std::filesystem::remove_all(mount.root() / "gone");
  EXPECT_TRUE(cgroups_in({top, 1}).empty());
}

TEST(FindCgroupTree, NamesItsOptionWhenThePathIsNoCgroup) {
  const testing::TempTree root;
  std::filesystem::create_directories(root.root() / "cg");
  std::ofstream(root.root() / "mountinfo")
      << "31 1 0:26 / " << (root.root() / "cg").string() << " rw shared:4 - cgroup2 cgroup2 rw\n";
  try {
    find_cgroup_tree("/kubepods.slice", 1, root.root() / "mountinfo");
    FAIL() << "no such cgroup";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("--cgroups-under '/kubepods.slice': no such cgroup under"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(find_cgroup_tree("/", 3, root.root() / "mountinfo").depth, 3);
}

}  // namespace
}  // namespace topdown::collect
