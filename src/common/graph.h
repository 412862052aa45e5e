#pragma once
// Cycle detection for the graphs of names the model files build: formulas
// using other formulas, thresholds waiting on other thresholds, perf metrics
// using other metrics. A cycle there means no evaluation order exists.
#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

namespace topdown {

// A cycle reachable from `starts`, as the nodes along it with the first one
// repeated at the end ({a, b, a}; {a, a} when a leads to itself), or empty
// when there is none. `successors(node)` returns a range of the nodes that
// `node` leads to; they are followed in that order, depth first, so the
// cycle found is the first one a reader of the file would meet. Iterative, so
// a long chain cannot overflow the stack.
template <class Node, class Successors>
std::vector<Node> find_cycle(const std::vector<Node>& starts, Successors&& successors) {
  enum class Mark { Active, Done };
  struct Step {
    Node node;
    std::vector<Node> next;
    std::size_t taken = 0;
  };
  std::map<Node, Mark> marks;
  std::vector<Step> path;
  auto enter = [&](const Node& node) {
    marks[node] = Mark::Active;
    auto&& next = successors(node);
    path.push_back(Step{node, std::vector<Node>(std::begin(next), std::end(next))});
  };
  for (const Node& start : starts) {
    if (marks.count(start) > 0) continue;
    enter(start);
    while (!path.empty()) {
      Step& step = path.back();
      if (step.taken == step.next.size()) {
        marks[step.node] = Mark::Done;
        path.pop_back();
        continue;
      }
      const Node next = step.next[step.taken++];
      const auto mark = marks.find(next);
      if (mark == marks.end()) {
        enter(next);
      } else if (mark->second == Mark::Active) {
        auto from = std::find_if(path.begin(), path.end(), [&](const Step& on_path) { return on_path.node == next; });
        std::vector<Node> cycle;
        for (; from != path.end(); ++from) cycle.push_back(from->node);
        cycle.push_back(next);
        return cycle;
      }
    }
  }
  return {};
}

}  // namespace topdown
