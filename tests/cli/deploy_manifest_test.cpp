// deploy/: the DaemonSet and the systemd unit run `topdown serve` with
// options it has and the README documents, grant no more than counting
// needs, and the Prometheus job finds the DaemonSet's pods.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "common/strings.h"
#include "run_command.h"
#include "serve_process.h"
#include "support/scratch_cgroup.h"

namespace topdown::testing {
namespace {

const std::string kDeploy = std::string(TOPDOWN_SOURCE_DIR) + "/deploy/";

// The options `topdown serve --help` lists: "-l,--level", "--listen", ...
std::set<std::string> serve_help_options() {
  const CommandResult help = run_command(std::string(TOPDOWN_BIN) + " serve --help");
  EXPECT_EQ(help.exit_code, 0) << help.err;
  std::set<std::string> options;
  const std::regex option(R"((?:^|[ ,])(-{1,2}[A-Za-z][A-Za-z0-9-]*))");
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  -", 0) != 0) continue;  // option lines start "  -"; the text below them does not
    const std::string head = line.substr(0, line.find(' ', 2));
    for (std::sregex_iterator at(head.begin(), head.end(), option), end; at != end; ++at) options.insert((*at)[1]);
  }
  return options;
}

// Whether the README names `option` as a word of its own ("`--cgroups-under", "-l 2").
bool readme_documents(const std::string& option) {
  static const std::string readme = slurp(std::string(TOPDOWN_SOURCE_DIR) + "/README.md");
  const std::regex named("(^|[\\s`(\\[])" + option + "([\\s`=,)\\]]|$)");
  return std::regex_search(readme, named);
}

// The words of `arguments` that are options.
std::vector<std::string> options_of(const std::vector<std::string>& arguments) {
  std::vector<std::string> options;
  for (const std::string& word : arguments) {
    if (word.size() > 1 && word[0] == '-') options.push_back(word);
  }
  return options;
}

// The value following `option` in `arguments`; empty when none.
std::string value_of(const std::vector<std::string>& arguments, const std::string& option) {
  for (size_t i = 0; i + 1 < arguments.size(); ++i) {
    if (arguments[i] == option) return arguments[i + 1];
  }
  return "";
}

YAML::Node daemonset_container() {
  const YAML::Node daemonset = YAML::LoadFile(kDeploy + "topdown-daemonset.yaml");
  EXPECT_EQ(daemonset["apiVersion"].as<std::string>(), "apps/v1");
  EXPECT_EQ(daemonset["kind"].as<std::string>(), "DaemonSet");
  const YAML::Node containers = daemonset["spec"]["template"]["spec"]["containers"];
  EXPECT_EQ(containers.size(), 1u);
  return containers[0];
}

std::vector<std::string> daemonset_arguments() { return daemonset_container()["args"].as<std::vector<std::string>>(); }

// The words after "serve" of the unit's ExecStart line.
std::vector<std::string> unit_arguments() {
  std::ifstream unit(kDeploy + "topdown-serve.service");
  for (std::string line; std::getline(unit, line);) {
    if (line.rfind("ExecStart=", 0) != 0) continue;
    const std::vector<std::string_view> words = split_words(std::string_view(line).substr(10), " ");
    const auto serve = std::find(words.begin(), words.end(), "serve");
    return std::vector<std::string>(serve, words.end());
  }
  return {};
}

TEST(DeployManifest, TheDaemonSetPassesOnlyOptionsServeHasAndTheReadmeDocuments) {
  const YAML::Node container = daemonset_container();
  EXPECT_EQ(container["command"].as<std::vector<std::string>>(), std::vector<std::string>{"/usr/local/bin/topdown"});
  const std::vector<std::string> arguments = container["args"].as<std::vector<std::string>>();
  ASSERT_FALSE(arguments.empty());
  EXPECT_EQ(arguments[0], "serve");
  const std::set<std::string> known = serve_help_options();
  ASSERT_GT(known.count("--cgroups-under"), 0u) << "the help's options were not found";
  const std::vector<std::string> options = options_of(arguments);
  EXPECT_EQ(options, (std::vector<std::string>{"--listen", "--cgroups-under", "--cgroup-depth", "-l"}));
  for (const std::string& option : options) {
    EXPECT_EQ(known.count(option), 1u) << option << " is not an option of topdown serve";
    EXPECT_TRUE(readme_documents(option)) << option << " is not in README.md";
  }
  // Served on the port the container declares, on the pod's address.
  EXPECT_EQ(value_of(arguments, "--listen"), "0.0.0.0:" + container["ports"][0]["containerPort"].as<std::string>());
}

TEST(DeployManifest, TheSystemdUnitPassesOnlyOptionsServeHasAndTheReadmeDocuments) {
  const std::vector<std::string> arguments = unit_arguments();
  ASSERT_FALSE(arguments.empty()) << "no ExecStart=... serve line in the unit";
  const std::set<std::string> known = serve_help_options();
  const std::vector<std::string> options = options_of(arguments);
  EXPECT_FALSE(options.empty());
  for (const std::string& option : options) {
    EXPECT_EQ(known.count(option), 1u) << option << " is not an option of topdown serve";
    EXPECT_TRUE(readme_documents(option)) << option << " is not in README.md";
  }
  // In step with the DaemonSet: the same depth of the tree and the same port.
  const std::vector<std::string> daemonset = daemonset_arguments();
  EXPECT_EQ(value_of(arguments, "-l"), value_of(daemonset, "-l"));
  const std::string listen = value_of(arguments, "--listen");
  const std::string daemonset_listen = value_of(daemonset, "--listen");
  EXPECT_EQ(listen.substr(listen.rfind(':')), daemonset_listen.substr(daemonset_listen.rfind(':')));
}

TEST(DeployManifest, TheDaemonSetGrantsCountingAndReadingCgroupsOnly) {
  const YAML::Node daemonset = YAML::LoadFile(kDeploy + "topdown-daemonset.yaml");
  const YAML::Node pod = daemonset["spec"]["template"]["spec"];
  for (const char* host_namespace : {"hostPID", "hostNetwork", "hostIPC"}) {
    EXPECT_FALSE(pod[host_namespace] && pod[host_namespace].as<bool>()) << host_namespace;
  }
  EXPECT_FALSE(pod["automountServiceAccountToken"].as<bool>());
  const YAML::Node security = pod["containers"][0]["securityContext"];
  EXPECT_FALSE(security["privileged"].as<bool>());
  EXPECT_FALSE(security["allowPrivilegeEscalation"].as<bool>());
  EXPECT_TRUE(security["readOnlyRootFilesystem"].as<bool>());
  EXPECT_EQ(security["capabilities"]["drop"].as<std::vector<std::string>>(), std::vector<std::string>{"ALL"});
  EXPECT_EQ(security["capabilities"]["add"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"PERFMON", "BPF"}));
  // One host directory, the cgroup tree, mounted read-only where serve looks for it.
  ASSERT_EQ(pod["volumes"].size(), 1u);
  EXPECT_EQ(pod["volumes"][0]["hostPath"]["path"].as<std::string>(), "/sys/fs/cgroup");
  const YAML::Node mounts = pod["containers"][0]["volumeMounts"];
  ASSERT_EQ(mounts.size(), 1u);
  EXPECT_EQ(mounts[0]["mountPath"].as<std::string>(), "/sys/fs/cgroup");
  EXPECT_TRUE(mounts[0]["readOnly"].as<bool>());
}

