// What happens when sessions meet threads (run under ThreadSanitizer in CI).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fake_reader.h"
#include "perf/open_failure.h"
#include "topdown/region.h"

namespace topdown::region {
namespace {

using testing::zen5_level1_session;

TEST(RegionThreads, AnotherThreadGetsWrongThreadAndChangesNothing) {
  testing::FakeSession fake = zen5_level1_session();
  const RegionId work = fake.session.region("work");
  fake.session.begin(work);
  std::vector<ErrorCode> codes;
  std::string message;
  std::thread other([&] {
    for (auto action : {+[](Session&s, RegionId id) { s.begin(id); }, +[](Session&s, RegionId) { s.end(); },
                        +[](Session&s, RegionId) { s.region("other"); }}) {
      try {
        action(fake.session, work);
        codes.push_back(ErrorCode::Ok);
      } catch (const Error& error) {
        codes.push_back(error.code());
        message = error.what();
      }
    }
  });
  other.join();
  EXPECT_EQ(codes, std::vector<ErrorCode>(3, ErrorCode::WrongThread));
  EXPECT_NE(message.find("open a session on each thread"), std::string::npos) << message;
  EXPECT_EQ(fake.reader->reads, 1);  // only the owner's begin read the counters
  fake.session.end();
  const auto results = fake.session.results();
  ASSERT_EQ(results.size(), 1u);  // "other" was not registered
  EXPECT_EQ(results[0].calls, 1u);
  EXPECT_DOUBLE_EQ(*results[0].slots, 8000.0);
}

TEST(RegionThreads, EachThreadsOwnSessionCountsIndependently) {
  constexpr int kThreads = 4;
  std::vector<std::optional<RegionResult>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &results] {
      testing::FakeSession fake = zen5_level1_session();
      const RegionId work = fake.session.region("work");
      for (int i = 0; i <= t; ++i) {
        Scope scope(fake.session, work);
      }
      results[static_cast<std::size_t>(t)] = fake.session.result("work");
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    const auto& result = results[static_cast<std::size_t>(t)];
    ASSERT_TRUE(result.has_value()) << t;
    EXPECT_EQ(result->calls, static_cast<uint64_t>(t + 1)) << t;
    EXPECT_DOUBLE_EQ(*result->slots, 8000.0 * (t + 1)) << t;
    EXPECT_DOUBLE_EQ(*result->find("Retiring")->fraction, 0.3) << t;
  }
}

TEST(RegionThreads, ResultsMayBeReadOnAnotherThreadAfterTheOwnerIsDone) {
  std::optional<testing::FakeSession> fake;
  std::thread owner([&] {
    fake.emplace(zen5_level1_session());
    fake->session.begin("work");
    fake->session.end();
  });
  owner.join();
  const auto result = fake->session.result("work");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->calls, 1u);
  EXPECT_DOUBLE_EQ(*result->find("Frontend_Bound")->fraction, 0.25);
  fake.reset();  // destroyed on this thread too
}

TEST(RegionThreads, LiveSessionsOnSeveralThreadsCountTheirOwnThread) {
  if (!perf::pmu_available()) GTEST_SKIP() << "no hardware PMU on this machine (a VM without vPMU?)";
  constexpr int kThreads = 2;
  std::vector<std::optional<RegionResult>> results(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &results, &errors] {
      std::optional<Error> error;
      auto session = Session::try_open({}, &error);
      if (!session) {
        errors[static_cast<std::size_t>(t)] = error->what();
        return;
      }
      volatile uint64_t sink = 0;
      {
        Scope scope(*session, "spin");
        // Thread t does t + 1 times the work, so their slots must differ.
        for (uint64_t i = 0; i < 20'000'000ull * static_cast<uint64_t>(t + 1); ++i) sink = sink + i;
      }
      results[static_cast<std::size_t>(t)] = session->result("spin");
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) ASSERT_TRUE(errors[static_cast<std::size_t>(t)].empty()) << errors[t];
  ASSERT_TRUE(results[0]->slots && results[1]->slots);
  EXPECT_EQ(results[0]->calls, 1u);
  EXPECT_NEAR(*results[1]->slots / *results[0]->slots, 2.0, 0.4);
}

// The same on the kernel's software events, so that every machine (and
// ThreadSanitizer in CI) runs sessions opened, used and read on several
// threads at once.
TEST(RegionThreads, SoftwareEventSessionsOnSeveralThreadsAreIndependent) {
  constexpr int kThreads = 3;
  std::vector<std::optional<RegionResult>> results(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &results, &errors] {
      Options options;
      options.model_file = TOPDOWN_SOURCE_DIR "/tests/data/software.model";
      std::optional<Error> error;
      auto session = Session::try_open(options, &error);
      if (!session) {
        errors[static_cast<std::size_t>(t)] = error->what();
        return;
      }
      const RegionId work = session->region("work");
      for (int call = 0; call <= t; ++call) Scope scope(*session, work);
      results[static_cast<std::size_t>(t)] = session->result("work");
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    const std::string& error = errors[static_cast<std::size_t>(t)];
    if (error.find("not permitted") != std::string::npos) GTEST_SKIP() << error;
    ASSERT_TRUE(error.empty()) << error;
    const auto& result = results[static_cast<std::size_t>(t)];
    ASSERT_TRUE(result.has_value()) << t;
    EXPECT_EQ(result->calls, static_cast<uint64_t>(t + 1)) << t;
    EXPECT_EQ(result->dropped_calls, 0u) << t;
  }
}

TEST(RegionThreads, CApiErrorMessagesBelongToTheThreadThatFailed) {
  EXPECT_EQ(td_region_begin_named(nullptr, "work"), TD_REGION_ERR_INVALID_ARGUMENT);
  std::thread other([] {
    td_region_session* session = nullptr;
    EXPECT_EQ(td_region_open(nullptr, &session), TD_REGION_ERR_INVALID_ARGUMENT);
    EXPECT_STREQ(td_region_last_error(), "options is NULL");
  });
  other.join();
  EXPECT_STREQ(td_region_last_error(), "session is NULL");
}

}  // namespace
}  // namespace topdown::region
