#include <gtest/gtest.h>

#include "compare/json_scan.h"

namespace topdown::compare {
namespace {

TEST(JsonScan, ReadsWhatIsAskedAndSkipsTheRest) {
  JsonScanner json(R"( {"skip": {"a": [1, "]}", {"b": null}], "c": "\"{"}, "name": "A\"\\\u00e9\n", "n": -1.5e2,
                      "list": [true, false, null], "none": null} )");
  std::string key;
  std::string name;
  double number = 0;
  int items = 0;
  bool none = false;
  json.begin_object();
  while (json.next_key(key)) {
    if (key == "name") {
      json.string(name);
    } else if (key == "n") {
      number = json.number();
    } else if (key == "list") {
      json.begin_array();
      while (json.next_item()) {
        json.skip_value();
        ++items;
      }
    } else if (key == "none") {
      none = json.null();
    } else {
      json.skip_value();
    }
  }
  json.end();
  EXPECT_EQ(name, "A\"\\\xc3\xa9\n");
  EXPECT_EQ(number, -150);
  EXPECT_EQ(items, 3);
  EXPECT_TRUE(none);
}

TEST(JsonScan, CutOffOrMalformedTextThrows) {
  for (const char* bad : {R"({"a": [1, 2)", R"({"a": "open)", R"({"a" 1})", R"({"a": 1,})", R"({"a": nan})",
                          R"({"a": tru})", R"({"a": 1} x)", ""}) {
    SCOPED_TRACE(bad);
    JsonScanner json(bad);
    std::string key;
    EXPECT_THROW(
        {
          json.begin_object();
          while (json.next_key(key)) json.skip_value();
          json.end();
        },
        ScanError);
  }
}

}  // namespace
}  // namespace topdown::compare
