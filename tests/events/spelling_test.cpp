// The perf spellings: rNNN, pmu/term=.../ with modifiers, pmu/name/ and
// perf_spelling() back again.
#include <gtest/gtest.h>

#include "common/error.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

using testing::offline_config;
using topdown::testing::TempTree;

class Spelling : public ::testing::Test {
 protected:
  TempTree tree;
  Resolver amd{offline_config(testing::zen5(), tree)};
  Resolver intel{offline_config(testing::haswell(), tree)};
};

TEST_F(Spelling, RawHexConfigOnTheCorePmu) {
  const Encoding encoding = amd.resolve("r1000000c2");
  EXPECT_EQ(encoding.config, 0x1000000C2ull);
  EXPECT_EQ(encoding.pmu, "cpu");
  EXPECT_EQ(encoding.type, 4u);
  EXPECT_EQ(encoding.source, "raw");
  EXPECT_EQ(encoding.name, "r1000000c2");
  const Encoding user_only = amd.resolve("r76:u");
  EXPECT_EQ(user_only.config, 0x76u);
  EXPECT_TRUE(user_only.exclude_kernel);
}

TEST_F(Spelling, PmuTermsPackSplitEventBits) {
  const Encoding encoding = amd.resolve("cpu/event=0x1C2/");
  EXPECT_EQ(encoding.config, 0x1000000C2ull);
  EXPECT_EQ(amd.resolve("cpu/event=0x1a0,umask=0x1,cmask=8/").config, 0xA0ull | 0x100 | (8ull << 24) | (1ull << 32));
  EXPECT_EQ(amd.resolve("cpu/event=416,umask=1,edge,inv/").config,
            0xA0ull | 0x100 | (1ull << 18) | (1ull << 23) | (1ull << 32));
}

TEST_F(Spelling, NameTermSetsTheName) {
  const Encoding encoding = amd.resolve("cpu/event=0x76,name=my_cycles/");
  EXPECT_EQ(encoding.name, "my_cycles");
  EXPECT_EQ(encoding.config, 0x76u);
}

TEST_F(Spelling, PerfLettersAfterTheTermList) {
  const Encoding user = amd.resolve("cpu/event=0xc0/u");
  EXPECT_TRUE(user.exclude_kernel);
  EXPECT_FALSE(user.exclude_user);
  const Encoding kernel = amd.resolve("cpu/event=0xc0/k");
  EXPECT_TRUE(kernel.exclude_user);
  const Encoding precise = amd.resolve("cpu/event=0xc0/upp");
  EXPECT_TRUE(precise.exclude_kernel);
  EXPECT_EQ(precise.precise, 2);
  const Encoding tma_style = amd.resolve("cpu/event=0x1a0,umask=1/:c8:i1");
  EXPECT_EQ(tma_style.config, 0xA0ull | 0x100 | (8ull << 24) | (1ull << 23) | (1ull << 32));
}

TEST_F(Spelling, BadSpellingsThrowNamingTheProblem) {
  try {
    amd.resolve("cpu/event=0x76,foo=1/");
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown term 'foo' for PMU 'cpu'"), std::string::npos) << error.what();
  }
  EXPECT_THROW(amd.resolve("cpu/event=0x76/x"), Error);
  EXPECT_THROW(amd.resolve("cpu/event=zz/"), Error);
  EXPECT_THROW(amd.resolve("cpu/event=0x76/uk"), Error);  // would count nothing
  try {
    amd.resolve("nosuchpmu/event=1/");
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown PMU 'nosuchpmu'"), std::string::npos) << error.what();
  }
}

