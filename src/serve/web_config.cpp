#include "serve/web_config.h"

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <regex>

#include "common/error.h"
#include "common/input_file.h"
#include "common/nearest_names.h"

namespace topdown::serve {
namespace {

namespace fs = std::filesystem;

// Where a problem is: the file, and the line of the YAML node when known.
class Place {
 public:
  explicit Place(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const {
    const YAML::Mark mark = node.Mark();
    const std::string line = mark.is_null() ? "" : ":" + std::to_string(mark.line + 1);
    throw Error("--web-config " + file_ + line + ": " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { throw Error("--web-config " + file_ + ": " + what); }

  // A file the configuration names, relative to the configuration's folder.
  fs::path resolve(const std::string& name) const {
    const fs::path named(name);
    return named.is_absolute() ? named : fs::path(file_).parent_path() / named;
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

// Rejects keys of `map` outside `known`, naming the nearest one; `unsupported`
// are exporter-toolkit keys that topdown does not implement.
void check_keys(const Place& place, const YAML::Node& map, const std::string& section,
                const std::vector<std::string>& known, const std::vector<std::string>& unsupported = {}) {
  if (!map.IsMap()) place.fail(map, section + " must be a map of keys to values");
  for (const auto& entry : map) {
    const std::string key = entry.first.as<std::string>();
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    if (std::find(unsupported.begin(), unsupported.end(), key) != unsupported.end()) {
      place.fail(entry.first, section + "." + key + " is not supported by topdown serve; remove it");
    }
    const std::vector<std::string> near = nearest_names(key, known, 3);
    std::string known_list;
    for (const std::string& name : known) known_list += (known_list.empty() ? "" : ", ") + name;
    place.fail(entry.first, "unknown key '" + key + "' in " + section +
                                (near.empty() ? "" : " (did you mean '" + near.front() + "'?)") + "; it takes " +
                                known_list);
  }
}

std::string scalar(const Place& place, const YAML::Node& node, const std::string& key) {
  if (!node.IsScalar()) place.fail(node, key + " must be a string");
  return node.as<std::string>();
}

std::string read_named_file(const Place& place, const YAML::Node& node, const std::string& key) {
  const fs::path path = place.resolve(scalar(place, node, key));
  std::optional<std::string> text = read_whole_file(path);
  if (!text || fs::is_directory(path)) {
    place.fail(node, key + " '" + path.string() + "' cannot be read; give a readable PEM file");
  }
  return std::move(*text);
}

gnutls_datum_t datum(const std::string& text) {
  return {reinterpret_cast<unsigned char*>(const_cast<char*>(text.data())), static_cast<unsigned>(text.size())};
}

using Credentials = std::unique_ptr<gnutls_certificate_credentials_st, decltype(&gnutls_certificate_free_credentials)>;

Credentials allocate_credentials() {
  gnutls_certificate_credentials_t credentials = nullptr;
  if (gnutls_certificate_allocate_credentials(&credentials) != GNUTLS_E_SUCCESS) {
    throw Error("cannot allocate TLS credentials (out of memory?)");
  }
  return {credentials, &gnutls_certificate_free_credentials};
}

// GnuTLS reads the pair as libmicrohttpd will: a bad file fails here with
// its name, not later with libmicrohttpd's generic start-up failure.
void check_key_pair(const Place& place, const YAML::Node& section, const TlsConfig& tls) {
  const Credentials credentials = allocate_credentials();
  const gnutls_datum_t certificate = datum(tls.certificate);
  const gnutls_datum_t key = datum(tls.key);
  const int result =
      gnutls_certificate_set_x509_key_mem2(credentials.get(), &certificate, &key, GNUTLS_X509_FMT_PEM, nullptr, 0);
  if (result < 0) {
    place.fail(section, std::string("cert_file and key_file are not a PEM certificate and its key (") +
                            gnutls_strerror(result) + "); give the certificate's file and its unencrypted key's");
  }
  if (!tls.client_ca.empty()) {
    const gnutls_datum_t authorities = datum(tls.client_ca);
    if (gnutls_certificate_set_x509_trust_mem(credentials.get(), &authorities, GNUTLS_X509_FMT_PEM) <= 0) {
      place.fail(section["client_ca_file"], "client_ca_file holds no PEM certificate; give the CAs' certificates");
    }
  }
}

ClientAuth client_auth(const Place& place, const YAML::Node& node) {
  static const std::vector<std::pair<std::string, ClientAuth>> kTypes = {
      {"NoClientCert", ClientAuth::None},
      {"RequestClientCert", ClientAuth::Request},
      {"RequireAnyClientCert", ClientAuth::RequireAny},
      {"VerifyClientCertIfGiven", ClientAuth::VerifyIfGiven},
      {"RequireAndVerifyClientCert", ClientAuth::RequireAndVerify}};
  const std::string given = scalar(place, node, "client_auth_type");
  for (const auto& [name, type] : kTypes) {
    if (name == given) return type;
  }
  place.fail(node, "client_auth_type '" + given +
                       "' is not one of NoClientCert, RequestClientCert, RequireAnyClientCert, "
                       "VerifyClientCertIfGiven, RequireAndVerifyClientCert");
}

// min_version and max_version as GnuTLS protocol names.
std::string protocol(const Place& place, const YAML::Node& node, const std::string& key) {
  static const std::map<std::string, std::string> kVersions = {
      {"TLS10", "TLS1.0"}, {"TLS11", "TLS1.1"}, {"TLS12", "TLS1.2"}, {"TLS13", "TLS1.3"}};
  const std::string given = scalar(place, node, key);
  const auto found = kVersions.find(given);
  if (found == kVersions.end()) place.fail(node, key + " '" + given + "' is not one of TLS10, TLS11, TLS12, TLS13");
  return found->second;
}

std::string priorities(const Place& place, const YAML::Node& section) {
  const std::array<std::string, 4> order = {"TLS1.0", "TLS1.1", "TLS1.2", "TLS1.3"};
  const auto index = [&](const std::string& version) {
    return static_cast<size_t>(std::find(order.begin(), order.end(), version) - order.begin());
  };
  const size_t low = section["min_version"] ? index(protocol(place, section["min_version"], "min_version")) : 2;
  const size_t high =
      section["max_version"] ? index(protocol(place, section["max_version"], "max_version")) : order.size() - 1;
  if (low > high) place.fail(section, "min_version is above max_version; give min_version <= max_version");
  std::string text = "NORMAL:-VERS-ALL";
  for (size_t version = low; version <= high; ++version) text += ":+VERS-" + order[version];
  return text;
}

TlsConfig read_tls(const Place& place, const YAML::Node& section, std::vector<std::string>& warnings) {
  check_keys(place, section, "tls_server_config",
             {"cert_file", "key_file", "client_ca_file", "client_auth_type", "min_version", "max_version"},
             {"cert", "key", "client_ca", "cipher_suites", "curve_preferences", "prefer_server_cipher_suites",
              "client_allowed_sans"});
  for (const char* key : {"cert_file", "key_file"}) {
    if (!section[key]) place.fail(section, std::string("tls_server_config needs ") + key + "; give its PEM file");
  }
  TlsConfig tls;
  tls.certificate = read_named_file(place, section["cert_file"], "cert_file");
  tls.key = read_named_file(place, section["key_file"], "key_file");
  if (section["client_ca_file"]) tls.client_ca = read_named_file(place, section["client_ca_file"], "client_ca_file");
  if (section["client_auth_type"]) tls.client_auth = client_auth(place, section["client_auth_type"]);
  if (!tls.client_ca.empty() && tls.client_auth == ClientAuth::None) {
    place.fail(section, "client_ca_file is given without client_auth_type; give one (e.g. RequireAndVerifyClientCert)");
  }
  // libmicrohttpd asks for a client certificate only when it has CAs to name.
  if (tls.client_ca.empty() && tls.client_auth != ClientAuth::None) {
    place.fail(section,
               "client_auth_type asks for client certificates; give client_ca_file with the CAs they are from");
  }
  tls.priorities = priorities(place, section);
  check_key_pair(place, section, tls);

  struct stat key_file {};
  const fs::path key_path = place.resolve(section["key_file"].as<std::string>());
  if (::stat(key_path.c_str(), &key_file) == 0 && (key_file.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    warnings.push_back("--web-config " + place.file() + ": key_file '" + key_path.string() +
                       "' can be read by others; chmod 600 it");
  }
  return tls;
}

// A bcrypt hash: $2a$, $2b$ or $2y$, a two-digit cost from 04 to 31, and 53
// characters of salt and hash in bcrypt's alphabet. (Checked by its form:
// crypt() of each would cost a tenth of a second per user at start.)
bool is_bcrypt_hash(const std::string& text) {
  static const std::regex kBcrypt(R"(\$2[aby]\$(0[4-9]|[12][0-9]|3[01])\$[./A-Za-z0-9]{53})");
  return std::regex_match(text, kBcrypt);
}

std::map<std::string, std::string> read_users(const Place& place, const YAML::Node& section) {
  if (!section.IsMap()) place.fail(section, "basic_auth_users must be a map of user names to bcrypt hashes");
  std::map<std::string, std::string> users;
  for (const auto& entry : section) {
    const std::string user = scalar(place, entry.first, "a user name");
    const std::string hash = scalar(place, entry.second, "user '" + user + "'");
    if (user.find(':') != std::string::npos) place.fail(entry.first, "user '" + user + "' has a ':'; rename it");
    if (!is_bcrypt_hash(hash)) {
      place.fail(entry.second, "the password of user '" + user +
                                   "' is not a bcrypt hash; give one (e.g. `mkpasswd -m bcrypt` of package whois, "
                                   "or `htpasswd -nBC 10 USER`), never the password itself");
    }
    users.emplace(user, hash);
  }
  return users;
}

// The headers exporter-toolkit allows, with the values it allows where it
// limits them; the others could break the pages (Content-Type) or the
// authentication (WWW-Authenticate).
std::vector<std::pair<std::string, std::string>> read_headers(const Place& place, const YAML::Node& section) {
  static const std::map<std::string, std::vector<std::string>> kAllowed = {{"Strict-Transport-Security", {}},
                                                                           {"X-Content-Type-Options", {"nosniff"}},
                                                                           {"X-Frame-Options", {"deny", "sameorigin"}},
                                                                           {"X-XSS-Protection", {}},
                                                                           {"Content-Security-Policy", {}}};
  if (!section.IsMap()) place.fail(section, "http_server_config.headers must be a map of header names to values");
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& entry : section) {
    const std::string name = scalar(place, entry.first, "a header name");
    const std::string value = scalar(place, entry.second, "header " + name);
    const auto allowed = kAllowed.find(name);
    if (allowed == kAllowed.end()) {
      place.fail(entry.first, "header '" + name +
                                  "' cannot be set; topdown serve sets Strict-Transport-Security, "
                                  "X-Content-Type-Options, X-Frame-Options, X-XSS-Protection and "
                                  "Content-Security-Policy");
    }
    const std::vector<std::string>& values = allowed->second;
    if (!values.empty() && std::find(values.begin(), values.end(), value) == values.end()) {
      std::string listed;
      for (const std::string& one : values) listed += (listed.empty() ? "" : " or ") + one;
      place.fail(entry.second, "header " + name + " '" + value + "' is not allowed; give " + listed);
    }
    if (value.find_first_of("\r\n") != std::string::npos) {
      place.fail(entry.second, "header " + name + " has a line break; give one line");
    }
    headers.emplace_back(name, value);
  }
  return headers;
}

void read_http_config(const Place& place, const YAML::Node& section, WebConfig& config) {
  check_keys(place, section, "http_server_config", {"headers", "http2"});
  if (section["http2"]) {
    bool http2 = false;
    if (!YAML::convert<bool>::decode(section["http2"], http2))
      place.fail(section["http2"], "http2 must be true or false");
    if (http2) place.fail(section["http2"], "topdown serve speaks HTTP/1.1 only; set http2: false or remove it");
  }
  if (section["headers"]) config.headers = read_headers(place, section["headers"]);
}

}  // namespace

WebConfig read_web_config(const std::string& path) {
  const Place place(path);
  if (fs::is_directory(path)) place.fail("is a folder; give the YAML file");
  const std::optional<std::string> text = read_whole_file(path);
  if (!text) place.fail("cannot be read; give a readable YAML file in exporter-toolkit's web configuration format");
  YAML::Node root;
  try {
    root = YAML::Load(*text);
  } catch (const YAML::ParserException& error) {
    throw Error("--web-config " + path + ":" + std::to_string(error.mark.line + 1) + ": not YAML (" + error.msg +
                "); fix the file");
  }
  WebConfig config;
  if (root.IsNull()) return config;  // an empty file: plain HTTP, no authentication
  try {
    check_keys(place, root, "the file", {"tls_server_config", "http_server_config", "basic_auth_users"});
    if (root["tls_server_config"]) config.tls = read_tls(place, root["tls_server_config"], config.warnings);
    if (root["basic_auth_users"]) config.users = read_users(place, root["basic_auth_users"]);
    if (root["http_server_config"]) read_http_config(place, root["http_server_config"], config);
  } catch (const YAML::Exception& error) {
    place.fail(error.msg + "; fix the file");
  }
  if (!config.users.empty() && !config.tls) {
    config.warnings.push_back("--web-config " + path +
                              ": basic_auth_users without tls_server_config sends passwords readable on the network; "
                              "add tls_server_config");
  }
  return config;
}

}  // namespace topdown::serve
