// The gzip stream of a pprof file, read back with zlib's inflate. What the
// profile says is read back by Go's pprof in tests/cli/pprof_cli_test.cpp;
// how the file is written (unwritable paths, devices, links) is tested with
// the CLI's other outputs in tests/cli/output_fault_test.cpp.
#include "pprof/pprof.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace topdown::pprof {
namespace {

std::string gunzip(const std::string& bytes) {
  z_stream stream{};
  EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
  std::string out(1 << 20, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  return out;
}

TEST(Pprof, GzipIsAGzipStreamOfTheBytes) {
  std::string bytes;
  for (int i = 0; i < 5000; ++i) bytes += std::to_string(i * 7919 % 1000) + ',';
  const std::string packed = gzip(bytes);
  ASSERT_GE(packed.size(), 18u);
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f) << "gzip's magic";
  EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
  EXPECT_LT(packed.size(), bytes.size());
  EXPECT_EQ(gunzip(packed), bytes);
  EXPECT_EQ(gunzip(gzip("")), "");
}

}  // namespace
}  // namespace topdown::pprof
