#pragma once
// Basic authentication's passwords, checked against the bcrypt hashes of
// --web-config. bcrypt is slow on purpose (about 0.1 s at cost 10), so a
// user and password that passed are remembered (as a keyed hash, not the
// password) and a scrape a second costs one lookup; exporter-toolkit
// caches the same way.
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace topdown::serve {

class PasswordCheck {
 public:
  // `users`: name and bcrypt hash; at least one.
  explicit PasswordCheck(std::map<std::string, std::string> users);

  // True when `user` and `password` passed check() before. Fast.
  bool remembered(std::string_view user, std::string_view password) const;
  // crypt() of `password` with the user's hash, compared in constant time;
  // an unknown user costs the same crypt(). Remembers a success. Slow.
  bool check(std::string_view user, std::string_view password);

 private:
  std::string remembrance(std::string_view user, std::string_view password) const;

  std::map<std::string, std::string, std::less<>> users_;
  std::vector<unsigned char> key_;  // random, for the remembered hashes
  mutable std::mutex mutex_;
  std::set<std::string> passed_;
};

// Runs PasswordCheck::check on a thread of its own, one at a time, so that
// the server's thread never spends bcrypt's time: a client sending wrong
// passwords delays only other first checks, never a remembered user's
// scrape.
class PasswordChecker {
 public:
  // done(true or false) on the checking thread; done(nullopt) when stopped first.
  using Done = std::function<void(std::optional<bool>)>;

  explicit PasswordChecker(PasswordCheck& check);
  PasswordChecker(const PasswordChecker&) = delete;
  PasswordChecker& operator=(const PasswordChecker&) = delete;
  ~PasswordChecker();

  // Queues a check; false (and `done` not called) once stopping.
  bool submit(std::string user, std::string password, Done done);
  // Calls done(nullopt) for the checks still queued, and joins the thread.
  void stop();

 private:
  struct Job {
    std::string user;
    std::string password;
    Done done;
  };
  void work();

  PasswordCheck& check_;
  std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<Job> jobs_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace topdown::serve
