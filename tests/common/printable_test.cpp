#include <gtest/gtest.h>

#include "common/printable.h"

namespace topdown {
namespace {

TEST(Printable, AsciiAndUtf8StayAsTheyAre) {
  EXPECT_EQ(printable("CPU_CLK_UNHALTED.THREAD:sup,1000 ~!@#$%^&*()_+{}|\\"),
            "CPU_CLK_UNHALTED.THREAD:sup,1000 ~!@#$%^&*()_+{}|\\");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(printable(""), "");
}

TEST(Printable, ControlBytesAreEscaped) {
  EXPECT_EQ(printable("a\x1b[2Jb"), "a\\x1b[2Jb");
  EXPECT_EQ(printable(std::string_view("\x7f"
                                       "ELF\x02\x01\x01\0\0",
                                       9)),
            "\\x7fELF\\x02\\x01\\x01\\x00\\x00");
  EXPECT_EQ(printable("tab\there\r\n"), "tab\\x09here\\x0d\\x0a");
}

TEST(Printable, InvalidUtf8AndC1ControlsAreEscapedByteByByte) {
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable("\xc3"), "\\xc3");  // cut after its first byte
  EXPECT_EQ(printable("\xe2\x82"
                      "x"),
            "\\xe2\\x82x");                                          // cut before its last byte
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\xc2\\x9b31m");             // U+009B, a terminal's CSI
  EXPECT_EQ(printable("\x80"), "\\x80");  // a continuation byte alone
}

}  // namespace
}  // namespace topdown
