#pragma once
// --listen ADDRESS:PORT of `topdown serve`.
#include <string>
#include <string_view>

namespace topdown::serve {

struct ListenAddress {
  std::string host;  // a numeric IPv4 or IPv6 address (IPv6 without brackets)
  int port = 0;      // 0: any free port
  // "127.0.0.1:9842", "[::1]:9842"
  std::string text() const;
};

// Where serve listens by default: loopback only.
inline constexpr std::string_view kDefaultListen = "127.0.0.1:9842";

// "127.0.0.1:9842", "0.0.0.0:9842", "[::1]:9842", "[::]:9842",
// "localhost:9842" (127.0.0.1); a port from 0 (any free one) to 65535.
// Throws Error naming the text and showing the form otherwise.
ListenAddress parse_listen_address(std::string_view text);

}  // namespace topdown::serve
