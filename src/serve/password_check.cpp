#include "serve/password_check.h"

#include <crypt.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include <array>

#include "common/error.h"

namespace topdown::serve {
namespace {

// Every password that ever passed is one entry; the bound only matters if
// bcrypt's 72-byte limit lets one password be sent in many spellings.
constexpr size_t kMostRemembered = 1024;

// Equal texts, in a time that depends on their length only.
bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  volatile unsigned char differences = 0;
  for (size_t i = 0; i < a.size(); ++i) differences = differences | static_cast<unsigned char>(a[i] ^ b[i]);
  return differences == 0;
}

}  // namespace

PasswordCheck::PasswordCheck(std::map<std::string, std::string> users) : users_(users.begin(), users.end()), key_(32) {
  if (users_.empty()) throw Error("basic authentication needs at least one user");
  if (gnutls_rnd(GNUTLS_RND_KEY, key_.data(), key_.size()) != 0)
    throw Error("no random numbers for the password cache");
}

std::string PasswordCheck::remembrance(std::string_view user, std::string_view password) const {
  std::string text(user);
  text += '\0';
  text += password;
  std::array<unsigned char, 32> digest{};
  gnutls_hmac_fast(GNUTLS_MAC_SHA256, key_.data(), key_.size(), text.data(), text.size(), digest.data());
  gnutls_memset(text.data(), 0, text.size());
  return {digest.begin(), digest.end()};
}

bool PasswordCheck::remembered(std::string_view user, std::string_view password) const {
  const std::string key = remembrance(user, password);
  std::lock_guard lock(mutex_);
  return passed_.count(key) != 0;
}

bool PasswordCheck::check(std::string_view user, std::string_view password) {
  const auto known = users_.find(user);
  // An unknown user is hashed with a known user's setting, so that the
  // answer takes as long as for a wrong password.
  const std::string& hash = known != users_.end() ? known->second : users_.begin()->second;
  crypt_data scratch{};
  const char* hashed = crypt_rn(std::string(password).c_str(), hash.c_str(), &scratch, sizeof scratch);
  const bool passed = hashed != nullptr && same_text(hashed, hash) && known != users_.end();
  if (passed) {
    const std::string key = remembrance(user, password);
    std::lock_guard lock(mutex_);
    if (passed_.size() >= kMostRemembered) passed_.clear();
    passed_.insert(key);
  }
  return passed;
}

PasswordChecker::PasswordChecker(PasswordCheck& check) : check_(check), thread_([this] { work(); }) {}

PasswordChecker::~PasswordChecker() { stop(); }

bool PasswordChecker::submit(std::string user, std::string password, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    jobs_.push_back(Job{std::move(user), std::move(password), std::move(done)});
  }
  queued_.notify_one();
  return true;
}

void PasswordChecker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void PasswordChecker::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    queued_.wait(lock, [this] { return !jobs_.empty() || stopping_; });
    if (jobs_.empty()) return;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    if (stopping_) {
      job.done(std::nullopt);
      continue;
    }
    lock.unlock();
    const bool passed = check_.check(job.user, job.password);
    gnutls_memset(job.password.data(), 0, job.password.size());
    job.done(passed);
    lock.lock();
  }
}

}  // namespace topdown::serve
