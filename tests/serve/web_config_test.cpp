// --web-config: exporter-toolkit's YAML read into what the server uses, and
// each mistake a one-line error naming the file, the place and the remedy.
#include "serve/web_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "common/error.h"
#include "support/bcrypt_hash.h"
#include "support/test_pki.h"

namespace topdown::serve {
namespace {

class WebConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/web-config-" + std::to_string(::getpid());
    if (!testing::TestPki::make(dir_, pki_)) GTEST_SKIP() << "the openssl command could not make certificates";
  }
  std::string write(const std::string& text) const {
    const std::string file = dir_ + "/web.yml";
    std::ofstream(file) << text;
    return file;
  }
  // The error reading `text`, or "" when it is read.
  std::string error_of(const std::string& text) const {
    try {
      read_web_config(write(text));
    } catch (const Error& error) {
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << error.what();
      return error.what();
    }
    return "";
  }
  std::string dir_;
  testing::TestPki pki_;
};

const std::string kTls = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n";

TEST_F(WebConfigFile, AnEmptyFileIsPlainHttpForEveryone) {
  const WebConfig web = read_web_config(write(""));
  EXPECT_FALSE(web.tls);
  EXPECT_TRUE(web.users.empty());
  EXPECT_TRUE(web.warnings.empty());
}

TEST_F(WebConfigFile, ReadsTlsUsersAndHeaders) {
  const std::string hash = testing::bcrypt_hash("s3cret");
  const WebConfig web = read_web_config(
      write(kTls + "  client_ca_file: " + pki_.ca_certificate() +  // absolute, the others relative
            "\n  client_auth_type: VerifyClientCertIfGiven\n  min_version: TLS13\n"
            "basic_auth_users:\n  prometheus: " +
            hash + "\nhttp_server_config:\n  http2: false\n  headers:\n    X-Content-Type-Options: nosniff\n"));
  ASSERT_TRUE(web.tls);
  std::ifstream certificate(pki_.server_certificate());
  EXPECT_EQ(web.tls->certificate, std::string(std::istreambuf_iterator<char>(certificate), {}));
  EXPECT_NE(web.tls->key.find("PRIVATE KEY"), std::string::npos);
  EXPECT_NE(web.tls->client_ca.find("BEGIN CERTIFICATE"), std::string::npos);
  EXPECT_EQ(web.tls->client_auth, ClientAuth::VerifyIfGiven);
  EXPECT_EQ(web.tls->priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.3");
  EXPECT_EQ(web.users, (std::map<std::string, std::string>{{"prometheus", hash}}));
  EXPECT_EQ(web.headers, (std::vector<std::pair<std::string, std::string>>{{"X-Content-Type-Options", "nosniff"}}));
  EXPECT_TRUE(web.warnings.empty()) << web.warnings.front();
}

TEST_F(WebConfigFile, TlsIsVersion12AndLaterByDefault) {
  const WebConfig web = read_web_config(write(kTls));
  ASSERT_TRUE(web.tls);
  EXPECT_EQ(web.tls->priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.3");
  EXPECT_EQ(web.tls->client_auth, ClientAuth::None);
}

TEST_F(WebConfigFile, MistakesAreOneLineNamingFileAndKey) {
  const std::string file = dir_ + "/web.yml";
  EXPECT_EQ(error_of("tls_server_config:\n  cert_file: [unclosed\n"),
            "--web-config " + file + ":3: not YAML (end of sequence flow not found); fix the file");
  EXPECT_EQ(error_of("basic_auth_user:\n  a: b\n"),
            "--web-config " + file +
                ":1: unknown key 'basic_auth_user' in the file (did you mean 'basic_auth_users'?); it takes "
                "tls_server_config, http_server_config, basic_auth_users");
  EXPECT_EQ(error_of("tls_server_config:\n  cert_file: server.crt\n"),
            "--web-config " + file + ":2: tls_server_config needs key_file; give its PEM file");
  EXPECT_EQ(
      error_of("tls_server_config:\n  cert_file: server.crt\n  key_file: missing.key\n"),
      "--web-config " + file + ":3: key_file '" + dir_ + "/missing.key' cannot be read; give a readable PEM file");
  EXPECT_NE(error_of("tls_server_config:\n  cert_file: server.crt\n  key_file: client.key\n")
                .find(":2: cert_file and key_file are not a PEM certificate and its key ("),
            std::string::npos);
  EXPECT_NE(error_of("basic_auth_users:\n  prometheus: s3cret\n")
                .find(":2: the password of user 'prometheus' is not a bcrypt hash; give one"),
            std::string::npos);
  EXPECT_EQ(error_of(kTls + "  client_ca_file: ca.crt\n"),
            "--web-config " + file +
                ":2: client_ca_file is given without client_auth_type; give one (e.g. RequireAndVerifyClientCert)");
  EXPECT_EQ(error_of(kTls + "  client_auth_type: RequireAnyClientCert\n"),
            "--web-config " + file +
                ":2: client_auth_type asks for client certificates; give client_ca_file with the CAs they are from");
  EXPECT_NE(error_of(kTls + "  client_auth_type: Always\n").find(":4: client_auth_type 'Always' is not one of"),
            std::string::npos);
  EXPECT_EQ(
      error_of(kTls + "  cipher_suites: [TLS_AES_128_GCM_SHA256]\n"),
      "--web-config " + file + ":4: tls_server_config.cipher_suites is not supported by topdown serve; remove it");
  EXPECT_NE(error_of("http_server_config:\n  headers:\n    Content-Type: text/html\n")
                .find(":3: header 'Content-Type' cannot be set"),
            std::string::npos);
  EXPECT_EQ(error_of("http_server_config:\n  headers:\n    X-Frame-Options: always\n"),
            "--web-config " + file + ":3: header X-Frame-Options 'always' is not allowed; give deny or sameorigin");
  EXPECT_EQ(error_of("http_server_config:\n  http2: true\n"),
            "--web-config " + file + ":2: topdown serve speaks HTTP/1.1 only; set http2: false or remove it");
  EXPECT_EQ(error_of(kTls + "  min_version: TLS13\n  max_version: TLS12\n"),
            "--web-config " + file + ":2: min_version is above max_version; give min_version <= max_version");
  try {
    read_web_config(dir_ + "/absent.yml");
    ADD_FAILURE() << "an absent file was read";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "--web-config " + dir_ +
                                             "/absent.yml: cannot be read; give a readable YAML file in "
                                             "exporter-toolkit's web configuration format");
  }
}

TEST_F(WebConfigFile, WeakSettingsAreWarnedOf) {
  ASSERT_EQ(::chmod(pki_.server_key().c_str(), 0644), 0);
  const WebConfig readable_key = read_web_config(write(kTls));
  ASSERT_EQ(readable_key.warnings.size(), 1u);
  EXPECT_EQ(readable_key.warnings[0], "--web-config " + dir_ + "/web.yml: key_file '" + pki_.server_key() +
                                          "' can be read by others; chmod 600 it");
  const WebConfig clear_passwords =
      read_web_config(write("basic_auth_users:\n  prometheus: " + testing::bcrypt_hash("s3cret") + "\n"));
  ASSERT_EQ(clear_passwords.warnings.size(), 1u);
  EXPECT_NE(clear_passwords.warnings[0].find("basic_auth_users without tls_server_config"), std::string::npos);
}

}  // namespace
}  // namespace topdown::serve
