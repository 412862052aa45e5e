#include "common/mapped_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "../support/temp_tree.h"
#include "common/error.h"

namespace topdown {
namespace {

std::string error_of(const std::string& path) {
  try {
    MappedFile file(path);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(MappedFile, AFilesBytesAreReadInPlace) {
  const testing::TempTree tree;
  std::string bytes = "TDRECORD";
  bytes += std::string("\0\xff\n", 3);
  bytes += std::string(100000, 'x');
  const std::string path = tree.write("data", bytes).string();
  const MappedFile file(path);
  EXPECT_EQ(file.bytes(), bytes);
  EXPECT_EQ(MappedFile(tree.write("empty", "").string()).bytes(), "");
}

TEST(MappedFile, APipeIsReadWhole) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const std::string text(200000, 'p');  // more than a pipe holds: read while written
  std::thread writer([&] {
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t wrote = ::write(ends[1], text.data() + done, text.size() - done);
      if (wrote <= 0) break;
      done += static_cast<std::size_t>(wrote);
    }
    ::close(ends[1]);
  });
  const MappedFile file("/proc/self/fd/" + std::to_string(ends[0]));
  writer.join();
  ::close(ends[0]);
  EXPECT_EQ(file.bytes(), text);
}

TEST(MappedFile, MissingFilesAndDirectoriesAreOneLineErrors) {
  const testing::TempTree tree;
  const std::string missing = (tree.root() / "missing").string();
  EXPECT_EQ(error_of(missing), "cannot open " + missing + ": No such file or directory; check the path given");
  EXPECT_EQ(error_of(tree.root().string()),
            "cannot open " + tree.root().string() + ": Is a directory; check the path given");
}

}  // namespace
}  // namespace topdown
