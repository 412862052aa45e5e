#pragma once
// --web-config FILE of `topdown serve`: TLS, basic authentication and extra
// response headers, in the YAML format of Prometheus' exporter-toolkit
// (docs/serve.md lists the keys topdown takes).
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topdown::serve {

// tls_server_config.client_auth_type.
enum class ClientAuth {
  None,              // NoClientCert
  Request,           // RequestClientCert: asked for, neither required nor verified
  RequireAny,        // RequireAnyClientCert: required, not verified
  VerifyIfGiven,     // VerifyClientCertIfGiven
  RequireAndVerify,  // RequireAndVerifyClientCert
};

struct TlsConfig {
  // PEM text read from cert_file, key_file and client_ca_file.
  std::string certificate;
  std::string key;
  std::string client_ca;
  ClientAuth client_auth = ClientAuth::None;
  // GnuTLS priorities for min_version and max_version (TLS 1.2 and later by default).
  std::string priorities;
};

struct WebConfig {
  std::optional<TlsConfig> tls;
  std::map<std::string, std::string> users;                  // basic_auth_users: name and bcrypt hash
  std::vector<std::pair<std::string, std::string>> headers;  // http_server_config.headers
  // Settings that work but weaken what the file asks for (a key file others
  // can read, passwords without TLS), for serve to print on start.
  std::vector<std::string> warnings;
};

// Reads and checks `path`; relative file names in it are relative to its
// directory. Throws Error with one line naming the file, the key and what
// to do: for YAML it cannot parse, an unknown or unsupported key, a file it
// names that cannot be read, a certificate and key that do not make a pair,
// a password that is not a bcrypt hash, a header exporter-toolkit does not
// allow.
WebConfig read_web_config(const std::string& path);

}  // namespace topdown::serve
