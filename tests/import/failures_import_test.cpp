// docs/failures.md, "Import files": hostile files fail with one line naming
// the file and line, and whatever is read stays a valid count.
#include <gtest/gtest.h>

#include <string>

#include "import/line_reader.h"
#include "import_fixture.h"

namespace topdown::import::testing {
namespace {

TEST(FailuresImport, BadNumbersInACountsFileAreBadValuesEvenOnLineOne) {
  for (const char* bad : {"-5", "nan", "NaN", "inf", "-inf", "1e400"}) {
    EXPECT_NE(read_error(std::string("cycles ") + bad + "\n")
                  .find(std::string("counts.txt:1: value '") + bad + "' of cycles is not a number >= 0"),
              std::string::npos)
        << bad;
    EXPECT_NE(read_error(std::string("cycles 1\ninstructions ") + bad + "\n")
                  .find(std::string("counts.txt:2: value '") + bad + "' of instructions is not a number >= 0"),
              std::string::npos)
        << bad;
  }
}

TEST(FailuresImport, BadNumbersInAPerfFileAreBadValuesEvenOnLineOne) {
  for (const char* bad : {"-5", "nan", "inf", "1e400"}) {
    const std::string message = std::string("counter value '") + bad + "' of cycles is not a number";
    EXPECT_NE(read_error(std::string(bad) + ",,cycles,10,100.00,,\n").find("counts.txt:1: " + message),
              std::string::npos)
        << bad << ": " << read_error(std::string(bad) + ",,cycles,10,100.00,,\n");
    EXPECT_NE(read_error(std::string("10,,instructions,10,100.00,,\n") + bad + ",,cycles,10,100.00,,\n")
                  .find("counts.txt:2: " + message),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(read_error("10,,cycles,nan,100.00,,\n").find(":1: run time 'nan' of cycles is not a number"),
            std::string::npos);
  EXPECT_NE(read_error("10,,cycles,10,-3,,\n").find(":1: running percentage '-3' of cycles is not a number"),
            std::string::npos);
}

// Rows as `perf stat -x, -a -e task-clock -G /,/web` writes them (recorded on
// this machine with software events).
TEST(FailuresImport, RowsOfCgroupsAreRefusedWithWhatToDoInstead) {
  for (const std::string file : {"203.11,msec,task-clock,/,5016329866,100.00,2.000,CPUs utilized\n",
                                 "CPU0,101.47,msec,task-clock,/web,14159856178,100.00,1.000,CPUs utilized\n",
                                 "<not counted>,,page-faults,/web/db,0,100.00,,\n"}) {
    const std::string error = read_error(file);
    EXPECT_NE(error.find("counts.txt:1: cgroup '/"), std::string::npos) << error;
    EXPECT_NE(error.find("rows of perf stat -G or --for-each-cgroup are not read"), std::string::npos) << error;
    EXPECT_NE(error.find("count the cgroups live with topdown stat -G"), std::string::npos) << error;
  }
  EXPECT_NE(read_error("CPU0,101.47,msec,task-clock,/web,14159856178,100.00,1.000,CPUs utilized\n")
                .find("cgroup '/web' after task-clock:"),
            std::string::npos);
}

TEST(FailuresImport, HugeTimesAreRefusedOrBounded) {
  EXPECT_NE(read_error("10,,cycles,1e300,100.00,,\n")
                .find(":1: run time '1e300' of cycles is more than 3 years in nanoseconds: not a perf run time"),
            std::string::npos);
  EXPECT_NE(read_error("cycles 1\ninterval-s 1e300\n")
                .find(":2: interval-s must be a number of seconds above 0, at "
                      "most 1e9"),
            std::string::npos);
  // A tiny running percentage: the enabled time is bounded, not wrapped.
  const auto file = read_whole("10,,cycles,1000,1e-300,,\n");
  const counts::Count* cycles = file.whole.sample.find("cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->time_running, 1000u);
  EXPECT_EQ(cycles->time_enabled, 100'000'000'000'000'000u);
  ASSERT_TRUE(cycles->scaled().has_value());
  EXPECT_DOUBLE_EQ(*cycles->scaled(), 1e15);
}

TEST(FailuresImport, HugeButFiniteCountsThatOverflowWhenAddedAreInvalidNotInfinite) {
  const auto file = read_whole("cycles 1e308\ncycles 1e308\ninstructions 1e300\n");
  EXPECT_FALSE(file.whole.sample.find("cycles")->valid());
  EXPECT_FALSE(file.whole.sample.find("cycles")->scaled().has_value());
  EXPECT_DOUBLE_EQ(*file.whole.sample.find("instructions")->scaled(), 1e300);
}

TEST(FailuresImport, EmptyHeaderOnlyAndBinaryFiles) {
  EXPECT_NE(read_error("").find("holds no counts (it is empty or all comments)"), std::string::npos);
  // What perf writes before the first count, and nothing after it.
  EXPECT_NE(read_error("# started on Mon Jan  6 10:00:00 2025\n\n\n").find("holds no counts"), std::string::npos);
  EXPECT_NE(read_error("interval-s 2\nsmt_enabled 1\n").find("has run variables but no 'EVENT VALUE' lines"),
            std::string::npos);
  const std::string binary(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\n\xff\xfe",
      24);
  const std::string message = read_error(binary);
  EXPECT_NE(message.find("counts.txt:1: neither perf stat -x output nor an 'EVENT VALUE' line: "
                         "'\\x7fELF\\x02\\x01\\x01\\x00"),
            std::string::npos)
      << message;
  for (char c : message) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "unprintable byte in the message";
}

// A line of terminal escapes in the middle of a file is quoted with its bytes
// escaped, so the error cannot clear the screen or recolour the terminal; the
// file's UTF-8 stays readable.
TEST(FailuresImport, ControlBytesOfABadLineAreEscapedInTheMessage) {
  const std::string message = read_error("10,,cycles,10,100.00,,\n\x1b[2J\x1b[31mcaf\xc3\xa9\x07,\n");
  EXPECT_NE(message.find("counts.txt:2: expected 5 fields separated by ',' like the first row, found 2 in "
                         "'\\x1b[2J\\x1b[31mcaf\xc3\xa9\\x07,'"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
  const std::string counts = read_error(
      "cycles 1\n\x9b"
      "31m\xff 2 3\n");
  EXPECT_NE(counts.find("counts.txt:2: expected 'EVENT VALUE' or a run variable"), std::string::npos) << counts;
  EXPECT_NE(counts.find("found '\\x9b31m\\xff 2 3'"), std::string::npos) << counts;
}

// The message quotes at most 60 bytes of a line, cut between characters.
TEST(FailuresImport, ALongBadLineIsCutBetweenUtf8Characters) {
  const std::string euros = "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac";  // U+20AC three times
  // The first euro sign ends at byte 60 and is quoted whole.
  const std::string whole = read_error("cycles 1\n" + std::string(57, 'x') + euros + " 1 2\n");
  EXPECT_NE(whole.find("found '" + std::string(57, 'x') + "\xe2\x82\xac...'"), std::string::npos) << whole;
  // Here it would end at byte 61: it is left out rather than cut.
  const std::string cut = read_error("cycles 1\n" + std::string(58, 'x') + euros + " 1 2\n");
  EXPECT_NE(cut.find("found '" + std::string(58, 'x') + "...'"), std::string::npos) << cut;
}

TEST(FailuresImport, LinesTooLongAreRefusedWithTheirLineNumber) {
  const std::string line(LineReader::kMaxLine + 10, 'x');
  EXPECT_NE(read_error("cycles 1\n" + line + " 1\n").find("counts.txt:2: line longer than 1048576 bytes"),
            std::string::npos);
  // Long but within the limit: an ordinary bad line, cut short in the message.
  const std::string message = read_error("cycles 1\n" + std::string(5000, 'y') + "\n");
  EXPECT_NE(message.find("counts.txt:2: expected 'EVENT VALUE'"), std::string::npos);
  EXPECT_LT(message.size(), 300u);
}

TEST(FailuresImport, TruncatedAndGarbledPerfFiles) {
  EXPECT_NE(read_error("10,,cycles,10,100.00,,\n10,,instr")
                .find(":2: the last line has no end of line: the file "
                      "is truncated"),
            std::string::npos);
  EXPECT_NE(read_error("10,,cycles,10,100.00,,\n10,,cycles\n").find(":2: expected 5 fields separated by ','"),
            std::string::npos);
  EXPECT_NE(read_error("10,,cycles,10,100.00,,\n\x01\x02\x03,,\n").find(":2: "), std::string::npos);
}

// A unit whose count topdown cannot rebuild is refused, never read as a count.
TEST(FailuresImport, AUnitThatCannotBeTurnedIntoACountIsRefused) {
  const std::string mhz = read_error("10,,cycles,10,100.00,,\n1200.00,MHz,i915/actual-frequency/,10,100.00,,\n");
  EXPECT_NE(mhz.find("counts.txt:2: unit 'MHz' of i915/actual-frequency/ cannot be turned back into the kernel's "
                     "count"),
            std::string::npos)
      << mhz;
  EXPECT_NE(mhz.find("leave the event out of the perf stat command"), std::string::npos) << mhz;
  const std::string iio = read_error("2.00,MiB,uncore_iio_free_running_0/bw_in_port0/,10,100.00,,\n");
  EXPECT_NE(iio.find(":1: uncore_iio_free_running_0/bw_in_port0/ is in MiB, and how many bytes a count of it stands "
                     "for is known only for the memory controller's events"),
            std::string::npos)
      << iio;
}

// "instructions 12" may be "instructions 1234567" cut short: a counts file,
// like perf's, ends its every line.
TEST(FailuresImport, ACountsFileCutInItsLastLineIsTruncated) {
  EXPECT_NE(
      read_error("cycles 1000\ninstructions 12").find(":2: the last line has no end of line: the file is truncated"),
      std::string::npos);
  EXPECT_NE(read_error("cycles 1000").find(":1: the last line has no end of line"), std::string::npos);
  EXPECT_NE(read_error("cycles 1000\ninterval-s 1.").find(":2: the last line has no end of line"), std::string::npos);
  EXPECT_DOUBLE_EQ(value_of(read_whole("cycles 1000\ninstructions 12\n").whole, "instructions"), 12);
}

}  // namespace
}  // namespace topdown::import::testing
