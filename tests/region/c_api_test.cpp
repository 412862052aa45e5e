#include "topdown/region.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(RegionCApi, OptionsStartAtLevelOneWithTheAutomaticReader) {
  td_region_options options;
  options.level = 7;
  options.include_kernel = 1;
  options.models_dir = "x";
  options.reset_slots = 5;
  td_region_options_init(&options);
  EXPECT_EQ(options.level, 1);
  EXPECT_EQ(options.reader, TD_REGION_READER_AUTO);
  EXPECT_EQ(options.include_kernel, 0);
  EXPECT_EQ(options.models_dir, nullptr);
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

}  // namespace
