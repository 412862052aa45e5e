#include "collect/run_as.h"

#include <fmt/format.h>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/error.h"

namespace topdown::collect {
namespace {

std::optional<std::string> environment_variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

// A uid or gid as sudo writes it: decimal digits. (uid_t)-1 is refused: the
// set*id calls read it as "leave unchanged".
uint32_t parse_id(const char* variable, const std::string& text) {
  uint32_t id = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, id);
  if (text.empty() || error != std::errc() || stop != end || id == std::numeric_limits<uint32_t>::max()) {
    throw Error(
        fmt::format("{} '{}' is not a user or group id; unset it, or choose the workload's user with "
                    "--user NAME or --keep-root",
                    variable, text));
  }
  return id;
}

std::string label_of(const std::string& name, uid_t uid, gid_t gid) {
  const std::string ids = fmt::format("uid {}, gid {}", uid, gid);
  return name.empty() ? ids : fmt::format("{} ({})", name, ids);
}

Identity identity_of(const Account& account) {
  return Identity{account.uid, account.gid, account.groups, label_of(account.name, account.uid, account.gid)};
}

// The user who called sudo: its groups when SUDO_USER names that same user,
// else only its primary group, never root's groups.
std::optional<Identity> sudo_caller(const SudoVariables& sudo, const AccountLookup& lookup) {
  const uid_t uid = parse_id("SUDO_UID", *sudo.uid);
  if (!sudo.gid) {
    throw Error(
        "SUDO_UID is set but SUDO_GID is not; set both, or choose the workload's user with --user NAME or "
        "--keep-root");
  }
  const gid_t gid = parse_id("SUDO_GID", *sudo.gid);
  if (uid == 0) return std::nullopt;  // root used sudo: nobody to switch to
  Identity identity{uid, gid, {gid}, label_of("", uid, gid)};
  if (sudo.user) {
    if (const auto account = lookup(*sudo.user); account && account->uid == uid) {
      identity.groups = account->groups;
      if (std::find(identity.groups.begin(), identity.groups.end(), gid) == identity.groups.end()) {
        identity.groups.push_back(gid);
      }
      identity.label = label_of(account->name, uid, gid);
    }
  }
  return identity;
}

// One line on stderr naming the step that failed, with only async-signal-safe
// calls (no allocation): the caller is a forked child.
int report_failure(const Identity& identity, const char* step) noexcept {
  const int err = errno;
  char line[512];
  size_t length = 0;
  for (const char* part : {"topdown: cannot run the workload as ", identity.label.c_str(), ": ", step,
                           " failed: ", ::strerrordesc_np(err), "\n"}) {
    const size_t n = std::min(std::strlen(part ? part : "?"), sizeof line - 1 - length);
    std::memcpy(line + length, part ? part : "?", n);
    length += n;
  }
  line[length - 1] = '\n';  // kept even when the label was cut short
  while (::write(STDERR_FILENO, line, length) < 0 && errno == EINTR) {
  }
  return err;
}

}  // namespace

std::optional<Account> lookup_account(const std::string& name) {
  passwd entry{};
  passwd* found = nullptr;
  std::vector<char> buffer(16384);
  int error = 0;
  while ((error = ::getpwnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found)) == ERANGE) {
    buffer.resize(buffer.size() * 2);
  }
  if (error != 0 || !found) return std::nullopt;
  Account account{found->pw_name, found->pw_uid, found->pw_gid, {}};
  int count = 16;
  account.groups.resize(static_cast<size_t>(count));
  while (::getgrouplist(account.name.c_str(), account.gid, account.groups.data(), &count) < 0) {
    account.groups.resize(static_cast<size_t>(count));
  }
  account.groups.resize(static_cast<size_t>(count));
  return account;
}

SudoVariables sudo_variables_from_environment() {
  return SudoVariables{environment_variable("SUDO_USER"), environment_variable("SUDO_UID"),
                       environment_variable("SUDO_GID")};
}

std::optional<Identity> choose_identity(uid_t euid, const SudoVariables& sudo, const RunAsOptions& options,
                                        const AccountLookup& lookup) {
  if (!options.user.empty()) {
    if (options.keep_root) {
      throw Error("--user " + options.user + " and --keep-root contradict each other; give one of them");
    }
    const auto account = lookup(options.user);
    if (!account) throw Error("--user " + options.user + ": no such user; give the name of an existing user");
    if (euid == 0) return identity_of(*account);
    if (account->uid == euid) return std::nullopt;  // already that user
    throw Error(
        fmt::format("--user {} needs root: topdown runs as uid {} and cannot switch users; run it with "
                    "sudo, or leave out --user",
                    options.user, euid));
  }
  if (euid != 0 || options.keep_root || !sudo.uid) return std::nullopt;
  return sudo_caller(sudo, lookup);
}

int apply(const Identity& identity) noexcept {
  if (::setgroups(identity.groups.size(), identity.groups.data()) != 0) return report_failure(identity, "setgroups");
  if (::setgid(identity.gid) != 0) return report_failure(identity, "setgid");
  if (::setuid(identity.uid) != 0) return report_failure(identity, "setuid");
  return 0;
}

}  // namespace topdown::collect
