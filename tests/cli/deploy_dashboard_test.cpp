// deploy/grafana-dashboard.json against a real Prometheus that scraped
// `topdown serve --cgroups-under` following two containers in cgroups named
// as kubelet names them: every query of every panel and template variable,
// with the variables given values from the series served, returns data.
//
// Two serves are scraped. One counts with the software-event model, whose
// tree (On_CPU, Off_CPU) has none of the hardware models' node names; the
// other with tests/data/software_tma_names.model, the hardware tree's names
// (Backend_Bound, Memory_Bound, ...) over software events, so that a query
// naming Backend_Bound is run against real scrapes on a machine without a
// PMU. Every query returns data for the second; for the first, every query
// that names no node only its hardware models have.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "run_command.h"
#include "serve_process.h"
#include "support/scratch_cgroup.h"

namespace topdown::testing {
namespace {

const std::string kTmaNamesModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software_tma_names.model";

nlohmann::json dashboard() {
  std::ifstream in(std::string(TOPDOWN_SOURCE_DIR) + "/deploy/grafana-dashboard.json");
  return nlohmann::json::parse(in);
}

// Every panel's query, in panel order.
std::vector<std::string> panel_queries(const nlohmann::json& board) {
  std::vector<std::string> queries;
  for (const nlohmann::json& panel : board["panels"]) {
    if (!panel.contains("targets")) continue;
    for (const nlohmann::json& target : panel["targets"]) queries.push_back(target["expr"]);
  }
  return queries;
}

// The query variables' `label_values(SELECTOR, LABEL)`, by variable name.
std::map<std::string, std::pair<std::string, std::string>> variable_queries(const nlohmann::json& board) {
  std::map<std::string, std::pair<std::string, std::string>> queries;
  const std::regex label_values(R"(^label_values\((.*), *([a-z_]+)\)$)");
  for (const nlohmann::json& variable : board["templating"]["list"]) {
    if (variable["type"] != "query") continue;
    const std::string text = variable["query"]["query"];
    std::smatch parts;
    EXPECT_TRUE(std::regex_match(text, parts, label_values)) << text;
    queries[variable["name"]] = {parts[1], parts[2]};
  }
  return queries;
}

// `query` with each $NAME and ${NAME} replaced by `values`; a variable
// without a value fails the test.
std::string substituted(const std::string& query, const std::map<std::string, std::string>& values) {
  const std::regex variable(R"(\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?)");
  std::string result;
  auto rest = query.cbegin();
  for (std::sregex_iterator at(query.begin(), query.end(), variable), end; at != end; ++at) {
    const auto value = values.find((*at)[1]);
    EXPECT_NE(value, values.end()) << "no value for $" << (*at)[1] << " in " << query;
    result.append(rest, (*at)[0].first).append(value == values.end() ? "" : value->second);
    rest = (*at)[0].second;
  }
  return result.append(rest, query.cend());
}

// The nodes a query names (node="X").
std::set<std::string> nodes_named(const std::string& query) {
  std::set<std::string> nodes;
  const std::regex node(R"(\bnode="([^"]+)\")");
  for (std::sregex_iterator at(query.begin(), query.end(), node), end; at != end; ++at) nodes.insert((*at)[1]);
  return nodes;
}

// The label values of `label` among served series of `name`.
std::set<std::string> served_values(const std::string& text, const std::string& name, const std::string& label) {
  std::set<std::string> values;
  for (const auto& [key, value] : parse_exposition(text)) {
    const auto found = key.second.find(label);
    if (key.first == name && found != key.second.end()) values.insert(found->second);
  }
  return values;
}

TEST(DeployDashboard, TheDashboardNamesOnlyVariablesItDefines) {
  const nlohmann::json board = dashboard();
  std::map<std::string, std::string> defined;
  for (const nlohmann::json& variable : board["templating"]["list"]) defined[variable["name"]] = "x";
  const std::vector<std::string> queries = panel_queries(board);
  EXPECT_GE(queries.size(), 3u);
  for (const std::string& query : queries) substituted(query, defined);
  for (const auto& [name, selector_and_label] : variable_queries(board)) substituted(selector_and_label.first, defined);
  // Every panel reads the dashboard's Prometheus.
  for (const nlohmann::json& panel : board["panels"]) {
    if (panel["type"] != "row") {
      EXPECT_EQ(panel["datasource"]["uid"], "${datasource}") << panel["title"];
    }
  }
}

// One container of a pod, named as kubelet's systemd driver and containerd
// name them, with a task that wakes 20 times a second (a cgroup that ran no
// task in an interval has its nodes left out as idle).
struct Container {
  std::string id;
  std::unique_ptr<ScratchCgroup> cgroup;
  std::unique_ptr<Child> task;
};

TEST(DeployDashboard, EveryQueryReturnsDataFromARealPrometheus) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  if (std::system("command -v prometheus >/dev/null 2>&1") != 0) GTEST_SKIP() << "prometheus is not installed";
  const nlohmann::json board = dashboard();
  std::vector<Container> containers;
  for (const auto& [qos, uid, id] : std::vector<std::array<std::string, 3>>{
           {"burstable", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", std::string(64, 'a')},
           {"besteffort", "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d", std::string(64, 'b')}}) {
    std::string why_not;
    const std::string path = "kubepods.slice/kubepods-" + qos + ".slice/kubepods-" + qos + "-pod" + uid +
                             ".slice/cri-containerd-" + id + ".scope";
    Container container{id, ScratchCgroup::create(path, why_not), nullptr};
    if (!container.cgroup) GTEST_SKIP() << why_not;
    container.task = std::make_unique<Child>(std::vector<std::string>{"sh", "-c", "while :; do sleep 0.05; done"},
                                             serve_temp_path("dashboard-" + qos + ".log"));
    ASSERT_TRUE(container.cgroup->add(container.task->pid()));
    containers.push_back(std::move(container));
  }
  const std::string name = containers[0].cgroup->name();
  const std::string root = name.substr(0, name.find("/kubepods.slice/") + 15);

  // As the DaemonSet serves (-l 2, --cgroup-depth 3), every half second.
  const std::vector<std::string> options = {"--cgroups-under", root, "--cgroup-depth", "3", "-l", "2", "-I", "500"};
  ServeProcess software(options);
  ServeProcess tma_names(options, kTmaNamesModel);
  ASSERT_TRUE(software.ready()) << slurp(software.log);
  ASSERT_TRUE(tma_names.ready()) << slurp(tma_names.log);
  PrometheusProcess prometheus("dashboard-prometheus", {software.port, tma_names.port});

  // A panel's query has data when it finds series, each of the instance
  // it was narrowed to; a variable's when it finds series with its label.
  struct Run {
    std::string query;
    std::string instance;
    std::string variable_label;
    std::string answer;
    bool has_data = false;
  };
  std::vector<Run> runs;
  for (ServeProcess* serve : {&software, &tma_names}) {
    // The variables' values, from what this serve served: its address as
    // Prometheus labels it, the --cgroups-under path, and a container.
    const std::string instance = "127.0.0.1:" + std::to_string(serve->port);
    std::string text;
    for (int attempt = 0; attempt < 150 && served_values(text, "topdown_node_ratio", "container_id").size() < 2;
         ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      text = serve->scrape();
    }
    const std::set<std::string> ids = served_values(text, "topdown_node_ratio", "container_id");
    ASSERT_EQ(ids, (std::set<std::string>{containers[0].id, containers[1].id})) << text;
    EXPECT_EQ(served_values(text, "topdown_node_ratio", "cgroup").count(root), 1u) << text;
    const std::map<std::string, std::string> values = {
        {"instance", instance}, {"cgroup_root", root}, {"container", *ids.begin()}};
    const std::set<std::string> nodes = served_values(text, "topdown_node_ratio", "node");
    for (const std::string& query : panel_queries(board)) {
      const std::set<std::string> named = nodes_named(query);
      const bool served = std::all_of(named.begin(), named.end(), [&](const auto& node) { return nodes.count(node); });
      if (serve == &software && !served) continue;  // a hardware node: the other serve has it
      runs.push_back({substituted(query, values), instance, "", "", false});
    }
    for (const auto& [variable, selector_and_label] : variable_queries(board)) {
      runs.push_back({substituted(selector_and_label.first, values), instance, selector_and_label.second, "", false});
    }
  }
  // Only the query naming Backend_Bound is left out for the software model.
  const size_t panels = panel_queries(board).size();
  const size_t variables = variable_queries(board).size();
  EXPECT_EQ(runs.size(), (panels - 1) + variables + panels + variables);

  // Until every query has data (Prometheus takes a few seconds to start,
  // and rate() needs two scrapes), for up to 90 s on a busy machine.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (std::chrono::steady_clock::now() < end) {
    bool all = true;
    for (Run& run : runs) {
      if (run.has_data) continue;
      const HttpResponse answer = prometheus.query(run.query);
      run.answer = answer.status == 200 ? answer.body : answer.error + answer.body;
      if (answer.status == 200) {
        const nlohmann::json result = nlohmann::json::parse(answer.body)["data"]["result"];
        run.has_data = !result.empty() && std::all_of(result.begin(), result.end(), [&](const nlohmann::json& series) {
          const nlohmann::json& labels = series["metric"];
          return run.variable_label.empty() ? labels.value("instance", run.instance) == run.instance
                                            : !labels.value(run.variable_label, "").empty();
        });
      }
      all = all && run.has_data;
    }
    if (all) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  ASSERT_TRUE(prometheus.child.running()) << prometheus.log();
  for (const Run& run : runs) EXPECT_TRUE(run.has_data) << run.query << "\n" << run.answer;

  prometheus.child.signal(SIGTERM);
  EXPECT_TRUE(prometheus.child.wait(std::chrono::seconds(10)).has_value());
  for (ServeProcess* serve : {&software, &tma_names}) {
    serve->child.signal(SIGTERM);
    EXPECT_EQ(serve->child.wait(std::chrono::seconds(10)), 0) << slurp(serve->log);
  }
  for (Container& container : containers) {
    container.task->signal(SIGKILL);
    container.task->wait(std::chrono::seconds(10));
  }
  std::filesystem::remove_all(prometheus.dir);
}

}  // namespace
}  // namespace topdown::testing
