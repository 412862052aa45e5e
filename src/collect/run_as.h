#pragma once
// Who the workload runs as when topdown runs as root. Under sudo, counting
// needs root but the command should not get it: by default it runs as the
// user who called sudo (SUDO_UID, SUDO_GID and SUDO_USER's groups); --user
// NAME picks the user, --keep-root keeps root for it.
#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace topdown::collect {

// A user as the password and group databases describe it.
struct Account {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;              // primary group
  std::vector<gid_t> groups;  // every group it belongs to, the primary one included
};

// Finds an account by name; nullopt when there is none.
using AccountLookup = std::function<std::optional<Account>(const std::string& name)>;

// getpwnam_r and getgrouplist: the system's databases (files, LDAP, ...).
std::optional<Account> lookup_account(const std::string& name);

// The variables sudo sets for the command it runs; nullopt when unset.
struct SudoVariables {
  std::optional<std::string> user;  // SUDO_USER
  std::optional<std::string> uid;   // SUDO_UID
  std::optional<std::string> gid;   // SUDO_GID
};

SudoVariables sudo_variables_from_environment();

struct RunAsOptions {
  std::string user;        // --user NAME; empty: decide from sudo's variables
  bool keep_root = false;  // --keep-root
};

// The identity the workload takes before its exec. Everything is resolved
// before the fork, because the child may only make system calls.
struct Identity {
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  // supplementary groups
  std::string label;          // "alice (uid 1000, gid 1000)", for messages
};

// Decides who the workload runs as, given topdown's effective uid, sudo's
// variables and the options. nullopt: as topdown itself (not root, root
// without sudo, --keep-root, or sudo by root). Throws Error for a --user that
// does not exist or that a user other than root asks for, for --user together
// with --keep-root, and for SUDO_UID or SUDO_GID that are not numbers.
std::optional<Identity> choose_identity(uid_t euid, const SudoVariables& sudo, const RunAsOptions& options,
                                        const AccountLookup& lookup = lookup_account);

// Takes `identity` in a forked child just before exec: the supplementary
// groups, then the group, then the user (after setuid the groups could no
// longer be changed), checking each. Only system calls, so it is safe after
// fork in a threaded program. Returns 0, or the errno of the step that failed
// after writing one line "topdown: cannot run the workload as LABEL: ..." to
// stderr; the child should then _exit(126), like a command that cannot be
// executed.
int apply(const Identity& identity) noexcept;

}  // namespace topdown::collect
