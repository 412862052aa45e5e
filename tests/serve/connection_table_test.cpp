// ConnectionTable's choice at a cap, on socket pairs: which connection it
// shuts is seen at the other end of the pair, where a shut socket reads as
// closed at once.
#include "serve/connection_table.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <thread>
#include <vector>

namespace topdown::serve {
namespace {

using std::chrono::hours;

// One connection as the server and its client see it.
class Pair {
 public:
  Pair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends_.data()), 0); }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;
  ~Pair() {
    ::close(ends_[0]);
    ::close(ends_[1]);
  }
  int server_end() const { return ends_[0]; }
  // Whether the server's end was shut: the client's end then reads end of file.
  bool shut() const {
    pollfd watched{ends_[1], POLLIN, 0};
    char byte = 0;
    return ::poll(&watched, 1, 0) == 1 && ::recv(ends_[1], &byte, 1, MSG_DONTWAIT) == 0;
  }

 private:
  std::array<int, 2> ends_{};
};

// Opened one after the other, so that each has waited longer than the next.
void open_in_order(ConnectionTable& table, const std::vector<Pair*>& pairs, const std::string& address) {
  for (Pair* pair : pairs) {
    table.opened(pair, pair->server_end(), address);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

TEST(ConnectionTable, AtTheCapPerAddressTheLongestWaitingOfThatAddressIsClosed) {
  ConnectionTable table(hours(1), {100, 2});
  Pair first, second, other, third;
  open_in_order(table, {&first, &second}, "10.0.0.1");
  open_in_order(table, {&other}, "10.0.0.2");
  open_in_order(table, {&third}, "10.0.0.1");
  EXPECT_TRUE(first.shut());
  EXPECT_FALSE(second.shut());
  EXPECT_FALSE(other.shut());
  EXPECT_FALSE(third.shut());
  EXPECT_EQ(table.closed_for_caps(), 1U);
}

TEST(ConnectionTable, AConnectionBeingAnsweredIsNeverClosedForACap) {
  ConnectionTable table(hours(1), {100, 2});
  Pair served, waiting, newest;
  open_in_order(table, {&served, &waiting}, "10.0.0.1");
  table.head_received(&served);
  open_in_order(table, {&newest}, "10.0.0.1");
  EXPECT_FALSE(served.shut());
  EXPECT_TRUE(waiting.shut());
  EXPECT_FALSE(newest.shut());
}

TEST(ConnectionTable, WhenEveryOtherIsAnsweredTheNewConnectionIsTheOneClosed) {
  ConnectionTable table(hours(1), {100, 2});
  Pair a, b, refused;
  open_in_order(table, {&a, &b}, "10.0.0.1");
  table.head_received(&a);
  table.head_received(&b);
  open_in_order(table, {&refused}, "10.0.0.1");
  EXPECT_FALSE(a.shut());
  EXPECT_FALSE(b.shut());
  EXPECT_TRUE(refused.shut());
}

TEST(ConnectionTable, AnAnsweredKeepAliveConnectionWaitsAgainFromItsAnswer) {
  ConnectionTable table(hours(1), {100, 2});
  Pair older, answered, newest;
  open_in_order(table, {&older, &answered}, "10.0.0.1");
  table.head_received(&older);
  table.answered(&older);  // now waits for its next head, since after `answered` opened
  open_in_order(table, {&newest}, "10.0.0.1");
  EXPECT_FALSE(older.shut());
  EXPECT_TRUE(answered.shut());
}

TEST(ConnectionTable, AtTheCapInAllTheAddressHoldingMostGivesUpItsLongestWaiting) {
  ConnectionTable table(hours(1), {3, 10});
  Pair lone, crowd_first, crowd_second, newcomer;
  open_in_order(table, {&lone}, "10.0.0.1");
  open_in_order(table, {&crowd_first, &crowd_second}, "10.0.0.2");
  open_in_order(table, {&newcomer}, "10.0.0.3");
  EXPECT_FALSE(lone.shut());  // waited longest, but its address holds one connection
  EXPECT_TRUE(crowd_first.shut());
  EXPECT_FALSE(crowd_second.shut());
  EXPECT_FALSE(newcomer.shut());
}

TEST(ConnectionTable, AClosedConnectionFreesItsPlaceUnderTheCaps) {
  ConnectionTable table(hours(1), {100, 2});
  Pair first, second, third;
  open_in_order(table, {&first, &second}, "10.0.0.1");
  table.closed(&first);
  open_in_order(table, {&third}, "10.0.0.1");
  EXPECT_FALSE(second.shut());
  EXPECT_FALSE(third.shut());
  EXPECT_EQ(table.closed_for_caps(), 0U);
}

TEST(ConnectionTable, AShutConnectionNoLongerCountsWhileTheServerClosesIt) {
  ConnectionTable table(hours(1), {100, 2});
  Pair first, second, third, fourth;
  open_in_order(table, {&first, &second, &third}, "10.0.0.1");  // shuts first
  open_in_order(table, {&fourth}, "10.0.0.1");                  // shuts second, not first again
  EXPECT_TRUE(first.shut());
  EXPECT_TRUE(second.shut());
  EXPECT_FALSE(third.shut());
  EXPECT_FALSE(fourth.shut());
  EXPECT_EQ(table.closed_for_caps(), 2U);
}

}  // namespace
}  // namespace topdown::serve
