#include "serve/head_deadline.h"

#include <sys/socket.h>

#include <algorithm>

namespace topdown::serve {

HeadDeadlines::HeadDeadlines(Clock::duration limit) : limit_(limit), sweeper_([this] { sweep(); }) {}

HeadDeadlines::~HeadDeadlines() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
  sweeper_.join();
}

void HeadDeadlines::opened(const void* key, int fd) {
  const Clock::time_point due = Clock::now() + limit_;
  std::lock_guard lock(mutex_);
  connections_[key] = Connection{fd, due};
  // Deadlines only come later than those set before, so the sweeper needs
  // waking only when it awaits none.
  if (awaited_ == Clock::time_point::max()) changed_.notify_one();
}

void HeadDeadlines::head_received(const void* key) {
  std::lock_guard lock(mutex_);
  if (const auto found = connections_.find(key); found != connections_.end()) {
    found->second.due = Clock::time_point::max();
  }
}

void HeadDeadlines::answered(const void* key) {
  const Clock::time_point due = Clock::now() + limit_;
  std::lock_guard lock(mutex_);
  if (const auto found = connections_.find(key); found != connections_.end()) {
    found->second.due = due;
    if (awaited_ == Clock::time_point::max()) changed_.notify_one();
  }
}

void HeadDeadlines::closed(const void* key) {
  std::lock_guard lock(mutex_);
  connections_.erase(key);
}

size_t HeadDeadlines::cut() const {
  std::lock_guard lock(mutex_);
  return cut_;
}

void HeadDeadlines::sweep() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const Clock::time_point now = Clock::now();
    Clock::time_point next = Clock::time_point::max();
    for (auto& [key, connection] : connections_) {
      if (connection.due <= now) {
        // The server closes the connection when it sees the socket shut;
        // until then the entry stays, with no deadline.
        ::shutdown(connection.fd, SHUT_RDWR);
        connection.due = Clock::time_point::max();
        ++cut_;
      } else {
        next = std::min(next, connection.due);
      }
    }
    awaited_ = next;
    if (next == Clock::time_point::max()) {
      changed_.wait(lock);
    } else {
      changed_.wait_until(lock, next);
    }
  }
}

}  // namespace topdown::serve
