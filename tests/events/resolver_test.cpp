#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "common/error.h"
#include "events/pfm_events.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

using testing::offline_config;
using topdown::testing::TempTree;

TEST(Resolver, UnknownEventSaysWhereItLooked) {
  TempTree tree;
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.tables = {testing::models_dir() / "amd_zen5.events"};
  const Resolver resolver(config);
  EXPECT_FALSE(resolver.knows("ex_ret_opz"));
  try {
    resolver.resolve("ex_ret_opz:c1");
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "unknown event 'ex_ret_opz:c1' for AMD family 0x1a model 0x11: not in table "
                 "amd_zen5, libpfm4 (not used) or sysfs; check the spelling or give it as "
                 "cpu/event=...,umask=.../");
  }
}

TEST(Resolver, UnknownEventNamesTheLibpfmPmu) {
  // libpfm4 holds its own architecture's PMUs only: arm64's knows no Intel PMU.
  if (!pfm_knows_pmu("hsw")) GTEST_SKIP() << "this libpfm4 does not know hsw";
  TempTree tree;
  ResolverConfig config = offline_config(testing::haswell(), tree);
  config.pfm_pmu = "hsw";
  const Resolver resolver(config);
  try {
    resolver.resolve("NO_SUCH_EVENT.ANY");
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "unknown event 'NO_SUCH_EVENT.ANY' for Intel family 0x6 model 0x3c: not in any "
                 "table, libpfm4 (hsw) or sysfs; check the spelling or give it as "
                 "cpu/event=...,umask=.../");
  }
}

TEST(Resolver, PfmPmuUnknownToLibpfmStillResolvesTableEvents) {
  TempTree tree;
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.tables = {testing::models_dir() / "amd_zen5.events"};
  config.pfm_pmu = "amd64_fam99h_future";
  const Resolver resolver(config);
  EXPECT_EQ(resolver.resolve("ex_ret_ops").config, 0xC1u);
  try {
    resolver.resolve("RETIRED_OPS");
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("libpfm4 (amd64_fam99h_future unknown to this libpfm4) or sysfs"),
              std::string::npos)
        << error.what();
  }
}

TEST(Resolver, ModifiersOnTableEvents) {
  TempTree tree;
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.tables = {testing::models_dir() / "amd_zen5.events"};
  const Resolver resolver(config);
  const uint64_t base = 0xD6 | 0x0200;  // ex_no_retire.not_complete
  EXPECT_EQ(resolver.resolve("ex_no_retire.not_complete:c1").config, base | (1ull << 24));
  EXPECT_EQ(resolver.resolve("ex_no_retire.not_complete:i1:c1").config, base | (1ull << 23) | (1ull << 24));
  EXPECT_EQ(resolver.resolve("ex_no_retire.not_complete:e1:c1").config, base | (1ull << 18) | (1ull << 24));
  EXPECT_EQ(resolver.resolve("ex_no_retire.not_complete:uA2").config, 0xA2D6u);
  EXPECT_EQ(resolver.resolve("ex_no_retire.not_complete:u0xa2").config, 0xA2D6u);
  EXPECT_EQ(resolver.resolve("ex_no_retire.not_complete:c2:c1").config, base | (1ull << 24));
  const Encoding sup = resolver.resolve("ex_ret_ops:SUP");
  EXPECT_TRUE(sup.exclude_user);
  EXPECT_FALSE(sup.exclude_kernel);
  const Encoding user = resolver.resolve("ex_ret_ops:USER:pp");
  EXPECT_TRUE(user.exclude_kernel);
  EXPECT_FALSE(user.exclude_user);
  EXPECT_EQ(user.precise, 2);
  EXPECT_EQ(user.config, 0xC1u);
  EXPECT_EQ(user.name, "ex_ret_ops:USER:pp");
  EXPECT_THROW(resolver.resolve("ex_ret_ops:SUP:USER"), Error);
  // toplev's and perf's spellings of the same privilege levels.
  EXPECT_TRUE(resolver.resolve("ex_ret_ops:sup").exclude_user);
  EXPECT_FALSE(resolver.resolve("ex_ret_ops:sup").exclude_kernel);
  EXPECT_TRUE(resolver.resolve("ex_ret_ops:user").exclude_kernel);
  EXPECT_FALSE(resolver.resolve("ex_ret_ops:user").exclude_user);
  EXPECT_TRUE(resolver.resolve("ex_ret_ops:k").exclude_user);
  EXPECT_TRUE(resolver.resolve("r0c1:u").exclude_kernel);
  EXPECT_THROW(resolver.resolve("ex_ret_ops:c256"), Error);  // cmask is 8 bits
  EXPECT_FALSE(resolver.knows("ex_ret_ops:x1"));
  // Ice Lake's TOPDOWN.SLOTS:percore: the same counter, marked for adding up
  // the core's threads.
  const Encoding core = resolver.resolve("ex_ret_ops:percore");
  EXPECT_TRUE(core.percore);
  EXPECT_EQ(core.config, 0xC1u);
  EXPECT_FALSE(resolver.resolve("ex_ret_ops").percore);
  // perfmon's OFFCORE_RESPONSE with another MSR value, '=' escaped or not.
  EXPECT_EQ(resolver.resolve("ex_ret_ops:ocr_msr_val=0x103b800002").config1, 0x103b800002u);
  EXPECT_EQ(resolver.resolve("ex_ret_ops:ocr_msr_val\\=0x10").config1, 0x10u);
  EXPECT_FALSE(resolver.knows("ex_ret_ops:ocr_msr_val=12"));
}

