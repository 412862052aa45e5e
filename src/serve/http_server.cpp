#include "serve/http_server.h"

#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "common/fd.h"
#include "serve/connection_table.h"
#include "serve/exposition.h"
#include "serve/password_check.h"

namespace topdown::serve {
namespace {

constexpr const char* kPaths[] = {"/", "/metrics", "/report", "/healthz"};

bool known_path(const char* path) {
  return std::any_of(std::begin(kPaths), std::end(kPaths),
                     [&](const char* known) { return std::strcmp(path, known) == 0; });
}

// A listening socket on `address`, bound here rather than by
// libmicrohttpd so that a failure names its cause. SO_REUSEADDR lets a
// restart bind while old connections linger; no SO_REUSEPORT, which would
// let a second server share the port and take half of the scrapes.
Fd listen_on(const ListenAddress& address) {
  const bool ipv6 = address.host.find(':') != std::string::npos;
  sockaddr_storage storage{};
  socklen_t length = 0;
  if (ipv6) {
    auto& in6 = reinterpret_cast<sockaddr_in6&>(storage);
    in6.sin6_family = AF_INET6;
    in6.sin6_port = htons(static_cast<uint16_t>(address.port));
    ::inet_pton(AF_INET6, address.host.c_str(), &in6.sin6_addr);
    length = sizeof in6;
  } else {
    auto& in4 = reinterpret_cast<sockaddr_in&>(storage);
    in4.sin_family = AF_INET;
    in4.sin_port = htons(static_cast<uint16_t>(address.port));
    ::inet_pton(AF_INET, address.host.c_str(), &in4.sin_addr);
    length = sizeof in4;
  }
  Fd socket(::socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  const int on = 1;
  const bool listening = socket.valid() && ::setsockopt(socket.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) == 0 &&
                         ::bind(socket.get(), reinterpret_cast<const sockaddr*>(&storage), length) == 0 &&
                         ::listen(socket.get(), SOMAXCONN) == 0;
  if (!listening) {
    throw Error("cannot listen on " + address.text() + ": " + std::strerror(errno) +
                " (is another program using the port, or is the address not one of this machine's?)");
  }
  return socket;
}

int bound_port(int socket) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  ::getsockname(socket, reinterpret_cast<sockaddr*>(&storage), &length);
  return storage.ss_family == AF_INET6 ? ntohs(reinterpret_cast<const sockaddr_in6&>(storage).sin6_port)
                                       : ntohs(reinterpret_cast<const sockaddr_in&>(storage).sin_port);
}

// The client's address as text: the key of the cap per address.
std::string client_address(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == nullptr || info->client_addr == nullptr) return "?";
  char text[INET6_ADDRSTRLEN] = {};
  const sockaddr* address = info->client_addr;
  if (address->sa_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr, text, sizeof text);
  } else {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(address)->sin_addr, text, sizeof text);
  }
  return text;
}

// Per connection (libmicrohttpd's socket context).
struct ConnectionState {
  size_t requests = 0;
  std::optional<bool> client_certificate_accepted;  // checked on the first request
};

// Per request (libmicrohttpd's request closure).
struct RequestState {
  enum class Password { Unchecked, Checking, Passed, Failed, Stopping };
  std::atomic<Password> password{Password::Unchecked};
  ConnectionState* connection = nullptr;
};

// A client certificate that client_auth_type asks for: present when
// required, and signed by client_ca_file's CAs when verified.
bool client_certificate_accepted(MHD_Connection* connection, ClientAuth policy) {
  if (policy == ClientAuth::None || policy == ClientAuth::Request) return true;
  const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  if (info == nullptr) return false;
  auto* session = static_cast<gnutls_session_t>(info->tls_session);
  unsigned int certificates = 0;
  const bool given = gnutls_certificate_get_peers(session, &certificates) != nullptr && certificates > 0;
  if (!given) return policy == ClientAuth::VerifyIfGiven;
  if (policy == ClientAuth::RequireAny) return true;
  unsigned int status = 0;
  return gnutls_certificate_verify_peers2(session, &status) == GNUTLS_E_SUCCESS && status == 0;
}

bool announces_body(MHD_Connection* connection) {
  const char* length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) != nullptr ||
         (length != nullptr && std::strcmp(length, "0") != 0);
}

}  // namespace

