// The signal handlers of src/cli/signals.cpp in a forked child: a signal
// that ends topdown removes the registered temporary files, and one that
// comes while EndingSignalsHeld is alive waits until the file is registered.
#include "cli/signals.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "support/temp_tree.h"

namespace fs = std::filesystem;
using topdown::cli::EndingSignalsHeld;

namespace {

// Runs `child` in a forked process and returns its wait status.
template <typename Child>
int status_of(Child child) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    child();
    ::_exit(0);
  }
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, 0), pid);
  return status;
}

void create(const fs::path& path) { ::close(::open(path.c_str(), O_CREAT | O_WRONLY, 0600)); }

}  // namespace

TEST(EndingSignals, RemoveTheRegisteredTemporaryFileAndEndTheProcess) {
  topdown::testing::TempTree tree;
  const fs::path registered = tree.root() / ".registered";
  const fs::path forgotten = tree.root() / ".forgotten";
  const int status = status_of([&] {
    topdown::cli::install_signal_handlers();
    create(registered);
    create(forgotten);
    topdown::cli::remove_on_signal(registered.string());
    topdown::cli::remove_on_signal(forgotten.string());
    topdown::cli::forget_temporary(forgotten.string());
    ::raise(SIGTERM);
  });
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_FALSE(fs::exists(registered));
  EXPECT_TRUE(fs::exists(forgotten));
}

// The window between creating a temporary file and registering it: a
// signal sent there is held, so the file is removed all the same.
TEST(EndingSignals, WaitWhileHeldUntilTheFileIsRegistered) {
  topdown::testing::TempTree tree;
  const fs::path temporary = tree.root() / ".temporary";
  const fs::path reached = tree.root() / "held-scope-survived-the-signal";
  const int status = status_of([&] {
    topdown::cli::install_signal_handlers();
    {
      const EndingSignalsHeld held;
      create(temporary);
      ::raise(SIGINT);
      create(reached);
      topdown::cli::remove_on_signal(temporary.string());
    }
    create(tree.root() / "ran-past-the-scope");
  });
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  EXPECT_TRUE(fs::exists(reached));
  EXPECT_FALSE(fs::exists(temporary));
  EXPECT_FALSE(fs::exists(tree.root() / "ran-past-the-scope"));
}
