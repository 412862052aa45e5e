#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "sampling/running_processes.h"

namespace topdown::sampling {
namespace {

TEST(RunningProcesses, OnlyFileBackedCodeMappings) {
  const auto mappings =
      executable_mappings(42,
                          "55d0c0000000-55d0c0002000 r--p 00000000 08:01 123 /usr/bin/app\n"
                          "55d0c0002000-55d0c0009000 r-xp 00002000 08:01 123 /usr/bin/app\n"
                          "7f0000000000-7f0000001000 rwxp 00000000 00:00 0 \n"
                          "7f1000000000-7f1000200000 r-xp 00028000 08:01 456 /lib/x86_64-linux-gnu/my lib.so\n"
                          "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]\n");
  ASSERT_EQ(mappings.size(), 3u);
  EXPECT_EQ(mappings[0].pid, 42u);
  EXPECT_EQ(mappings[0].start, 0x55d0c0002000u);
  EXPECT_EQ(mappings[0].length, 0x7000u);
  EXPECT_EQ(mappings[0].file_offset, 0x2000u);
  EXPECT_EQ(mappings[0].path, "/usr/bin/app");
  EXPECT_EQ(mappings[1].path, "/lib/x86_64-linux-gnu/my lib.so");  // spaces in names survive
  EXPECT_EQ(mappings[2].path, "[vdso]");
}

TEST(RunningProcesses, ThisProcessIsRunningAndHasRecords) {
  const auto pids = running_processes();
  EXPECT_NE(std::find(pids.begin(), pids.end(), ::getpid()), pids.end());
  EXPECT_GT(process_records(::getpid(), 0).size(), 100u);
  EXPECT_TRUE(process_records(0x7ffffff0, 0).empty());  // no such process
}

}  // namespace
}  // namespace topdown::sampling
