#include "collect/run_as.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <string>

#include "common/error.h"

namespace topdown::collect {
namespace {

// A fake password and group database.
AccountLookup accounts(std::map<std::string, Account> known) {
  return [known = std::move(known)](const std::string& name) -> std::optional<Account> {
    const auto found = known.find(name);
    return found == known.end() ? std::nullopt : std::optional<Account>(found->second);
  };
}

const Account kAlice{"alice", 1000, 1000, {1000, 27, 100}};
const Account kBob{"bob", 1001, 1001, {1001}};
const AccountLookup kAccounts = accounts({{"alice", kAlice}, {"bob", kBob}});

const SudoVariables kSudoByAlice{"alice", "1000", "1000"};
const SudoVariables kNoSudo{};

std::string error_of(uid_t euid, const SudoVariables& sudo, const RunAsOptions& options) {
  try {
    choose_identity(euid, sudo, options, kAccounts);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

TEST(ChooseIdentity, UnderSudoTheWorkloadRunsAsTheCallerWithItsGroups) {
  const auto identity = choose_identity(0, kSudoByAlice, {}, kAccounts);
  ASSERT_TRUE(identity.has_value());
  EXPECT_EQ(identity->uid, 1000u);
  EXPECT_EQ(identity->gid, 1000u);
  EXPECT_EQ(identity->groups, (std::vector<gid_t>{1000, 27, 100}));
  EXPECT_EQ(identity->label, "alice (uid 1000, gid 1000)");
}

TEST(ChooseIdentity, SudoGroupIsAddedWhenTheDatabaseLacksIt) {
  const auto identity = choose_identity(0, SudoVariables{"alice", "1000", "50"}, {}, kAccounts);
  ASSERT_TRUE(identity.has_value());
  EXPECT_EQ(identity->gid, 50u);
  EXPECT_EQ(identity->groups, (std::vector<gid_t>{1000, 27, 100, 50}));
}

TEST(ChooseIdentity, SudoUserThatIsNotSudoUidGetsOnlyThePrimaryGroup) {
  // SUDO_USER names bob, SUDO_UID alice's uid: neither user's groups are trusted.
  const auto mismatched = choose_identity(0, SudoVariables{"bob", "1000", "1000"}, {}, kAccounts);
  ASSERT_TRUE(mismatched.has_value());
  EXPECT_EQ(mismatched->uid, 1000u);
  EXPECT_EQ(mismatched->groups, (std::vector<gid_t>{1000}));
  EXPECT_EQ(mismatched->label, "uid 1000, gid 1000");
  const auto unknown = choose_identity(0, SudoVariables{"carol", "1002", "1002"}, {}, kAccounts);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_EQ(unknown->groups, (std::vector<gid_t>{1002}));
  const auto nameless = choose_identity(0, SudoVariables{std::nullopt, "1002", "1003"}, {}, kAccounts);
  ASSERT_TRUE(nameless.has_value());
  EXPECT_EQ(nameless->gid, 1003u);
  EXPECT_EQ(nameless->groups, (std::vector<gid_t>{1003}));
}

TEST(ChooseIdentity, KeepRootKeepsRoot) {
  RunAsOptions keep;
  keep.keep_root = true;
  EXPECT_FALSE(choose_identity(0, kSudoByAlice, keep, kAccounts).has_value());
}

TEST(ChooseIdentity, RootWithoutSudoAndSudoByRootStayRoot) {
  EXPECT_FALSE(choose_identity(0, kNoSudo, {}, kAccounts).has_value());
  EXPECT_FALSE(choose_identity(0, SudoVariables{"root", "0", "0"}, {}, kAccounts).has_value());
}

TEST(ChooseIdentity, WithoutRootNothingChanges) {
  // sudo -u alice topdown: topdown already is alice; SUDO_* name the caller.
  EXPECT_FALSE(choose_identity(1000, SudoVariables{"bob", "1001", "1001"}, {}, kAccounts).has_value());
  EXPECT_FALSE(choose_identity(1000, kNoSudo, {}, kAccounts).has_value());
}

TEST(ChooseIdentity, UserOptionPicksTheAccount) {
  RunAsOptions as_bob;
  as_bob.user = "bob";
  const auto under_sudo = choose_identity(0, kSudoByAlice, as_bob, kAccounts);
  ASSERT_TRUE(under_sudo.has_value());
  EXPECT_EQ(under_sudo->uid, 1001u);
  EXPECT_EQ(under_sudo->gid, 1001u);
  EXPECT_EQ(under_sudo->groups, (std::vector<gid_t>{1001}));
  EXPECT_EQ(under_sudo->label, "bob (uid 1001, gid 1001)");
  const auto as_root = choose_identity(0, kNoSudo, as_bob, kAccounts);
  ASSERT_TRUE(as_root.has_value());
  EXPECT_EQ(as_root->uid, 1001u);
  // A user may name itself: nothing to change.
  EXPECT_FALSE(choose_identity(1001, kNoSudo, as_bob, kAccounts).has_value());
}

TEST(ChooseIdentity, UserOptionErrors) {
  RunAsOptions unknown;
  unknown.user = "mallory";
  EXPECT_EQ(error_of(0, kNoSudo, unknown), "--user mallory: no such user; give the name of an existing user");
  RunAsOptions as_bob;
  as_bob.user = "bob";
  EXPECT_EQ(error_of(1000, kNoSudo, as_bob),
            "--user bob needs root: topdown runs as uid 1000 and cannot switch users; run it with sudo, or leave "
            "out --user");
  as_bob.keep_root = true;
  EXPECT_EQ(error_of(0, kNoSudo, as_bob), "--user bob and --keep-root contradict each other; give one of them");
}

TEST(ChooseIdentity, MalformedSudoVariablesAreErrors) {
  for (const char* bad : {"", "abc", "-1", "1000x", "4294967295", "99999999999"}) {
    EXPECT_EQ(error_of(0, SudoVariables{"alice", bad, "1000"}, {}),
              "SUDO_UID '" + std::string(bad) +
                  "' is not a user or group id; unset it, or choose the workload's user with --user NAME or "
                  "--keep-root")
        << bad;
  }
  EXPECT_EQ(error_of(0, SudoVariables{"alice", "1000", "staff"}, {}),
            "SUDO_GID 'staff' is not a user or group id; unset it, or choose the workload's user with --user NAME "
            "or --keep-root");
  EXPECT_EQ(error_of(0, SudoVariables{"alice", "1000", std::nullopt}, {}),
            "SUDO_UID is set but SUDO_GID is not; set both, or choose the workload's user with --user NAME or "
            "--keep-root");
  // --keep-root and --user do not read them.
  RunAsOptions keep;
  keep.keep_root = true;
  EXPECT_EQ(error_of(0, SudoVariables{"alice", "abc", "1000"}, keep), "no error");
}

TEST(SudoVariables, ReadFromTheEnvironment) {
  ::setenv("SUDO_USER", "alice", 1);
  ::setenv("SUDO_UID", "1000", 1);
  ::unsetenv("SUDO_GID");
  const SudoVariables sudo = sudo_variables_from_environment();
  ::unsetenv("SUDO_USER");
  ::unsetenv("SUDO_UID");
  EXPECT_EQ(sudo.user, "alice");
  EXPECT_EQ(sudo.uid, "1000");
  EXPECT_FALSE(sudo.gid.has_value());
}

TEST(LookupAccount, ReadsTheSystemDatabases) {
  const auto root = lookup_account("root");
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->uid, 0u);
  EXPECT_EQ(root->gid, 0u);
  EXPECT_NE(std::find(root->groups.begin(), root->groups.end(), 0u), root->groups.end());
  EXPECT_FALSE(lookup_account("topdown-no-such-user").has_value());
}

// What a forked child printed on stdout and stderr, and its wait status.
struct ChildResult {
  int status = -1;
  std::string output;
};

ChildResult run_in_child(const std::function<void()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    body();
    ::_exit(99);  // the body execs or exits itself
  }
  ::close(fds[1]);
  ChildResult result;
  char buffer[256];
  ssize_t n;
  while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0) result.output.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  ::waitpid(pid, &result.status, 0);
  return result;
}

#define SKIP_UNLESS_ROOT() \
  if (::geteuid() != 0) GTEST_SKIP() << "changing a process's user needs root; this test runs as uid " << ::geteuid()

TEST(ApplyIdentity, ChildReallyRunsAsNobody) {
  SKIP_UNLESS_ROOT();
  const auto nobody = lookup_account("nobody");
  ASSERT_TRUE(nobody.has_value()) << "no user 'nobody' on this machine";
  RunAsOptions as_nobody;
  as_nobody.user = "nobody";
  const auto identity = choose_identity(::geteuid(), kNoSudo, as_nobody);
  ASSERT_TRUE(identity.has_value());
  const ChildResult child = run_in_child([&] {
    if (apply(*identity) != 0) ::_exit(126);
    // What the exec'd program sees, real and effective ids alike.
    ::execlp("sh", "sh", "-c", "id -u; id -ru; id -g; id -rg; id -G", static_cast<char*>(nullptr));
  });
  ASSERT_TRUE(WIFEXITED(child.status)) << child.output;
  EXPECT_EQ(WEXITSTATUS(child.status), 0) << child.output;
  std::string groups;
  for (gid_t group : nobody->groups) groups += (groups.empty() ? "" : " ") + std::to_string(group);
  const std::string uid = std::to_string(nobody->uid);
  const std::string gid = std::to_string(nobody->gid);
  EXPECT_EQ(child.output, uid + "\n" + uid + "\n" + gid + "\n" + gid + "\n" + groups + "\n");
}

TEST(ApplyIdentity, FailureWritesOneLineAndTheChildExits126) {
  SKIP_UNLESS_ROOT();
  const auto nobody = choose_identity(0, kNoSudo, RunAsOptions{"nobody", false});
  ASSERT_TRUE(nobody.has_value());
  const Identity root{0, 0, {0}, "root (uid 0, gid 0)"};
  const ChildResult child = run_in_child([&] {
    if (apply(*nobody) != 0) ::_exit(1);
    // nobody cannot become root again: the first step already fails.
    if (apply(root) == EPERM) ::_exit(126);
  });
  ASSERT_TRUE(WIFEXITED(child.status));
  EXPECT_EQ(WEXITSTATUS(child.status), 126) << child.output;
  EXPECT_EQ(child.output,
            "topdown: cannot run the workload as root (uid 0, gid 0): setgroups failed: Operation not permitted\n");
}

}  // namespace
}  // namespace topdown::collect
