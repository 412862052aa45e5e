// The gzip stream of a pprof file, read back with zlib's inflate, and a
// file that cannot be written. What the profile says is read back by Go's
// pprof in tests/cli/pprof_cli_test.cpp.
#include "pprof/pprof.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <string>

#include "common/error.h"

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

TEST(Pprof, AnUnwritablePathIsOneLineAndNoFile) {
  recording::Recording recording;
  recording.header.groups.push_back({{"task-clock"}, {}, 0, 1000, 0, 0});
  const std::string path = "/nonexistent-dir/profile.pb.gz";
  try {
    write_pprof(path, recording, profile::Profile{}, {"software", "run.data"});
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--pprof " + path + ": cannot write it"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
  EXPECT_NE(::access(path.c_str(), F_OK), 0);
}

}  // namespace
}  // namespace topdown::pprof