std::optional<std::string> report_json(const Snapshot& snapshot) {
  if (snapshot.scopes.empty()) return std::nullopt;
  std::vector<report::Report> reports;
  reports.reserve(snapshot.scopes.size());
  for (const ScopeResult& scope : snapshot.scopes) reports.push_back(scope.report);
  report::Layout layout{report::Format::Json, {}, /*timed=*/true, /*scoped=*/true};
  layout.core_typed = !reports.front().core_type.empty();
  report::ReportWriter writer(layout);
  return writer.write(snapshot.time_s, reports);
}

struct HttpServer::Impl {
  Impl(const SnapshotStore& served, std::string line, const WebConfig& web_config, const ServerLimits& server_limits)
      : store(served),
        description(std::move(line) + "\n"),
        web(web_config),
        limits(server_limits),
        connections(server_limits.head_deadline,
                    {server_limits.max_connections, server_limits.max_connections_per_client}) {
    if (!web.users.empty()) {
      passwords.emplace(web.users);
      checker.emplace(*passwords);
    }
  }

  // libmicrohttpd's callbacks, with `this` as their closure.
  static MHD_Result on_request(void* cls, MHD_Connection* connection, const char* url, const char* method,
                               const char* version, const char* upload_data, size_t* upload_data_size,
                               void** request_closure);
  static void on_connection(void* cls, MHD_Connection* connection, void** socket_context,
                            MHD_ConnectionNotificationCode code);
  static void on_completed(void* cls, MHD_Connection* connection, void** request_closure,
                           MHD_RequestTerminationCode code);

  MHD_Result handle(MHD_Connection* connection, const char* url, const char* method, RequestState& request);
  // nullopt when the request's user and password passed; else what to give
  // libmicrohttpd: MHD_YES while their check runs (on the checker's thread,
  // the connection suspended until it ends), or the 401 or 503 queued.
  std::optional<MHD_Result> authenticate(MHD_Connection* connection, RequestState& request);
  MHD_Result respond(MHD_Connection* connection, const RequestState& request, unsigned int status, std::string body,
                     std::string_view content_type,
                     const std::vector<std::pair<const char*, const char*>>& headers = {}) const;

  const SnapshotStore& store;
  const std::string description;
  const WebConfig web;
  const ServerLimits limits;
  std::optional<PasswordCheck> passwords;
  std::optional<PasswordChecker> checker;
  ConnectionTable connections;
  MHD_Daemon* daemon = nullptr;
  int port = 0;
};

MHD_Result HttpServer::Impl::respond(MHD_Connection* connection, const RequestState& request, unsigned int status,
                                     std::string body, std::string_view content_type,
                                     const std::vector<std::pair<const char*, const char*>>& headers) const {
  auto* text = new std::string(std::move(body));
  MHD_Response* response = MHD_create_response_from_buffer_with_free_callback_cls(
      text->size(), text->data(), [](void* owned) { delete static_cast<std::string*>(owned); }, text);
  if (response == nullptr) return MHD_NO;
  MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, std::string(content_type).c_str());
  for (const auto& [name, value] : web.headers) MHD_add_response_header(response, name.c_str(), value.c_str());
  for (const auto& [name, value] : headers) MHD_add_response_header(response, name, value);
  if (request.connection != nullptr && request.connection->requests >= limits.keep_alive_requests) {
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
  }
  const MHD_Result queued = MHD_queue_response(connection, status, response);
  MHD_destroy_response(response);
  return queued;
}

