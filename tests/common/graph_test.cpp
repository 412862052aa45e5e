#include "common/graph.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace topdown {
namespace {

using Edges = std::map<int, std::vector<int>>;

std::vector<int> cycle_in(const Edges& edges, const std::vector<int>& starts) {
  return find_cycle(starts, [&](int node) {
    const auto found = edges.find(node);
    return found == edges.end() ? std::vector<int>{} : found->second;
  });
}

TEST(FindCycle, NoneInATreeOrADiamond) {
  EXPECT_TRUE(cycle_in({{1, {2, 3}}, {2, {4}}, {3, {4}}}, {1, 2, 3, 4}).empty());
  EXPECT_TRUE(cycle_in({}, {1}).empty());
  EXPECT_TRUE(cycle_in({}, {}).empty());
}

TEST(FindCycle, ANodeLeadingToItself) { EXPECT_EQ(cycle_in({{1, {2}}, {2, {2}}}, {1}), (std::vector<int>{2, 2})); }

TEST(FindCycle, TheCycleWithoutThePathLeadingToIt) {
  // 0 -> 1 -> 2 -> 3 -> 1: the cycle is 1 2 3, not 0.
  EXPECT_EQ(cycle_in({{0, {1}}, {1, {2}}, {2, {3}}, {3, {1}}}, {0}), (std::vector<int>{1, 2, 3, 1}));
}

TEST(FindCycle, FollowsStartsAndSuccessorsInOrder) {
  const Edges edges = {{1, {2, 3}}, {2, {1}}, {3, {3}}};
  EXPECT_EQ(cycle_in(edges, {1}), (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(cycle_in(edges, {3, 1}), (std::vector<int>{3, 3}));
  // A node reached again after its walk ended is no cycle.
  EXPECT_TRUE(cycle_in({{1, {3}}, {2, {3}}}, {1, 2}).empty());
}

TEST(FindCycle, NamedNodes) {
  const std::map<std::string, std::vector<std::string>> uses = {
      {"tma_a", {"tma_b"}}, {"tma_b", {"tma_c"}}, {"tma_c", {"tma_a"}}};
  const std::vector<std::string> cycle =
      find_cycle(std::vector<std::string>{"tma_b"}, [&](const std::string& name) { return uses.at(name); });
  EXPECT_EQ(cycle, (std::vector<std::string>{"tma_b", "tma_c", "tma_a", "tma_b"}));
}

TEST(FindCycle, ALongChainDoesNotExhaustTheStack) {
  constexpr int kLength = 200000;
  auto next = [](int node) { return node + 1 < kLength ? std::vector<int>{node + 1} : std::vector<int>{0}; };
  const std::vector<int> cycle = find_cycle(std::vector<int>{0}, next);
  ASSERT_EQ(cycle.size(), static_cast<size_t>(kLength) + 1);
  EXPECT_EQ(cycle.front(), 0);
  EXPECT_EQ(cycle.back(), 0);
  EXPECT_TRUE(find_cycle(std::vector<int>{0}, [](int node) {
                return node + 1 < kLength ? std::vector<int>{node + 1} : std::vector<int>{};
              }).empty());
}

}  // namespace
}  // namespace topdown
