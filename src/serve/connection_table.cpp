#include "serve/connection_table.h"

#include <sys/socket.h>

#include <algorithm>

namespace topdown::serve {

ConnectionTable::ConnectionTable(Clock::duration head_limit, Caps caps)
    : head_limit_(head_limit), caps_(caps), sweeper_([this] { sweep(); }) {}

ConnectionTable::~ConnectionTable() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
  sweeper_.join();
}

void ConnectionTable::opened(const void* key, int fd, const std::string& address) {
  const Clock::time_point now = Clock::now();
  std::lock_guard lock(mutex_);
  connections_[key] = Connection{fd, address, now};
  const size_t from_address = ++open_per_address_[address];
  ++open_;
  Connection* closed = nullptr;
  if (from_address > caps_.per_address) {
    closed = longest_waiting(address);
  } else if (open_ > caps_.in_all) {
    closed = longest_waiting_of_a_crowd();
  }
  if (closed != nullptr) {
    shut(*closed);
    ++closed_for_caps_;
  }
  // Deadlines only come later than those set before, so the sweeper needs
  // waking only when it awaits none.
  if (awaited_ == Clock::time_point::max()) changed_.notify_one();
}

void ConnectionTable::head_received(const void* key) {
  std::lock_guard lock(mutex_);
  if (const auto found = connections_.find(key); found != connections_.end()) {
    found->second.waiting_since = Clock::time_point::max();
  }
}

void ConnectionTable::answered(const void* key) {
  const Clock::time_point now = Clock::now();
  std::lock_guard lock(mutex_);
  if (const auto found = connections_.find(key); found != connections_.end() && !found->second.closing) {
    found->second.waiting_since = now;
    if (awaited_ == Clock::time_point::max()) changed_.notify_one();
  }
}

void ConnectionTable::closed(const void* key) {
  std::lock_guard lock(mutex_);
  const auto found = connections_.find(key);
  if (found == connections_.end()) return;
  if (!found->second.closing) {
    --open_;
    if (--open_per_address_[found->second.address] == 0) open_per_address_.erase(found->second.address);
  }
  connections_.erase(found);
}

size_t ConnectionTable::cut() const {
  std::lock_guard lock(mutex_);
  return cut_;
}

size_t ConnectionTable::closed_for_caps() const {
  std::lock_guard lock(mutex_);
  return closed_for_caps_;
}

bool ConnectionTable::waits(const Connection& connection) {
  return !connection.closing && connection.waiting_since != Clock::time_point::max();
}

ConnectionTable::Connection* ConnectionTable::longest_waiting(const std::string& address) {
  Connection* longest = nullptr;
  for (auto& [key, connection] : connections_) {
    if (waits(connection) && connection.address == address &&
        (longest == nullptr || connection.waiting_since < longest->waiting_since)) {
      longest = &connection;
    }
  }
  return longest;
}

ConnectionTable::Connection* ConnectionTable::longest_waiting_of_a_crowd() {
  Connection* chosen = nullptr;
  size_t chosen_crowd = 0;
  for (auto& [key, connection] : connections_) {
    if (!waits(connection)) continue;
    const size_t crowd = open_per_address_.at(connection.address);
    if (chosen == nullptr || crowd > chosen_crowd ||
        (crowd == chosen_crowd && connection.waiting_since < chosen->waiting_since)) {
      chosen = &connection;
      chosen_crowd = crowd;
    }
  }
  return chosen;
}

// The server closes the connection when it sees the socket shut; until then
// the entry stays, counted under no cap and with no deadline.
void ConnectionTable::shut(Connection& connection) {
  ::shutdown(connection.fd, SHUT_RDWR);
  connection.closing = true;
  connection.waiting_since = Clock::time_point::max();
  --open_;
  if (--open_per_address_[connection.address] == 0) open_per_address_.erase(connection.address);
}

void ConnectionTable::sweep() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const Clock::time_point now = Clock::now();
    Clock::time_point next = Clock::time_point::max();
    for (auto& [key, connection] : connections_) {
      if (!waits(connection)) continue;
      const Clock::time_point due = connection.waiting_since + head_limit_;
      if (due <= now) {
        shut(connection);
        ++cut_;
      } else {
        next = std::min(next, due);
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