std::optional<MHD_Result> HttpServer::Impl::authenticate(MHD_Connection* connection, RequestState& request) {
  using Password = RequestState::Password;
  bool suspended = false;
  if (request.password == Password::Unchecked) {
    char* password = nullptr;
    char* user = MHD_basic_auth_get_username_password(connection, &password);
    if (user != nullptr && password != nullptr) {
      if (passwords->remembered(user, password)) {
        request.password = Password::Passed;
      } else {
        request.password = Password::Checking;
        // Suspended before the checker can resume it: the check cannot end first.
        MHD_suspend_connection(connection);
        suspended = true;
        const bool queued = checker->submit(user, password, [connection, &request](std::optional<bool> passed) {
          request.password = !passed ? Password::Stopping : *passed ? Password::Passed : Password::Failed;
          MHD_resume_connection(connection);
        });
        if (!queued) {
          request.password = Password::Stopping;
          MHD_resume_connection(connection);
        }
      }
    } else {
      request.password = Password::Failed;
    }
    if (password != nullptr) {
      gnutls_memset(password, 0, std::strlen(password));
      MHD_free(password);
    }
    if (user != nullptr) MHD_free(user);
  }
  // A suspended connection takes no answer: this is called again once it is
  // resumed, whatever the check's end.
  if (suspended) return MHD_YES;
  const Password checked = request.password;
  if (checked == Password::Passed) return std::nullopt;
  if (checked == Password::Stopping) {
    return respond(connection, request, MHD_HTTP_SERVICE_UNAVAILABLE, "stopping\n", "text/plain");
  }
  return respond(connection, request, MHD_HTTP_UNAUTHORIZED, "unauthorized: give a user and password\n", "text/plain",
                 {{MHD_HTTP_HEADER_WWW_AUTHENTICATE, R"(Basic realm="topdown", charset="UTF-8")"}});
}

MHD_Result HttpServer::Impl::handle(MHD_Connection* connection, const char* url, const char* method,
                                    RequestState& request) {
  if (web.tls && web.tls->client_auth != ClientAuth::None && request.connection != nullptr) {
    std::optional<bool>& accepted = request.connection->client_certificate_accepted;
    if (!accepted) accepted = client_certificate_accepted(connection, web.tls->client_auth);
    if (!*accepted) {
      return respond(connection, request, MHD_HTTP_FORBIDDEN,
                     "forbidden: this server needs a client certificate from its CAs\n", "text/plain");
    }
  }
  if (passwords) {
    if (std::optional<MHD_Result> answered = authenticate(connection, request)) return *answered;
  }
  if (!known_path(url)) {
    return respond(connection, request, MHD_HTTP_NOT_FOUND,
                   "not found: topdown serves /metrics, /report, /healthz and /\n", "text/plain");
  }
  if (std::strcmp(method, MHD_HTTP_METHOD_GET) != 0 && std::strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
    return respond(connection, request, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: only GET\n", "text/plain",
                   {{MHD_HTTP_HEADER_ALLOW, "GET, HEAD"}});
  }
  // None of the pages takes a body; one announced is refused rather than read.
  if (announces_body(connection)) {
    return respond(connection, request, MHD_HTTP_BAD_REQUEST, "bad request: a GET of topdown serve has no body\n",
                   "text/plain");
  }
  const std::string_view path = url;
  if (path == "/metrics") {
    const auto start = std::chrono::steady_clock::now();
    const std::shared_ptr<const Snapshot> latest = store.latest();
    std::string body = write_exposition(latest ? *latest : Snapshot{});
    body += write_scrape_duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return respond(connection, request, MHD_HTTP_OK, std::move(body), kExpositionContentType);
  }
  if (path == "/report") {
    const std::shared_ptr<const Snapshot> latest = store.latest();
    std::optional<std::string> json = latest ? report_json(*latest) : std::nullopt;
    if (!json)
      return respond(connection, request, MHD_HTTP_SERVICE_UNAVAILABLE, "no interval counted yet\n", "text/plain");
    return respond(connection, request, MHD_HTTP_OK, std::move(*json), "application/x-ndjson");
  }
  if (path == "/healthz") {
    const bool healthy = store.healthy();
    return respond(connection, request, healthy ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE,
                   healthy ? "ok\n" : "counting stopped or stalled\n", "text/plain");
  }
  return respond(connection, request, MHD_HTTP_OK, description, "text/plain");
}

MHD_Result HttpServer::Impl::on_request(void* cls, MHD_Connection* connection, const char* url, const char* method,
                                        const char* /*version*/, const char* /*upload_data*/, size_t* upload_data_size,
                                        void** request_closure) {
  auto& impl = *static_cast<Impl*>(cls);
  if (*request_closure == nullptr) {
    // The head is complete: the first call of a request.
    impl.connections.head_received(connection);
    auto* request = new RequestState;
    const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (info != nullptr && info->socket_context != nullptr) {
      request->connection = static_cast<ConnectionState*>(info->socket_context);
      ++request->connection->requests;
    }
    *request_closure = request;
    // Answered on the next call, when libmicrohttpd has taken the whole
    // request: an answer queued now would close the connection after it. A
    // request announcing a body is answered now instead, so that the body is
    // never read.
    if (!announces_body(connection)) return MHD_YES;
  }
  *upload_data_size = 0;
  return impl.handle(connection, url, method, *static_cast<RequestState*>(*request_closure));
}

