#include "serve/http_server.h"

#include <httplib.h>

#include <sys/socket.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "common/error.h"
#include "serve/exposition.h"

namespace topdown::serve {
namespace {

// httplib's own pool queues every accepted connection without limit; this
// one makes the accepting thread wait while `max_tasks` connections are
// queued or served, which leaves the rest in the kernel's listen queue.
class BoundedPool final : public httplib::TaskQueue {
 public:
  BoundedPool(size_t threads, size_t max_tasks) : max_tasks_(std::max(max_tasks, threads)) {
    for (size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  BoundedPool(const BoundedPool&) = delete;
  BoundedPool& operator=(const BoundedPool&) = delete;
  ~BoundedPool() override = default;

  void enqueue(std::function<void()> task) override {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [this] { return tasks_ < max_tasks_ || stopping_; });
    ++tasks_;
    queue_.push_back(std::move(task));
    work_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_.notify_all();
    room_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      work_.wait(lock, [this] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping, and every connection served
      std::function<void()> task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      task();
      lock.lock();
      --tasks_;
      room_.notify_one();
    }
  }

  const size_t max_tasks_;
  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable room_;
  std::deque<std::function<void()>> queue_;
  size_t tasks_ = 0;  // queued or being served
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

constexpr const char* kPaths[] = {"/", "/metrics", "/report", "/healthz"};

bool known_path(const std::string& path) {
  return std::any_of(std::begin(kPaths), std::end(kPaths), [&](const char* known) { return path == known; });
}

}  // namespace

std::optional<std::string> report_json(const Snapshot& snapshot) {
  if (snapshot.scopes.empty()) return std::nullopt;
  std::vector<report::Report> reports;
  reports.reserve(snapshot.scopes.size());
  for (const ScopeResult& scope : snapshot.scopes) reports.push_back(scope.report);
  report::ReportWriter writer(report::Layout{report::Format::Json, {}, /*timed=*/true, /*scoped=*/true});
  return writer.write(snapshot.time_s, reports);
}

struct HttpServer::Impl {
  httplib::Server server;
  std::thread listener;
  int port = 0;
};

HttpServer::HttpServer(const ListenAddress& address, const SnapshotStore& store, std::string description,
                       const ServerLimits& limits)
    : impl_(std::make_unique<Impl>()) {
  httplib::Server& server = impl_->server;
  server.new_task_queue = [limits] { return new BoundedPool(limits.threads, limits.max_connections); };
  server.set_read_timeout(limits.read_timeout);
  server.set_write_timeout(limits.write_timeout);
  server.set_keep_alive_timeout(limits.keep_alive_timeout.count());
  server.set_keep_alive_max_count(limits.keep_alive_requests);
  server.set_payload_max_length(limits.max_request_body);
  // httplib's default adds SO_REUSEPORT, which would let a second server
  // bind the same port and take half of the scrapes.
  server.set_socket_options([](int socket) {
    const int on = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  });

  server.set_pre_routing_handler([](const httplib::Request& request, httplib::Response& response) {
    if (!known_path(request.path)) {
      response.status = 404;
      response.set_content("not found: topdown serves /metrics, /report, /healthz and /\n", "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (request.method != "GET" && request.method != "HEAD") {
      response.status = 405;
      response.set_header("Allow", "GET, HEAD");
      response.set_content("method not allowed: only GET\n", "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    }
    // None of the pages takes a body; httplib does not read one for GET, so
    // a request that announces one would otherwise be served whatever it holds.
    const bool announces_body =
        request.has_header("Transfer-Encoding") ||
        (request.has_header("Content-Length") && request.get_header_value("Content-Length") != "0");
    if (announces_body) {
      response.status = 400;
      response.set_content("bad request: a GET of topdown serve has no body\n", "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.Get("/metrics", [&store](const httplib::Request&, httplib::Response& response) {
    const auto start = std::chrono::steady_clock::now();
    const std::shared_ptr<const Snapshot> latest = store.latest();
    response.body = write_exposition(latest ? *latest : Snapshot{});
    response.body +=
        write_scrape_duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    response.set_header("Content-Type", std::string(kExpositionContentType));
  });
  server.Get("/report", [&store](const httplib::Request&, httplib::Response& response) {
    const std::shared_ptr<const Snapshot> latest = store.latest();
    std::optional<std::string> json = latest ? report_json(*latest) : std::nullopt;
    if (!json) {
      response.status = 503;
      response.set_content("no interval counted yet\n", "text/plain");
      return;
    }
    response.body = std::move(*json);
    response.set_header("Content-Type", "application/x-ndjson");
  });
  server.Get("/healthz", [&store](const httplib::Request&, httplib::Response& response) {
    const bool healthy = store.healthy();
    response.status = healthy ? 200 : 503;
    response.set_content(healthy ? "ok\n" : "counting stopped or stalled\n", "text/plain");
  });
  server.Get("/", [line = std::move(description) + "\n"](const httplib::Request&, httplib::Response& response) {
    response.set_content(line, "text/plain");
  });

  errno = 0;
  impl_->port = address.port == 0 ? server.bind_to_any_port(address.host)
                                  : (server.bind_to_port(address.host, address.port) ? address.port : -1);
  if (impl_->port < 0) {
    const int error = errno;
    throw Error("cannot listen on " + address.text() + (error ? std::string(": ") + std::strerror(error) : "") +
                " (is another program using the port, or is the address not one of this machine's?)");
  }
  impl_->listener = std::thread([this] { impl_->server.listen_after_bind(); });
  // stop() before the loop runs would not end it.
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

HttpServer::~HttpServer() { stop(); }

int HttpServer::port() const { return impl_->port; }

void HttpServer::stop() {
  if (!impl_->listener.joinable()) return;
  impl_->server.stop();
  impl_->listener.join();
}

}  // namespace topdown::serve