TEST(DeployManifest, ThePrometheusJobKeepsTheDaemonSetsPods) {
  const YAML::Node daemonset = YAML::LoadFile(kDeploy + "topdown-daemonset.yaml");
  const YAML::Node pod_template = daemonset["spec"]["template"];
  const YAML::Node job = YAML::LoadFile(kDeploy + "prometheus-scrape-config.yaml")["scrape_configs"][0];
  const YAML::Node keep = job["relabel_configs"][0];
  EXPECT_EQ(keep["action"].as<std::string>(), "keep");
  EXPECT_EQ(keep["source_labels"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"__meta_kubernetes_pod_label_app_kubernetes_io_name",
                                      "__meta_kubernetes_pod_container_port_name"}));
  EXPECT_EQ(keep["regex"].as<std::string>(),
            pod_template["metadata"]["labels"]["app.kubernetes.io/name"].as<std::string>() + ";" +
                pod_template["spec"]["containers"][0]["ports"][0]["name"].as<std::string>());
  EXPECT_EQ(job["relabel_configs"][1]["target_label"].as<std::string>(), "instance");
}

// The DaemonSet's own arguments serve, with two changes for a test: a
// loopback port, and a scratch cgroup (here named like kubelet's) in place
// of /kubepods.slice; and --model, the software-event model, where there is
// no PMU.
TEST(DeployManifest, TheDaemonSetsCommandLineServesEveryContainer) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  std::string why_not;
  const std::string uid = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  const std::string id = "5ca1ab1e0ddba11c0ffee5ca1ab1e0ddba11c0ffee5ca1ab1e0ddba11c0ffee00";
  const std::string pod = "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + uid + ".slice";
  const auto container = ScratchCgroup::create(pod + "/cri-containerd-" + id + ".scope", why_not);
  if (!container) GTEST_SKIP() << why_not;
  const std::string top = container->name().substr(0, container->name().find("/kubepods.slice/") + 15);
  Child task({"sh", "-c", "while :; do sleep 0.05; done"}, serve_temp_path("manifest-task.log"));
  ASSERT_TRUE(container->add(task.pid()));

  std::vector<std::string> arguments = daemonset_arguments();
  arguments.erase(arguments.begin());  // "serve": ServeProcess gives it, with --listen first
  const auto listen = std::find(arguments.begin(), arguments.end(), "--listen");
  ASSERT_NE(listen, arguments.end());
  arguments.erase(listen, listen + 2);
  *(std::find(arguments.begin(), arguments.end(), "--cgroups-under") + 1) = top;
  ServeProcess serve(arguments);
  ASSERT_TRUE(serve.ready()) << slurp(serve.log);
  const SeriesKey container_series{"topdown_node_ratio",
                                   {{"node", "On_CPU"},
                                    {"level", "1"},
                                    {"scope", "cgroup"},
                                    {"cgroup", container->name()},
                                    {"pod_uid", uid},
                                    {"qos", "burstable"},
                                    {"container_id", id},
                                    {"model", "software"}}};
  // Until an interval in which the task ran is served (a busy machine may delay it).
  std::string text;
  for (int attempt = 0; attempt < 100 && parse_exposition(text).count(container_series) == 0; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    text = serve.scrape();
  }
  EXPECT_EQ(parse_exposition(text).count(container_series), 1u) << text;
  serve.child.signal(SIGTERM);
  EXPECT_EQ(serve.child.wait(std::chrono::seconds(10)), 0) << slurp(serve.log);
  task.signal(SIGKILL);
  task.wait(std::chrono::seconds(10));
}

}  // namespace
}  // namespace topdown::testing
