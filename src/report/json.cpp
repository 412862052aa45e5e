#include <nlohmann/json.hpp>

#include "report/json_object.h"
#include "report/report.h"

namespace topdown::report {
namespace {

nlohmann::json value_or_null(const expr::Value& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

nlohmann::json node_json(const eval::NodeResult& node) {
  const model::Node& n = *node.node;
  nlohmann::json j = {
      {"name", n.name},
      {"vendor_name", n.vendor_name},
      {"level", n.level},
      {"parent", n.parent.empty() ? nlohmann::json() : nlohmann::json(n.parent)},
      {"value", value_or_null(node.value)},
      {"over_threshold", node.over_threshold},
      {"bottleneck", node.bottleneck},
      {"counted_share", node.counted_share},
      {"status", status_of(node)},
      {"missing_events", node.missing_events},
      {"not_countable", node.not_countable.empty() ? nlohmann::json() : nlohmann::json(node.not_countable)},
      {"unknown_inputs", node.unknown_inputs},
      {"socket_wide", node.socket_wide},
  };
  if (node.spread) {
    j["runs"] = node.spread->runs;
    j["stddev"] = node.spread->stddev;
    j["ci95"] = {node.spread->ci95_low, node.spread->ci95_high};
    j["unstable"] = node.spread->unstable;
  }
  if (n.is_info) {
    j["unit"] = n.unit;
  } else {
    j["domain"] = n.domain;
    j["area"] = n.area;
  }
  return j;
}

nlohmann::json count_json(const std::string& name, const counts::Count& count) {
  return {{"name", name},
          {"value", count.value},
          {"scaled", value_or_null(count.scaled())},
          {"time_enabled_ns", count.time_enabled},
          {"time_running_ns", count.time_running},
          {"counted_share", count.running_share()}};
}

// A sampled function's share and samples, and each node's samples.
void add_sampled(nlohmann::json& out, const Sampled& sampled) {
  out["function"] = sampled.function;
  out["module"] = sampled.module;
  out["share"] = sampled.share;
  out["clock_event"] = sampled.clock_event.empty() ? nlohmann::json() : nlohmann::json(sampled.clock_event);
  out["samples"] = sampled.samples;
  out["min_samples"] = sampled.min_samples;
  out["lost_samples"] = sampled.lost_samples;
  out["truncated"] = sampled.truncated;
  out["tree"] = sampled.tree;
  out["call_path"] = sampled.call_path.empty() ? nlohmann::json() : nlohmann::json(sampled.call_path);
  for (const char* list : {"nodes", "info"}) {
    for (auto& node : out[list]) {
      auto found = sampled.node_samples.find(node["name"].get<std::string>());
      node["samples"] = found == sampled.node_samples.end() ? nlohmann::json() : nlohmann::json(found->second);
    }
  }
}

}  // namespace

nlohmann::json json_object(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run) {
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json info = nlohmann::json::array();
  for (const auto& node : evaluation.nodes) (node.node->is_info ? info : nodes).push_back(node_json(node));
  nlohmann::json counts = nlohmann::json::array();
  for (const auto& [key, count] : sample.events) counts.push_back(count_json(counts::spelled(key), count));
  const eval::NodeResult* bottleneck = evaluation.bottleneck();
  nlohmann::json out = {
      {"format", "topdown-1"},
      {"model",
       {{"name", run.model_name},
        {"title", run.model_title},
        {"tma_version", run.model_version.empty() ? nlohmann::json() : nlohmann::json(run.model_version)}}},
      {"elapsed_s", run.known_elapsed_s() ? nlohmann::json(run.elapsed_s) : nlohmann::json()},
      {"exit_code", run.exit_code ? nlohmann::json(*run.exit_code) : nlohmann::json()},
      {"signal", run.signal ? nlohmann::json(*run.signal) : nlohmann::json()},
      {"cpus", run.cpus},
      {"pids", run.pids},
      {"cgroups", run.cgroups},
      {"groups", run.groups},
      {"multiplexed", run.multiplexed},
      {"multiplex_ratio", evaluation.counted_share},
      {"level1_sum", value_or_null(evaluation.level1_sum)},
      {"bottleneck", bottleneck ? nlohmann::json(bottleneck->node->name) : nlohmann::json()},
      {"nodes", nodes},
      {"info", info},
      {"events", counts},
      {"extra_events", run.extra_events},
      {"warnings", evaluation.warnings},
  };
  if (run.sampled) add_sampled(out, *run.sampled);
  if (evaluation.runs > 0) out["runs"] = evaluation.runs;
  // An import names its file where a run names its command.
  if (run.source.empty()) {
    out["command"] = run.command;
  } else {
    out["source"] = run.source;
  }
  return out;
}

std::string json_text(const nlohmann::json& object, bool one_line) {
  return object.dump(one_line ? -1 : 2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string render_json(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run) {
  return json_text(json_object(evaluation, sample, run), false);
}

}  // namespace topdown::report
