#pragma once
// bcrypt hashes of test passwords, made with libcrypt as a user's
// `mkpasswd -m bcrypt` would; cost 4, the least, so tests stay fast.
#include <crypt.h>

#include <string>

namespace topdown::testing {

inline std::string bcrypt_hash(const std::string& password, unsigned long cost = 4) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  crypt_data scratch{};
  if (crypt_gensalt_rn("$2b$", cost, nullptr, 0, setting, sizeof setting) == nullptr) return "";
  const char* hashed = crypt_rn(password.c_str(), setting, &scratch, sizeof scratch);
  return hashed != nullptr ? hashed : "";
}

}  // namespace topdown::testing
