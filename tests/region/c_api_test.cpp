#include "topdown/region.h"

#include <gtest/gtest.h>

#include <string>

#include "fake_reader.h"
#include "region/c_report.h"

namespace {

TEST(RegionCApi, OptionsStartAtLevelOneWithTheAutomaticReader) {
  td_region_options options;
  options.level = 7;
  options.include_kernel = 1;
  options.models_dir = "x";
  options.reset_slots = 5;
  options.model_file = "y";
  td_region_options_init(&options);
  EXPECT_EQ(options.struct_size, sizeof(td_region_options));
  EXPECT_EQ(options.level, 1);
  EXPECT_EQ(options.reader, TD_REGION_READER_AUTO);
  EXPECT_EQ(options.include_kernel, 0);
  EXPECT_EQ(options.models_dir, nullptr);
  EXPECT_EQ(options.model_file, nullptr);
  EXPECT_EQ(options.reset_slots, 0u);
  td_region_options_init(nullptr);  // harmless
}

TEST(RegionCApi, NullArgumentsAreErrorsWithMessages) {
  td_region_options options;
  td_region_options_init(&options);
  td_region_session* session = nullptr;
  td_region_id id = 0;
  td_region_report* report = nullptr;
  EXPECT_EQ(td_region_open(&options, nullptr), TD_REGION_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(td_region_last_error(), "session is NULL");
  EXPECT_EQ(td_region_open(nullptr, &session), TD_REGION_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(td_region_last_error(), "options is NULL");
  EXPECT_EQ(td_region_register(nullptr, "a", &id), TD_REGION_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(td_region_begin(nullptr, 0), TD_REGION_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(td_region_end(nullptr), TD_REGION_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(td_region_get_report(nullptr, &report), TD_REGION_ERR_INVALID_ARGUMENT);
  td_region_close(nullptr);
  td_region_report_free(nullptr);
}

TEST(RegionCApi, ALevelOutsideOneToTwoIsRefusedBeforeAnythingIsOpened) {
  td_region_options options;
  td_region_options_init(&options);
  options.level = 3;
  td_region_session* session = nullptr;
  EXPECT_EQ(td_region_open(&options, &session), TD_REGION_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(session, nullptr);
  EXPECT_STREQ(td_region_last_error(), "level 3 is not offered for regions; use level 1 or 2");
}

TEST(RegionCApi, OptionsNotFilledByInitAreRefused) {
  td_region_options options;
  td_region_options_init(&options);
  td_region_session* session = nullptr;
  for (const size_t size : {size_t{0}, sizeof(td_region_options) - 8, sizeof(td_region_options) + 8}) {
    options.struct_size = size;
    EXPECT_EQ(td_region_open(&options, &session), TD_REGION_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(session, nullptr);
    EXPECT_EQ(std::string(td_region_last_error()),
              "td_region_options.struct_size is " + std::to_string(size) + ", not the size this library knows (" +
                  std::to_string(sizeof(td_region_options)) +
                  "); fill the options with td_region_options_init() before changing them");
  }
}

TEST(RegionCApi, TheReportCarriesEachRegionsWarnings) {
  using topdown::region::ReportStorage;
  topdown::region::testing::FakeSession fake = topdown::region::testing::zen5_level1_session();
  fake.session.begin("clean");
  fake.session.end();
  fake.reader->fail = true;  // two calls whose counters cannot be read
  for (int call = 0; call < 2; ++call) {
    fake.session.begin("dropped");
    fake.session.end();
  }
  const std::unique_ptr<ReportStorage> report = topdown::region::make_report(fake.session);
  ASSERT_EQ(report->region_count, 2u);
  const td_region_result& clean = report->regions[0];
  EXPECT_STREQ(clean.name, "clean");
  EXPECT_EQ(clean.warning_count, 0u);
  const td_region_result& dropped = report->regions[1];
  EXPECT_EQ(dropped.dropped_calls, 2u);
  ASSERT_EQ(dropped.warning_count, 1u);
  EXPECT_STREQ(dropped.warnings[0],
               "2 calls were left out: their counters could not be read consistently (see docs/region-library.md, "
               "'Dropped calls')");
  EXPECT_EQ(clean.node_count, 5u);
  EXPECT_STREQ(clean.nodes[0].name, "Frontend_Bound");
}

}  // namespace
