#include <gtest/gtest.h>

#include "html/escape.h"

namespace topdown::html {
namespace {

TEST(Escape, MarkupCharactersBecomeReferences) {
  EXPECT_EQ(escape(R"t(<img src=x onerror="a('&')">)t"), "&lt;img src=x onerror=&quot;a(&#39;&amp;&#39;)&quot;&gt;");
}

TEST(Escape, InvalidUtf8AndControlBytesBecomeReplacementCharacters) {
  EXPECT_EQ(valid_utf8("a\xff"
                       "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(valid_utf8("\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9");                // été stays
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // an overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(valid_utf8("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // cut off
  EXPECT_EQ(valid_utf8("a\x1b[2Jb\tc\n"), "a\xEF\xBF\xBD[2Jb\tc\n");
  EXPECT_EQ(valid_utf8("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");
}

TEST(Escape, ScriptJsonCannotEndItsElement) {
  const std::string text = script_json({{"name", "</script><script>alert(1)</script>&\xff"}});
  EXPECT_EQ(text.find('<'), std::string::npos);
  EXPECT_EQ(text.find('>'), std::string::npos);
  EXPECT_EQ(text.find('&'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(text)["name"], "</script><script>alert(1)</script>&\xEF\xBF\xBD");
}

}  // namespace
}  // namespace topdown::html
