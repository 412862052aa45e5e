#include "common/data_dir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "../support/temp_tree.h"

namespace topdown {
namespace {

using testing::TempTree;

// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (saved_) {
      setenv(name_, saved_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

TEST(ModelsDir, TheEnvironmentWins) {
  const ScopedEnv models("TOPDOWN_MODELS", "/some/where/models");
  EXPECT_EQ(models_dir_from_environment(), std::filesystem::path("/some/where/models"));
  EXPECT_EQ(models_dir(), "/some/where/models");
}

TEST(ModelsDir, AnEmptyVariableCountsAsUnset) {
  const ScopedEnv models("TOPDOWN_MODELS", "");
  EXPECT_EQ(models_dir_from_environment(), std::nullopt);
}

TEST(ModelsDir, BesideAnInstalledProgram) {
  const TempTree tree;
  const std::filesystem::path bin = tree.mkdir("prefix/bin");
  const std::filesystem::path models = tree.mkdir("prefix/share/topdown/models");
  EXPECT_EQ(models_dir_beside(bin), models);
}

TEST(ModelsDir, BesideTheProgramInTheBuildTree) {
  const TempTree tree;
  const std::filesystem::path models = tree.mkdir("build/models");
  EXPECT_EQ(models_dir_beside(tree.root() / "build"), models);
  EXPECT_EQ(models_dir_beside(tree.mkdir("build/bench")), models);  // the benchmarks, one folder down
  EXPECT_EQ(models_dir_beside(tree.mkdir("elsewhere")), std::nullopt);
}

TEST(ModelsDir, AFileIsNoFolder) {
  const TempTree tree;
  tree.write("build/models", "not a folder");
  EXPECT_EQ(models_dir_beside(tree.root() / "build"), std::nullopt);
}

TEST(ModelsDir, ThisBinaryIsTheTestProgram) {
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe");
  EXPECT_EQ(this_binary_folder(), program.parent_path());
}

TEST(ModelsDir, LastResortThenTheInstalledPlace) {
  const ScopedEnv models("TOPDOWN_MODELS", nullptr);
  const TempTree tree;
  // The test program has no models beside it (ctest runs it in the build tree's tests folder).
  ASSERT_EQ(models_dir_beside(*this_binary_folder()), std::nullopt);
  EXPECT_EQ(models_dir(tree.root()), tree.root());
  const std::filesystem::path missing = models_dir(tree.root() / "missing");
  EXPECT_TRUE(missing.string().ends_with("share/topdown/models")) << missing;
  EXPECT_FALSE(std::filesystem::exists(missing));
}

}  // namespace
}  // namespace topdown
