#include "cli/perf_command.h"

#include <algorithm>

#include "events/sysfs_events.h"

namespace topdown::cli {
namespace {

// `word` quoted for a POSIX shell when it needs it.
std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_-./=:,+@%").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The group's events as perf spells them, comma-separated.
std::string group_members(const schedule::Group& group) {
  std::string members;
  for (events::Encoding event : group.events) {
    // A copy keeps its own name in the file, so that import keeps its counts apart.
    event.name = counts::spelled(group.copies.key_of(event.name));
    members += (members.empty() ? "" : ",") + event.perf_spelling();
  }
  return members;
}

std::string event_list(const std::vector<schedule::Group>& groups) {
  std::string list;
  for (const schedule::Group& group : groups) {
    const std::string members = group_members(group);
    list += (list.empty() ? "" : ",") + (group.events.size() > 1 ? "{" + members + "}" : members);
  }
  return list;
}

bool is_uncore(const schedule::Group& group) {
  return std::any_of(group.events.begin(), group.events.end(),
                     [](const events::Encoding& event) { return event.uncore; });
}

std::string command_line(const std::vector<std::string>& command) {
  std::string line;
  for (const std::string& word : command) line += " " + shell_quote(word);
  return line;
}

}  // namespace

std::string perf_stat_commands(const schedule::Plan& plan, const std::vector<std::string>& command,
                               const std::string& import_command, const std::string& file) {
  std::vector<schedule::Group> core;
  std::vector<schedule::Group> uncore;
  for (const schedule::Group& group : plan.groups) {
    (is_uncore(group) ? uncore : core).push_back(group);
  }
  const std::string workload = command.empty() ? " -- CMD" : " --" + command_line(command);
  const std::string uncore_file = file.substr(0, file.rfind(".csv")) + "-uncore.csv";
  std::string text = "# count with perf, then analyse: " + import_command + " " + file + "\n";
  if (plan.multiplexed()) text += "# the groups rotate on the counters: values are multiplexed estimates\n";
  text += "perf stat -x, -o " + file + " -e " + shell_quote(event_list(core)) + workload + "\n";
  if (!uncore.empty()) {
    text +=
        "# uncore events count per socket, system-wide only (root or perf_event_paranoid <= 0);\n"
        "# append their file before importing: cat " +
        uncore_file + " >> " + file + "\n";
    text += "perf stat -a -x, -o " + uncore_file + " -e " + shell_quote(event_list(uncore)) + workload + "\n";
  }
  return text;
}

std::string perf_record_command(const schedule::Plan& plan, const std::vector<std::string>& command,
                                const perf::SampleRate& rate, const perf::CallStacks& call_stacks,
                                const std::string& file) {
  std::string rate_option =
      rate.frequency != 0 ? "-F " + std::to_string(rate.frequency) : "-c " + std::to_string(rate.period);
  if (call_stacks.mode == perf::CallGraph::FramePointers) rate_option += " -g";
  if (call_stacks.mode == perf::CallGraph::Dwarf) {
    rate_option += " --call-graph dwarf," + std::to_string(call_stacks.stack_bytes);
  }
  if (call_stacks.mode != perf::CallGraph::None && call_stacks.max_stack != perf::kDefaultMaxStack) {
    rate_option += " --max-stack " + std::to_string(call_stacks.max_stack);
  }
  std::string events;
  for (const schedule::Group& group : plan.groups) {
    if (!is_uncore(group)) events += " -e " + shell_quote("{" + group_members(group) + "}:S");
  }
  std::string text =
      "# sample with perf (leader sampling: each sample reads its whole group), then\n"
      "# perf script of " +
      file + " can be analysed with topdown report (see README)\n";
  if (plan.multiplexed()) text += "# the groups rotate on the counters, as they do in topdown record\n";
  text += "perf record " + rate_option + events + " -o " + file +
          (command.empty() ? " -- CMD" : " --" + command_line(command)) + "\n";
  return text;
}

}  // namespace topdown::cli

namespace topdown::cli {

std::string assumed_pmu_note(const schedule::Plan& plan, const cpu::CpuInfo& cpu) {
  const std::string assumed(events::kAssumedArmCorePmu);
  const bool guessed =
      !cpu.find_pmu(assumed) && std::any_of(plan.groups.begin(), plan.groups.end(),
                                            [&](const schedule::Group& group) { return group.pmu == assumed; });
  if (!guessed) return "";
  return "# " + assumed +
         " is assumed: the name Linux gives the Arm core PMU on ACPI servers (Graviton, Grace, Axion,\n"
         "# Cobalt, Altra); this machine has none. Check with ls /sys/bus/event_source/devices on the machine\n"
         "# that counts, and write its core PMU's name (armv8_cortex_a76, ...) in place of " +
         assumed + "\n";
}

std::string retire_latency_note(const model::Model& model) {
  std::string events;
  for (const auto& [name, latency] : model.retire_latencies) {
    if (!latency.mean) events += (events.empty() ? "" : ",") + latency.event + ":R";
  }
  if (events.empty()) return "";
  return "# " + model.name +
         "'s deeper nodes weigh events by their mean retire latency, of which Intel publishes none for this\n"
         "# CPU: perf 6.12 or later measures them when the perf stat command also gets\n"
         "#   --record-tpebs -e " +
         events +
         "\n"
         "# (import reads its EVENT:R rows as the latencies), or give import --retire-latencies FILE.\n";
}

}  // namespace topdown::cli