TEST(PfmSpellings, TranslatesTmaNames) {
  EXPECT_EQ(pfm_spellings("UOPS_EXECUTED.CORE"),
            (std::vector<std::string>{"UOPS_EXECUTED.CORE", "UOPS_EXECUTED:CORE"}));
  EXPECT_EQ(pfm_spellings("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE").back(),
            "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE");
  EXPECT_EQ(pfm_spellings("OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.HITM_OTHER_CORE").back(),
            "OFFCORE_RESPONSE_0:DMND_RFO:L3_HIT:SNP_HITM");
  EXPECT_EQ(pfm_spellings("RETIRED_OPS"), (std::vector<std::string>{"RETIRED_OPS"}));
}

TEST(Resolver, ConcurrentResolutionThroughLibpfm) {
  // libpfm4 holds its own architecture's PMUs only: arm64's knows no Intel PMU.
  if (!pfm_knows_pmu("hsw")) GTEST_SKIP() << "this libpfm4 does not know hsw";
  TempTree tree;
  ResolverConfig config = offline_config(testing::haswell(), tree);
  config.pfm_pmu = "hsw";
  const Resolver resolver(config);
  std::vector<std::thread> threads;
  std::vector<uint64_t> configs(4);
  for (size_t i = 0; i < configs.size(); ++i) {
    threads.emplace_back([&, i] { configs[i] = resolver.resolve("UOPS_EXECUTED.CORE:c1").config; });
  }
  for (auto& thread : threads) thread.join();
  for (uint64_t value : configs) EXPECT_EQ(value, 0x10002B1u);
}

TEST(Resolver, EmptyPfmPmuUsesTheHostsLibpfmPmu) {
  const std::string host_pmu = pfm_host_core_pmu();
  if (host_pmu.rfind("amd64_fam19h", 0) != 0) {
    GTEST_SKIP() << "the check needs an AMD family 19h host; libpfm4 says '" << host_pmu << "'";
  }
  TempTree tree;
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.pfm_pmu = "";
  const Encoding encoding = Resolver(config).resolve("RETIRED_OPS:c1");
  EXPECT_EQ(encoding.source, "libpfm4");
  EXPECT_EQ(encoding.config, 0x10000C1u);
}

}  // namespace
}  // namespace topdown::events
