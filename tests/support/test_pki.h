#pragma once
// Certificates for TLS tests, made with the openssl command: a CA, a server
// certificate it signs for 127.0.0.1, a client certificate it signs, and a
// second CA that signed neither. Keys are ECDSA P-256 (fast handshakes) and
// only their owner can read them.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace topdown::testing {

struct TestPki {
  std::filesystem::path dir;
  std::string ca_certificate() const { return (dir / "ca.crt").string(); }
  std::string other_ca_certificate() const { return (dir / "other-ca.crt").string(); }
  std::string server_certificate() const { return (dir / "server.crt").string(); }
  std::string server_key() const { return (dir / "server.key").string(); }
  std::string client_certificate() const { return (dir / "client.crt").string(); }
  std::string client_key() const { return (dir / "client.key").string(); }

  // Makes them in `folder` (created); false when openssl is missing or fails.
  static bool make(const std::filesystem::path& folder, TestPki& pki) {
    pki.dir = folder;
    std::filesystem::create_directories(folder);
    const std::string at = "cd '" + folder.string() + "' && ";
    const std::string key = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    std::ofstream(folder / "server.ext") << "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n";
    std::ofstream(folder / "client.ext") << "extendedKeyUsage=clientAuth\n";
    const std::string quiet = " >/dev/null 2>&1";
    const std::string commands[] = {
        "openssl req -x509" + key + " -keyout ca.key -out ca.crt -days 2 -subj /CN=topdown-test-ca",
        "openssl req -x509" + key + " -keyout other-ca.key -out other-ca.crt -days 2 -subj /CN=topdown-other-ca",
        "openssl req" + key + " -keyout server.key -out server.csr -subj /CN=127.0.0.1",
        "openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 "
        "-extfile server.ext",
        "openssl req" + key + " -keyout client.key -out client.csr -subj /CN=topdown-test-client",
        "openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out client.crt -days 2 "
        "-extfile client.ext",
        "chmod 600 *.key"};
    for (const std::string& command : commands) {
      if (std::system((at + command + quiet).c_str()) != 0) return false;
    }
    return true;
  }
};

}  // namespace topdown::testing
