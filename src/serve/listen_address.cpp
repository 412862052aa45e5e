#include "serve/listen_address.h"

#include <arpa/inet.h>

#include <charconv>

#include "common/error.h"

namespace topdown::serve {
namespace {

bool is_ipv4(const std::string& host) {
  in_addr address{};
  return ::inet_pton(AF_INET, host.c_str(), &address) == 1;
}

bool is_ipv6(const std::string& host) {
  in6_addr address{};
  return ::inet_pton(AF_INET6, host.c_str(), &address) == 1;
}

[[noreturn]] void reject(std::string_view text, std::string_view why) {
  throw Error("--listen '" + std::string(text) + "': " + std::string(why) +
              "; give ADDRESS:PORT with a numeric address and a port 0-65535, e.g. 127.0.0.1:9842, "
              "0.0.0.0:9842 or [::1]:9842");
}

}  // namespace

std::string ListenAddress::text() const {
  const std::string shown = host.find(':') == std::string::npos ? host : "[" + host + "]";
  return shown + ":" + std::to_string(port);
}

ListenAddress parse_listen_address(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) reject(text, "no port");
  std::string host(text.substr(0, colon));
  const std::string_view port_text = text.substr(colon + 1);
  const bool bracketed = host.size() >= 2 && host.front() == '[' && host.back() == ']';
  if (bracketed) host = host.substr(1, host.size() - 2);
  if (host == "localhost") host = "127.0.0.1";
  if (bracketed ? !is_ipv6(host) : !is_ipv4(host)) {
    reject(text, host.empty() ? "no address"
                 : bracketed  ? "not an IPv6 address"
                              : "not an IPv4 address (IPv6 goes in brackets)");
  }
  int port = -1;
  const auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || error != std::errc() || end != port_text.data() + port_text.size() || port < 0 ||
      port > 65535) {
    reject(text, "the port is not a number from 0 to 65535");
  }
  return {host, port};
}

}  // namespace topdown::serve
