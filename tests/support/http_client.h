#pragma once
// An HTTP(S) client for tests and benchmarks of `topdown serve` and of the
// Prometheus beside it (libcurl). A client keeps its connection between
// requests (keep-alive) until the server closes it.
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <string>

namespace topdown::testing {

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string error;                           // libcurl's, when there is no answer

  explicit operator bool() const { return error.empty(); }
  std::string header(std::string name) const {
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    const auto found = headers.find(name);
    return found == headers.end() ? "" : found->second;
  }
};

class HttpClient {
 public:
  // Requests go to `scheme`://127.0.0.1:`port`.
  explicit HttpClient(int port, const std::string& scheme = "http")
      : base_(scheme + "://127.0.0.1:" + std::to_string(port)) {
    static const bool initialized = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    if (initialized) handle_ = curl_easy_init();
    timeout(std::chrono::seconds(20));
  }
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;
  ~HttpClient() {
    if (handle_ != nullptr) curl_easy_cleanup(handle_);
  }

  // The whole exchange's limit, and the connection's.
  HttpClient& timeout(std::chrono::milliseconds limit) {
    curl_easy_setopt(handle_, CURLOPT_TIMEOUT_MS, static_cast<long>(limit.count()));
    curl_easy_setopt(handle_, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(limit.count()));
    return *this;
  }
  // HTTPS: the CA that signed the server's certificate, and no other (the
  // system's folder of CAs would also cost each handshake some 50 ms).
  HttpClient& ca_file(const std::string& path) {
    curl_easy_setopt(handle_, CURLOPT_CAINFO, path.c_str());
    curl_easy_setopt(handle_, CURLOPT_CAPATH, nullptr);
    return *this;
  }
  // HTTPS: a client certificate and its key.
  HttpClient& client_certificate(const std::string& certificate, const std::string& key) {
    curl_easy_setopt(handle_, CURLOPT_SSLCERT, certificate.c_str());
    curl_easy_setopt(handle_, CURLOPT_SSLKEY, key.c_str());
    return *this;
  }
  // Basic authentication.
  HttpClient& user(const std::string& name, const std::string& password) {
    curl_easy_setopt(handle_, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(handle_, CURLOPT_USERNAME, name.c_str());
    curl_easy_setopt(handle_, CURLOPT_PASSWORD, password.c_str());
    return *this;
  }

  HttpResponse get(const std::string& path) { return request("GET", path, ""); }
  HttpResponse head(const std::string& path) { return request("HEAD", path, ""); }
  HttpResponse post(const std::string& path, const std::string& body) { return request("POST", path, body); }
  HttpResponse del(const std::string& path) { return request("DELETE", path, ""); }

  HttpResponse request(const std::string& method, const std::string& path, const std::string& body) {
    HttpResponse response;
    if (handle_ == nullptr) {
      response.error = "libcurl did not start";
      return response;
    }
    const std::string url = base_ + path;
    curl_easy_setopt(handle_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle_, CURLOPT_NOBODY, method == "HEAD" ? 1L : 0L);
    curl_easy_setopt(handle_, CURLOPT_CUSTOMREQUEST, method == "HEAD" || method == "GET" ? nullptr : method.c_str());
    curl_easy_setopt(handle_, CURLOPT_POSTFIELDS, method == "POST" ? body.c_str() : nullptr);
    if (method != "POST") curl_easy_setopt(handle_, CURLOPT_HTTPGET, method == "HEAD" ? 0L : 1L);
    curl_easy_setopt(handle_, CURLOPT_WRITEFUNCTION, &append_body);
    curl_easy_setopt(handle_, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(handle_, CURLOPT_HEADERFUNCTION, &add_header);
    curl_easy_setopt(handle_, CURLOPT_HEADERDATA, &response.headers);
    const CURLcode result = curl_easy_perform(handle_);
    if (result != CURLE_OK) {
      response.error = curl_easy_strerror(result);
      return response;
    }
    curl_easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
  }

  // `text` escaped for a URL's query.
  std::string escape(const std::string& text) const {
    char* escaped = curl_easy_escape(handle_, text.c_str(), static_cast<int>(text.size()));
    std::string result = escaped != nullptr ? escaped : "";
    curl_free(escaped);
    return result;
  }

 private:
  static size_t append_body(char* data, size_t size, size_t count, void* body) {
    static_cast<std::string*>(body)->append(data, size * count);
    return size * count;
  }
  static size_t add_header(char* data, size_t size, size_t count, void* headers) {
    const std::string line(data, size * count);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      const size_t start = line.find_first_not_of(' ', colon + 1);
      const size_t end = line.find_last_not_of("\r\n");
      (*static_cast<std::map<std::string, std::string>*>(headers))[name] =
          start == std::string::npos || end < start ? "" : line.substr(start, end - start + 1);
    }
    return size * count;
  }

  std::string base_;
  CURL* handle_ = nullptr;
};

}  // namespace topdown::testing
