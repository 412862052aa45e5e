#pragma once
// Running `topdown serve` (and Prometheus) from tests and benchmarks: a
// child process with its stderr in a file, free loopback ports, scrapes
// parsed into series, and the load of many clients, garbage requests and
// slow-loris connections.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/http_client.h"

namespace topdown::testing {

// A port free on loopback now (another program may take it before use).
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

// A program started with execvp, stdout and stderr in `log`; SIGKILLed if
// still running when destroyed.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::string& log) {
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> args;
      for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  pid_t pid() const { return pid_; }
  void signal(int number) const { ::kill(pid_, number); }
  bool running() {
    if (status_) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
    return !status_;
  }
  // The exit status (128+N for signal N), waiting at most `limit`; nullopt if still running.
  std::optional<int> wait(std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (running() && std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!status_) return std::nullopt;
    return WIFEXITED(*status_) ? WEXITSTATUS(*status_) : 128 + WTERMSIG(*status_);
  }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// Waits until GET `path` on loopback `port` answers 200.
inline bool wait_for_http(int port, const std::string& path, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    HttpClient client(port);
    client.timeout(std::chrono::milliseconds(500));
    if (const HttpResponse result = client.get(path); result && result.status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// A series as Prometheus keys it: the name and the labels with a value
// (Prometheus drops empty ones), sorted.
using SeriesKey = std::pair<std::string, std::map<std::string, std::string>>;

// The samples of an exposition-format text (values as doubles).
inline std::map<SeriesKey, double> parse_exposition(const std::string& text) {
  std::map<SeriesKey, double> series;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    const size_t brace = line.find('{');
    SeriesKey key;
    key.first = line.substr(0, std::min(brace, space));
    if (brace != std::string::npos) {
      size_t at = brace + 1;
      while (line[at] != '}') {
        const size_t equals = line.find('=', at);
        std::string name = line.substr(at, equals - at);
        std::string value;
        at = equals + 2;  // past ="
        for (; line[at] != '"'; ++at) {
          if (line[at] == '\\') {
            ++at;
            value += line[at] == 'n' ? '\n' : line[at];
          } else {
            value += line[at];
          }
        }
        ++at;  // the closing quote
        if (line[at] == ',') ++at;
        if (!value.empty()) key.second.emplace(std::move(name), std::move(value));
      }
    }
    series[key] = std::stod(line.substr(space + 1));
  }
  return series;
}

// The /proc/PID/status field (kB for VmRSS), or -1.
inline long proc_status_field(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

// utime + stime of `pid` in seconds.
inline double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
    if (i == 15) break;
  }
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

inline long open_fds(pid_t pid) {
  long count = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    ++count;
  }
  return count;
}

// What a load run measured.
struct LoadResult {
  std::vector<double> latencies_s;  // of the scrapes that succeeded
  size_t failed = 0;                // scrapes without a 200 answer
  double percentile_s(double fraction) const {
    if (latencies_s.empty()) return 0;
    std::vector<double> sorted = latencies_s;
    std::sort(sorted.begin(), sorted.end());
    return sorted[std::min(sorted.size() - 1, static_cast<size_t>(fraction * static_cast<double>(sorted.size())))];
  }
  double p99_s() const { return percentile_s(0.99); }
};

// Opens a loopback connection to `port`; -1 on failure.
inline int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// `scrapes` GET /metrics from `clients` threads (each its own keep-alive
// connection), while other threads send garbage requests and hold
// `slow_loris` connections that send a header byte every half second.
inline LoadResult load(int port, size_t scrapes, size_t clients, size_t garbage, size_t slow_loris) {
  std::atomic<size_t> next{0};
  std::atomic<bool> done{false};
  std::vector<std::vector<double>> latencies(clients);
  std::atomic<size_t> failed{0};
  std::vector<std::thread> threads;
  for (size_t c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      HttpClient client(port);
      while (next.fetch_add(1) < scrapes) {
        const auto start = std::chrono::steady_clock::now();
        const HttpResponse result = client.get("/metrics");
        if (result && result.status == 200) {
          latencies[c].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        } else {
          ++failed;
        }
      }
    });
  }
  std::thread garbage_sender([&] {
    const std::string requests[] = {
        "\x16\x03\x01garbage\r\n\r\n", "GET /metrics HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n",
        "POST /metrics HTTP/1.1\r\n\r\n", "GET /" + std::string(10000, 'x') + " HTTP/1.1\r\n\r\n",
        "GET /metrics HTTP/9.9\r\n" + std::string(9000, 'h') + "\r\n\r\n"};
    for (size_t i = 0; i < garbage; ++i) {
      const int fd = connect_loopback(port);
      if (fd < 0) continue;
      const std::string& request = requests[i % std::size(requests)];
      (void)!::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
      ::close(fd);
    }
  });
  std::vector<std::thread> lorises;
  for (size_t i = 0; i < slow_loris; ++i) {
    lorises.emplace_back([&] {
      while (!done) {
        const int fd = connect_loopback(port);
        if (fd < 0) return;
        (void)!::send(fd, "GET /metrics HTTP/1.1\r\n", 23, MSG_NOSIGNAL);
        while (!done && ::send(fd, "X", 1, MSG_NOSIGNAL) == 1)
          std::this_thread::sleep_for(std::chrono::milliseconds(500));
        ::close(fd);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  garbage_sender.join();
  done = true;
  for (std::thread& thread : lorises) thread.join();
  LoadResult result;
  for (const auto& of_client : latencies)
    result.latencies_s.insert(result.latencies_s.end(), of_client.begin(), of_client.end());
  result.failed = failed;
  return result;
}

}  // namespace topdown::testing