void HttpServer::Impl::on_connection(void* cls, MHD_Connection* connection, void** socket_context,
                                     MHD_ConnectionNotificationCode code) {
  auto& impl = *static_cast<Impl*>(cls);
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    *socket_context = new ConnectionState;
    if (info != nullptr) impl.connections.opened(connection, info->connect_fd, client_address(connection));
  } else {
    impl.connections.closed(connection);
    delete static_cast<ConnectionState*>(*socket_context);
    *socket_context = nullptr;
  }
}

void HttpServer::Impl::on_completed(void* cls, MHD_Connection* connection, void** request_closure,
                                    MHD_RequestTerminationCode /*code*/) {
  auto& impl = *static_cast<Impl*>(cls);
  delete static_cast<RequestState*>(*request_closure);
  *request_closure = nullptr;
  impl.connections.answered(connection);
}

HttpServer::HttpServer(const ListenAddress& address, const SnapshotStore& store, std::string description,
                       const WebConfig& web, const ServerLimits& limits)
    : impl_(std::make_unique<Impl>(store, std::move(description), web, limits)) {
  Fd socket = listen_on(address);
  impl_->port = bound_port(socket.get());
  Impl* impl = impl_.get();
  std::vector<MHD_OptionItem> options = {
      {MHD_OPTION_LISTEN_SOCKET, socket.get(), nullptr},
      // One over the cap in all, so that the connection that passes it is
      // accepted and the table closes the one that has waited longest for a
      // head; the caps per address are the table's alone.
      {MHD_OPTION_CONNECTION_LIMIT, static_cast<intptr_t>(limits.max_connections + 1), nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT, static_cast<intptr_t>(limits.idle_timeout.count()), nullptr},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<intptr_t>(limits.max_head_bytes), nullptr},
      {MHD_OPTION_NOTIFY_CONNECTION, reinterpret_cast<intptr_t>(&Impl::on_connection), impl},
      {MHD_OPTION_NOTIFY_COMPLETED, reinterpret_cast<intptr_t>(&Impl::on_completed), impl},
  };
  unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD;
  if (impl->checker) flags |= MHD_ALLOW_SUSPEND_RESUME;
  if (const std::optional<TlsConfig>& tls = impl->web.tls) {
    flags |= MHD_USE_TLS;
    options.push_back({MHD_OPTION_HTTPS_MEM_CERT, 0, const_cast<char*>(tls->certificate.c_str())});
    options.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0, const_cast<char*>(tls->key.c_str())});
    options.push_back({MHD_OPTION_HTTPS_PRIORITIES, 0, const_cast<char*>(tls->priorities.c_str())});
    if (!tls->client_ca.empty()) {
      options.push_back({MHD_OPTION_HTTPS_MEM_TRUST, 0, const_cast<char*>(tls->client_ca.c_str())});
    }
  }
  options.push_back({MHD_OPTION_END, 0, nullptr});
  impl->daemon = MHD_start_daemon(flags, 0, nullptr, nullptr, &Impl::on_request, impl, MHD_OPTION_ARRAY, options.data(),
                                  MHD_OPTION_END);
  if (impl->daemon == nullptr) {
    throw Error("cannot serve on " + address.text() +
                (impl->web.tls ? ": libmicrohttpd refused the TLS settings (is it built with TLS?)"
                               : ": libmicrohttpd could not start (out of memory or threads?)"));
  }
  static_cast<void>(socket.release());  // the daemon closes it
}

HttpServer::~HttpServer() { stop(); }

int HttpServer::port() const { return impl_->port; }

void HttpServer::stop() {
  if (impl_->daemon == nullptr) return;
  // Suspended connections must be resumed before the daemon stops.
  if (impl_->checker) impl_->checker->stop();
  MHD_stop_daemon(impl_->daemon);
  impl_->daemon = nullptr;
}

}  // namespace topdown::serve
