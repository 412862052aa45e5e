#include <gtest/gtest.h>

#include "../support/temp_tree.h"
#include "common/error.h"
#include "events/pmu_format.h"

namespace topdown::events {
namespace {

using topdown::testing::TempTree;

TEST(PmuFormat, AmdEventBitsSplitAcrossConfig) {
  const PmuFormat format = PmuFormat::builtin_x86_core(cpu::Vendor::Amd);
  Encoding encoding;
  format.set(encoding, "event", 0x1C2);
  EXPECT_EQ(encoding.config, 0x1000000C2ull);
  EXPECT_EQ(format.get(encoding, "event"), 0x1C2u);
  format.set(encoding, "umask", 0xA2);
  format.set(encoding, "cmask", 8);
  format.set(encoding, "inv", 1);
  format.set(encoding, "edge", 1);
  EXPECT_EQ(encoding.config, 0x10884A2C2ull);
}

TEST(PmuFormat, SetReplacesEarlierBits) {
  const PmuFormat format = PmuFormat::builtin_x86_core(cpu::Vendor::Amd);
  Encoding encoding;
  format.set(encoding, "event", 0x1A0);
  format.set(encoding, "umask", 0xFF);
  format.set(encoding, "umask", 0x01);
  EXPECT_EQ(encoding.config, 0x1000000A0ull | 0x100);
}

TEST(PmuFormat, IntelLayoutHasConfig1Terms) {
  const PmuFormat format = PmuFormat::builtin_x86_core(cpu::Vendor::Intel);
  Encoding encoding;
  format.set(encoding, "event", 0xB7);
  format.set(encoding, "umask", 0x01);
  format.set(encoding, "any", 1);
  format.set(encoding, "in_tx", 1);
  format.set(encoding, "offcore_rsp", 0x10003C0002);
  EXPECT_EQ(encoding.config, 0x1002001B7ull);
  EXPECT_EQ(encoding.config1, 0x10003C0002ull);
  format.set(encoding, "ldlat", 3);
  EXPECT_EQ(encoding.config1, 0x10003C0003ull);
  EXPECT_THROW(format.set(encoding, "event", 0x1C2), Error);  // Intel events are 8 bits
}

TEST(PmuFormat, WholeWordTermsAlwaysExist) {
  const PmuFormat format = PmuFormat::builtin_x86_core(cpu::Vendor::Amd);
  Encoding encoding;
  format.set(encoding, "config", 0x1234);
  format.set(encoding, "config1", 5);
  format.set(encoding, "config2", ~0ull);
  EXPECT_EQ(encoding.config, 0x1234u);
  EXPECT_EQ(encoding.config1, 5u);
  EXPECT_EQ(encoding.config2, ~0ull);
}

TEST(PmuFormat, UnknownTermNamesTermAndPmu) {
  const PmuFormat format = PmuFormat::builtin_x86_core(cpu::Vendor::Amd);
  Encoding encoding;
  try {
    format.set(encoding, "thresh", 1);
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "unknown term 'thresh' for PMU 'cpu'; see the PMU's format directory for the "
                 "terms it accepts");
  }
}

TEST(PmuFormat, ValueTooWideForTerm) {
  const PmuFormat format = PmuFormat::builtin_x86_core(cpu::Vendor::Amd);
  Encoding encoding;
  try {
    format.set(encoding, "cmask", 0x100);
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "value 0x100 does not fit term 'cmask' of PMU 'cpu' (8 bits)");
  }
  EXPECT_THROW(format.set(encoding, "edge", 2), Error);
}

TEST(PmuFormat, ReadsSysfsFormatDirectory) {
  TempTree tree;
  tree.write("uncore_x/format/event", "config:0-7,32-35\n");
  tree.write("uncore_x/format/thresh", "config1:4-9\n");
  tree.write("uncore_x/format/flag", "config:63\n");
  tree.write("uncore_x/format/filter", "config2:0-63\n");
  const PmuFormat format = PmuFormat::from_directory(tree.root() / "uncore_x" / "format");
  Encoding encoding;
  format.set(encoding, "event", 0xF12);
  format.set(encoding, "thresh", 0x3F);
  format.set(encoding, "flag", 1);
  format.set(encoding, "filter", 0xABC);
  EXPECT_EQ(encoding.config, 0x8000000F00000012ull);
  EXPECT_EQ(encoding.config1, 0x3F0ull);
  EXPECT_EQ(encoding.config2, 0xABCull);
  EXPECT_EQ(format.get(encoding, "thresh"), 0x3Fu);
  EXPECT_FALSE(format.knows("umask"));
  try {
    format.set(encoding, "umask", 1);
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("'uncore_x'"), std::string::npos) << error.what();
  }
}

TEST(PmuFormat, RejectsMalformedFormatFiles) {
  for (const char* bad : {"config:7-0", "config3:0-7", "config:0-64", "config", "config:a"}) {
    TempTree tree;
    tree.write("p/format/event", bad);
    EXPECT_THROW(PmuFormat::from_directory(tree.root() / "p" / "format"), Error) << bad;
  }
}

}  // namespace
}  // namespace topdown::events
