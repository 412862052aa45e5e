#pragma once
// Whether this build runs under AddressSanitizer: gcc says so with
// __SANITIZE_ADDRESS__, clang only through __has_feature.

namespace topdown::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace topdown::testing