TEST_F(Spelling, SysfsPmusTypesFormatsAndNamedEvents) {
  TempTree sysfs;
  sysfs.write("cpu/type", "4\n");
  sysfs.write("cpu/format/event", "config:0-7\n");
  sysfs.write("cpu/format/umask", "config:8-15\n");
  sysfs.write("cpu/format/cmask", "config:24-31\n");
  sysfs.write("cpu/events/cpu-cycles", "event=0x3c\n");
  sysfs.write("cpu/events/ref-cycles", "event=0x00,umask=0x03\n");
  sysfs.write("uncore_imc/type", "17\n");
  sysfs.write("uncore_imc/cpumask", "0\n");
  sysfs.write("uncore_imc/format/event", "config:0-7\n");
  sysfs.write("uncore_imc/format/umask", "config:8-15\n");
  sysfs.write("uncore_imc/events/cas_count_read", "event=0x04,umask=0x03\n");
  ResolverConfig config = offline_config(testing::haswell(), tree);
  config.sysfs_devices = sysfs.root();
  const Resolver resolver(config);

  const Encoding imc = resolver.resolve("uncore_imc/cas_count_read/");
  EXPECT_EQ(imc.type, 17u);
  EXPECT_EQ(imc.config, 0x304u);
  EXPECT_EQ(imc.pmu, "uncore_imc");
  EXPECT_TRUE(imc.uncore);
  EXPECT_EQ(imc.source, "sysfs");

  const Encoding ref = resolver.resolve("cpu/ref-cycles,cmask=2/");
  EXPECT_EQ(ref.config, 0x2000300u);
  EXPECT_FALSE(ref.uncore);
  EXPECT_EQ(ref.source, "raw");

  // A bare name falls back to the core PMU's sysfs events, with modifiers.
  const Encoding cycles = resolver.resolve("cpu-cycles:c1");
  EXPECT_EQ(cycles.config, 0x100003Cu);
  EXPECT_EQ(cycles.source, "sysfs");
  EXPECT_EQ(cycles.name, "cpu-cycles:c1");

  // This sysfs format has no inv term.
  EXPECT_THROW(resolver.resolve("cpu-cycles:i1"), Error);
}

void expect_same_counting(const Encoding& a, const Encoding& b) {
  EXPECT_EQ(a.pmu, b.pmu);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.config1, b.config1);
  EXPECT_EQ(a.config2, b.config2);
  EXPECT_EQ(a.exclude_user, b.exclude_user);
  EXPECT_EQ(a.exclude_kernel, b.exclude_kernel);
  EXPECT_EQ(a.precise, b.precise);
}

TEST_F(Spelling, PerfSpellingFormat) {
  Encoding encoding;
  encoding.name = "UOPS_EXECUTED.CORE:c1";
  encoding.pmu = "cpu";
  encoding.config = 0x10002B1;
  encoding.config1 = 0x10003C0002;
  encoding.exclude_kernel = true;
  encoding.precise = 2;
  EXPECT_EQ(encoding.perf_spelling(), "cpu/config=0x10002b1,config1=0x10003c0002,name=UOPS_EXECUTED.CORE:c1/upp");
  encoding.name = "cpu/event=0x3c/";  // perf would misread this as a name
  encoding.config1 = 0;
  encoding.exclude_kernel = false;
  encoding.exclude_user = true;
  encoding.precise = 0;
  EXPECT_EQ(encoding.perf_spelling(), "cpu/config=0x10002b1/k");
  encoding.name = "msr/tsc/";  // a named event: perf knows it by that name
  encoding.pmu = "msr";
  encoding.exclude_user = false;
  EXPECT_EQ(encoding.perf_spelling(), "msr/tsc/");
}

TEST_F(Spelling, PerfSpellingRoundTrips) {
  const Resolver with_tables([&] {
    ResolverConfig config = offline_config(testing::haswell(), tree);
    config.tables = {testing::models_dir() / "intel_core.events", testing::models_dir() / "intel_haswell.events"};
    return config;
  }());
  for (const char* name :
       {"cpu/event=0xb1,umask=0x2,cmask=1,inv/", "cpu/event=0xc0/upp", "r3c:k", "INST_RETIRED.ANY:USER",
        "OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.HITM_OTHER_CORE:c1", "CPU_CLK_UNHALTED.THREAD_ANY:SUP:e1"}) {
    SCOPED_TRACE(name);
    const Encoding original = with_tables.resolve(name);
    const Encoding again = with_tables.resolve(original.perf_spelling());
    expect_same_counting(original, again);
    if (original.name.find('/') == std::string::npos) {
      EXPECT_EQ(again.name, original.name);
    }
  }
}

}  // namespace
}  // namespace topdown::events
