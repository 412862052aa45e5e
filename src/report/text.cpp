#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/printable.h"
#include "model/model.h"
#include "report/ansi_colors.h"
#include "report/report.h"
#include "report/value_text.h"

namespace topdown::report {
namespace {

bool shown(const eval::NodeResult& r, const std::map<std::string, bool, std::less<>>& visible, bool verbose) {
  if (verbose || r.node->is_info || r.node->level == 1 || r.on_bottleneck_path) return true;
  auto parent = visible.find(r.node->parent);
  return r.over_threshold && parent != visible.end() && parent->second;
}

// The samples a sampled node's value rests on, when too few to trust it.
std::optional<uint64_t> few_samples(const eval::NodeResult& r, const RunInfo& run) {
  if (!run.sampled || !r.value) return std::nullopt;
  auto found = run.sampled->node_samples.find(r.node->name);
  if (found == run.sampled->node_samples.end() || found->second >= run.sampled->min_samples) return std::nullopt;
  return found->second;
}

std::string note_text(const eval::NodeResult& r, const RunInfo& run) {
  std::vector<std::string> notes;
  if (!r.not_countable.empty()) {
    notes.push_back(r.not_countable);
  } else if (!r.missing_events.empty()) {
    std::string missing = "not counted:";
    for (const auto& event : r.missing_events) missing += " " + event;
    notes.push_back(missing);
  } else if (!r.unknown_inputs.empty()) {
    std::string unknown = "not known:";
    for (const auto& input : r.unknown_inputs) unknown += " " + input;
    notes.push_back(unknown);
    if (std::any_of(r.unknown_inputs.begin(), r.unknown_inputs.end(),
                    [](const std::string& input) { return model::is_retire_latency(input); })) {
      notes.push_back("a mean retire latency: import perf's EVENT:R rows or give --retire-latencies FILE");
    }
  } else if (!r.value) {
    notes.push_back("nothing to divide by");
  }
  if (r.out_of_range) notes.push_back(fmt::format("raw {:.1f}%", *r.value * 100));
  if (r.value && r.multiplexed) notes.push_back(fmt::format("counted {:.0f}% of the time", r.counted_share * 100));
  if (r.value && r.from_run_rates) {
    notes.push_back("approximate: its events were counted in different runs; from their rates");
  } else if (r.value && r.approximate) {
    notes.push_back("approximate: events of its formula were not counted");
  }
  if (r.value && r.socket_wide) notes.push_back("socket-wide: from its socket's uncore or package counts");
  if (auto samples = few_samples(r, run)) notes.push_back(fmt::format("{} samples", *samples));
  std::string text;
  for (const auto& note : notes) text += (text.empty() ? "" : "; ") + note;
  return text;
}

constexpr double kThousandsFrom = 10000;

std::string with_thousands(double value) {
  std::string digits = fmt::format("{:.0f}", value);
  std::string out;
  size_t lead = digits[0] == '-' ? 1 : 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > lead && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string value_text(const eval::NodeResult& r) {
  if (!r.value) return "n/a";
  if (r.node->is_info) {
    // Cycles and counts run to billions, where decimals say nothing and
    // separators make the digits readable.
    return std::abs(*r.value) >= kThousandsFrom ? with_thousands(*r.value) : fmt::format("{:.2f}", *r.value);
  }
  return fmt::format("{:.1f}%", std::clamp(*r.value, 0.0, 1.0) * 100);
}

// Their legend is printed below the table.
std::string marks(const eval::NodeResult& r) {
  std::string text;
  if (r.value && r.unreliable)
    text += "?";
  else if (r.value && (r.multiplexed || r.approximate))
    text += "~";
  if (r.out_of_range) text += "*";
  if (r.spread && r.spread->unstable) text += "!";
  return text;
}

// stat -r: the standard deviation and the 95% interval of the mean, in
// points for fractions.
std::string spread_text(const eval::NodeResult& r) {
  if (!r.spread) return "";
  const double scale = r.node->is_info ? 1 : 100;
  const char* format = r.node->is_info && std::abs(*r.value) >= kThousandsFrom ? "{:.0f}" : "{:.2f}";
  const auto number = [&](double value) { return fmt::format(fmt::runtime(format), value * scale); };
  return "sd " + number(r.spread->stddev) + "  [" + number(r.spread->ci95_low) + ", " + number(r.spread->ci95_high) +
         "]";
}

std::string render_text(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                        const TextOptions& options) {
  auto paint = [&](const std::string& text, const char* code) { return ansi::painted(text, code, options.color); };
  std::string command = run.source;
  for (const auto& word : run.command) command += (command.empty() ? "" : " ") + word;
  if (!run.pids.empty()) command += fmt::format("{}process {}", command.empty() ? "" : ", ", fmt::join(run.pids, ","));
  if (!run.cpus.empty()) command += fmt::format("{}CPUs {}", command.empty() ? "" : ", ", fmt::join(run.cpus, ","));
  if (!run.cgroups.empty()) command += fmt::format(" (cgroups {})", fmt::join(run.cgroups, ","));
  // The command, a file's event names and the warnings quoting them may hold
  // any bytes (an imported binary file): none may drive the terminal.
  const std::string runs = evaluation.runs > 0 ? fmt::format(", {} runs, mean", evaluation.runs) : "";
  const std::optional<double> elapsed_s = run.known_elapsed_s();
  std::string out = fmt::format("topdown: {} ({}), {}{}, {}{}\n", run.model_title, run.model_name, printable(command),
                                runs, elapsed_s ? fmt::format("{:.2f} s", *elapsed_s) : "duration n/a",
                                run.signal ? ", killed by " + signal_name(*run.signal) : "");

  std::map<std::string, bool, std::less<>> visible;
  std::vector<const eval::NodeResult*> tree, info;
  int hidden = 0;
  for (const auto& r : evaluation.nodes) {
    bool show = shown(r, visible, options.verbose);
    visible[r.node->name] = show;
    if (!show)
      ++hidden;
    else
      (r.node->is_info ? info : tree).push_back(&r);
  }
  size_t name_width = 4;
  for (const auto* r : tree) name_width = std::max(name_width, r->node->name.size() + 2 * (r->node->level - 1));
  for (const auto* r : info) name_width = std::max(name_width, r->node->name.size());
  if (!info.empty()) name_width = std::max(name_width, std::string_view("Info metric").size());
  size_t vendor_width = 13;
  for (const auto* r : tree) vendor_width = std::max(vendor_width, r->node->vendor_name.size());
  size_t value_width = 7;  // "100.0%"; an Info metric's value may be longer
  for (const auto* r : info) value_width = std::max(value_width, value_text(*r).size());

  size_t spread_width = 0;  // stat -r only
  for (const auto* r : tree) spread_width = std::max(spread_width, spread_text(*r).size());
  for (const auto* r : info) spread_width = std::max(spread_width, spread_text(*r).size());
  if (spread_width > 0) spread_width = std::max(spread_width, std::string_view("Spread (95%)").size());
  const size_t marks_width = evaluation.runs > 0 ? 3 : 2;

  auto row = [&](const eval::NodeResult& r, size_t indent, const std::string& last_column) {
    std::string name = std::string(indent, ' ') + r.node->name;
    std::string line =
        fmt::format("  {:<{}}  {:>{}}{:<{}} ", name, name_width, value_text(r), value_width, marks(r), marks_width);
    if (spread_width > 0) line += fmt::format("{:<{}}  ", spread_text(r), spread_width);
    line += fmt::format("{:<{}}", last_column, vendor_width);
    std::string note = note_text(r, run);
    if (r.bottleneck) line += " <== bottleneck";
    if (!note.empty()) line += "  (" + note + ")";
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (r.bottleneck) return paint(line, ansi::kRed) + "\n";
    if (r.over_threshold) return paint(line, ansi::kYellow) + "\n";
    return line + "\n";
  };

  // The columns between the values and the names: the marks, then stat -r's spread.
  const std::string spread_heading = std::string(marks_width + 1, ' ') +
                                     (spread_width > 0 ? fmt::format("{:<{}}  ", "Spread (95%)", spread_width) : "");
  out += "\n" +
         paint(fmt::format("  {:<{}}  {:>{}}{}{}", "Node", name_width, "Slots", value_width, spread_heading,
                           "Vendor metric"),
               ansi::kBold) +
         "\n";
  for (const auto* r : tree) out += row(*r, 2 * static_cast<size_t>(r->node->level - 1), r->node->vendor_name);
  if (!info.empty()) {
    out += "\n" +
           paint(fmt::format("  {:<{}}  {:>{}}{}{}", "Info metric", name_width, "Value", value_width, spread_heading,
                             "Unit"),
                 ansi::kBold) +
           "\n";
    for (const auto* r : info) out += row(*r, 0, r->node->unit);
  }
  if (!run.extra_events.empty()) {
    out += "\n" + paint("  Events", ansi::kBold) + "\n";
    std::vector<std::string> shown_names;
    size_t width = 0;
    for (const auto& event : run.extra_events) {
      shown_names.push_back(printable(event));
      width = std::max(width, shown_names.back().size());
    }
    for (size_t i = 0; i < run.extra_events.size(); ++i) {
      const counts::Count* count = sample.find(run.extra_events[i]);
      auto scaled = count ? count->scaled() : std::nullopt;
      std::string value = scaled ? with_thousands(*scaled) : "n/a";
      std::string note = scaled && count->running_share() < 1
                             ? fmt::format("  ~ (counted {:.0f}% of the time)", count->running_share() * 100)
                             : "";
      out += fmt::format("  {:<{}}  {:>18}{}\n", shown_names[i], width, value, note);
    }
  }

  out += "\n";
  if (hidden > 0) out += fmt::format("{} node(s) under their threshold are hidden; -v shows them.\n", hidden);
  bool any_multiplexed = std::any_of(evaluation.nodes.begin(), evaluation.nodes.end(),
                                     [](const eval::NodeResult& r) { return r.multiplexed && r.value; });
  if (any_multiplexed) {
    out +=
        "~ estimate: its events were counted only part of the time (multiplexed) and scaled up.\n"
        "? unreliable: counted too little of the time to be trusted.\n";
  }
  if (std::any_of(evaluation.nodes.begin(), evaluation.nodes.end(),
                  [&](const eval::NodeResult& r) { return few_samples(r, run).has_value(); })) {
    out += fmt::format("? unreliable: rests on fewer than {} samples (the note says how many).\n",
                       run.sampled->min_samples);
  }
  if (std::any_of(evaluation.nodes.begin(), evaluation.nodes.end(),
                  [](const eval::NodeResult& r) { return r.approximate && r.value; })) {
    out +=
        "~ approximate: the counts lack events of the formula and a lesser formula gave the value, or its events "
        "were counted in different runs.\n";
  }
  if (std::any_of(evaluation.nodes.begin(), evaluation.nodes.end(), [](const auto& r) { return r.out_of_range; })) {
    out += "* outside 0-100%: shown clamped; the raw value is in the note.\n";
  }
  if (evaluation.runs > 0) {
    out += fmt::format(
        "Values are the means of {} runs; sd their standard deviation and [ ] the mean's 95% interval (points for "
        "slots).\n",
        evaluation.runs);
  }
  if (std::any_of(evaluation.nodes.begin(), evaluation.nodes.end(),
                  [](const eval::NodeResult& r) { return r.spread && r.spread->unstable; })) {
    out += "! unstable: the runs differ by more than the value itself.\n";
  }
  if (const eval::NodeResult* bottleneck = evaluation.bottleneck()) {
    out +=
        paint(fmt::format("Bottleneck: {} ({})", bottleneck->node->name, value_text(*bottleneck)), ansi::kBold) + "\n";
    if (!bottleneck->node->advice.empty()) out += "  " + bottleneck->node->advice + "\n";
  }
  for (const auto& warning : evaluation.warnings) out += paint("warning: " + printable(warning), ansi::kYellow) + "\n";
  return out;
}

}  // namespace topdown::report
