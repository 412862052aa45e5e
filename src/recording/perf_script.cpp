#include "recording/perf_script.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.h"
#include "common/printable.h"
#include "common/strings.h"
#include "import/hybrid.h"
#include "import/import.h"
#include "import/line_reader.h"

namespace topdown::recording {
namespace {

std::string remedy() {
  return fmt::format("convert a leader-sampled perf record with perf script -F {}", kPerfScriptFields);
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The blank-separated words of `line` into `tokens` (reused: no allocation a line).
void split_tokens(std::string_view line, std::vector<std::string_view>& tokens) {
  tokens.clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
}

template <class T>
std::optional<T> number(std::string_view text, int base = 10) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// perf's time field: seconds with a fraction, then ':' ("11250.862340:").
std::optional<uint64_t> time_ns(std::string_view token) {
  if (token.size() < 4 || token.back() != ':') return std::nullopt;
  token.remove_suffix(1);
  const size_t dot = token.find('.');
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  const auto seconds = number<uint64_t>(token.substr(0, dot));
  std::string_view fraction = token.substr(dot + 1);
  if (!seconds || fraction.empty() || fraction.size() > 9) return std::nullopt;
  auto digits = number<uint64_t>(fraction);
  if (!digits) return std::nullopt;
  uint64_t ns = *digits;
  for (size_t i = fraction.size(); i < 9; ++i) ns *= 10;
  return *seconds * 1000000000ULL + ns;
}

// One line of a sample: one group member's count.
struct MemberLine {
  uint32_t pid = 0;
  uint32_t tid = 0;
  int32_t cpu = -1;
  uint64_t time = 0;
  uint64_t period = 0;
  std::string_view event;
  uint64_t ip = 0;
  std::string_view function;
  std::string_view module;
};

// Splits "sym[+0xoff] (dso)"; the dso is the last parenthesised word, the
// function what comes before it (C++ names hold blanks and parentheses).
void split_symbol(std::string_view rest, MemberLine& line) {
  rest = trim(rest);
  if (!rest.empty() && rest.back() == ')') {
    const size_t open = rest.rfind(" (");
    if (open != std::string_view::npos || rest.front() == '(') {
      const size_t start = open == std::string_view::npos ? 0 : open + 1;
      line.module = rest.substr(start + 1, rest.size() - start - 2);
      rest = trim(rest.substr(0, start));
    }
  }
  // The default layout adds the offset into the function (symoff).
  const size_t offset = rest.rfind("+0x");
  if (offset != std::string_view::npos && offset > 0 &&
      rest.find_first_not_of("0123456789abcdef", offset + 3) == std::string_view::npos) {
    rest = rest.substr(0, offset);
  }
  line.function = rest;
}

class LineError {
 public:
  LineError(const std::string& path, size_t line) : path_(path), line_(line) {}
  [[noreturn]] void fail(const std::string& what) const { throw ParseError({path_, static_cast<int>(line_), 0}, what); }

 private:
  const std::string& path_;
  size_t line_;
};

// Reads "comm tid[/pid] [cpu] time: period event: ip sym (dso)" with
// any of the fields before the time left out (perf's -F order).
MemberLine parse_member(const std::vector<std::string_view>& tokens, std::string_view text, size_t time_index,
                        const LineError& error) {
  MemberLine line;
  line.time = *time_ns(tokens[time_index]);
  size_t before = time_index;
  if (before > 0 && tokens[before - 1].front() == '[' && tokens[before - 1].back() == ']') {
    const std::string_view cpu = tokens[before - 1].substr(1, tokens[before - 1].size() - 2);
    if (auto value = number<int32_t>(cpu)) line.cpu = *value;
    --before;
  }
  if (before > 0) {
    const std::string_view ids = tokens[before - 1];
    const size_t slash = ids.find('/');
    auto first = number<uint32_t>(ids.substr(0, slash));
    auto second = slash == std::string_view::npos ? first : number<uint32_t>(ids.substr(slash + 1));
    if (first && second) {
      line.pid = *first;
      line.tid = *second;
    }
  }
  const size_t period_index = time_index + 1;
  // A word that is no number ("cycles:" of the event) right after the time:
  // converted without a period; a number that does not fit is a bad period.
  const auto numeric = [](std::string_view token) {
    return std::isdigit(static_cast<unsigned char>(token.front())) || token.front() == '-' || token.front() == '+';
  };
  if (period_index >= tokens.size() || !numeric(tokens[period_index])) {
    error.fail("no period field after the time: " + remedy());
  }
  if (!number<uint64_t>(tokens[period_index])) {
    error.fail("period '" + printable(tokens[period_index]) +
               "' is not a whole number of events from 0 to 18446744073709551615: the file was edited or damaged; "
               "convert the recording again with perf script");
  }
  line.period = *number<uint64_t>(tokens[period_index]);
  const size_t event_index = period_index + 1;
  if (event_index >= tokens.size() || tokens[event_index].size() < 2 || tokens[event_index].back() != ':') {
    error.fail("no event field after the period: " + remedy());
  }
  line.event = tokens[event_index].substr(0, tokens[event_index].size() - 1);
  const size_t ip_index = event_index + 1;
  // With callchains (perf record -g) the ip and symbol are the first frame's,
  // on the lines that follow.
  if (ip_index == tokens.size()) return line;
  auto ip = number<uint64_t>(tokens[ip_index], 16);
  if (!ip) error.fail("no ip field after the event: " + remedy());
  line.ip = *ip;
  const std::string_view ip_token = tokens[ip_index];
  split_symbol(text.substr(static_cast<size_t>(ip_token.data() + ip_token.size() - text.data())), line);
  if (line.function.empty()) error.fail("no sym field after the ip: " + remedy());
  if (line.module.empty()) line.module = "[unknown]";
  return line;
}

// "file.c:332" of the srcline field; perf writes "??:0" or
// "[kernel.kallsyms][ffff...]" when it does not know.
std::optional<std::pair<std::string_view, int>> source_line(std::string_view token) {
  const size_t colon = token.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  auto line = number<int>(token.substr(colon + 1));
  if (!line || *line <= 0 || token.substr(0, colon) == "??") return std::nullopt;
  return std::make_pair(token.substr(0, colon), *line);
}

// Event names of "# group: {a,b,cpu/event=0x3c,umask=0x0/}": commas inside
// a PMU's slashes belong to the event.
std::vector<std::string> group_members(std::string_view list) {
  std::vector<std::string> members;
  std::string current;
  bool in_pmu_terms = false;
  for (char c : list) {
    if (c == '/') in_pmu_terms = !in_pmu_terms;
    if (c == ',' && !in_pmu_terms) {
      members.push_back(std::string(trim(current)));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) members.push_back(std::string(trim(current)));
  return members;
}

// A group as the file shows it, by the file's event names; [0] leads.
struct FileGroup {
  std::vector<std::string> events;
  size_t first_line = 0;
  std::vector<size_t> event_lines;  // where each event was first seen
};

// A sample as read: its group's members that the file printed.
struct PendingSample {
  Sample sample;
  uint64_t line_ip = 0;  // the ip its lines show (0 when the callchain gives it)
  size_t line_number = 0;
  uint32_t first_member = 0;  // into Reader::members_
  uint32_t member_count = 0;
};

class Reader {
 public:
  Reader(const std::string& path, const std::vector<ScriptModel>& models) : path_(path), models_(models) {}

  Recording read() {
    {
      std::ifstream probe(path_);
      if (!probe) throw Error("cannot read perf script file " + path_ + "; check the path");
    }
    import::LineReader reader(path_);
    // About two lines of 100 bytes a sample: no regrowth of the big arrays.
    std::error_code unknown_size;
    const auto bytes = std::filesystem::file_size(path_, unknown_size);
    if (!unknown_size) {
      members_.reserve(bytes / 100);
      pending_.reserve(bytes / 200);
    }
    std::string_view text;
    while (reader.next(text)) {
      // perf script ends every line: a last line without its end was cut
      // off, perhaps inside a field that still reads (the dso, the ip).
      if (!reader.line_complete()) {
        recording_.truncated = true;  // only the cut-off last line is lost
        recording_.warnings.push_back(
            fmt::format("{}:{}: the last line is cut off: read the samples before it", path_, reader.line_number()));
        break;
      }
      read_line(text, reader.line_number());
    }
    finish_frame();
    finish_sample();
    if (pending_.empty()) throw Error(path_ + " holds no samples: " + remedy());
    build_groups();
    return std::move(recording_);
  }

 private:
  void read_line(std::string_view text, size_t line_number) {
    const std::string_view trimmed = trim(text);
    if (trimmed.empty()) {
      finish_frame();
      in_callchain_ = false;
      expect_source_line_ = false;
      return;
    }
    if (trimmed.front() == '#') {
      read_header(trimmed);
      return;
    }
    if (trimmed.find("PERF_RECORD_LOST") != std::string_view::npos) {
      read_lost(trimmed);
      return;
    }
    split_tokens(trimmed, tokens_);
    const std::vector<std::string_view>& tokens = tokens_;
    size_t time_index = 0;
    while (time_index < tokens.size() && !time_ns(tokens[time_index])) ++time_index;
    if (time_index == tokens.size()) {
      // The srcline of the line before, or a callchain frame ("ip sym (dso)").
      if (tokens.size() == 1 && (in_callchain_ || expect_source_line_)) {
        if (auto where = source_line(tokens[0])) {
          if (frame_) {
            frame_->file = where->first;
            frame_->line = where->second;
          } else if (expect_source_line_) {
            source_file_ = where->first;
            source_line_ = where->second;
          }
        }
        finish_frame();
      } else if (auto address = number<uint64_t>(tokens[0], 16)) {
        finish_frame();
        in_callchain_ = true;
        if (frames_are_the_samples_) {
          MemberLine frame;
          split_symbol(trimmed.substr(tokens[0].size()), frame);
          frame_ = NamedFrame{*address, std::string(frame.function), std::string(frame.module), {}, 0};
        }
      } else {
        LineError(path_, line_number).fail("no time field: " + remedy());
      }
      expect_source_line_ = false;
      return;
    }
    finish_frame();
    in_callchain_ = false;
    const LineError error(path_, line_number);
    const MemberLine line = parse_member(tokens, trimmed, time_index, error);
    add_member(line, line_number);
    expect_source_line_ = true;
  }

  // A callchain frame of the open sample: the first is where it was taken.
  void finish_frame() {
    if (!frame_ || !open_) {
      frame_.reset();
      return;
    }
    if (frame_->function.empty()) frame_->function = "[unknown]";
    if (frame_->module.empty()) frame_->module = "[unknown]";
    Sample& sample = open_->sample;
    const bool kernel = frame_->module == "[kernel.kallsyms]" || frame_->address >= kKernelStart;
    if (sample.kernel_frames + sample.user_frames == 0) {
      sample.first_frame = static_cast<uint32_t>(recording_.frames.addresses.size());
      if (open_->line_ip == 0) {
        sample.ip = frame_->address;
        sample.kernel = kernel;
        function_ = frame_->function;
        module_ = frame_->module;
        source_file_ = frame_->file;
        source_line_ = frame_->line;
      }
    }
    if (sample.kernel_frames + sample.user_frames < UINT16_MAX) {
      ++(kernel && sample.user_frames == 0 ? sample.kernel_frames : sample.user_frames);
      recording_.frames.addresses.push_back(frame_->address);
      recording_.frames.symbols.push_back(lookup_symbol(frame_->function, frame_->module, frame_->file, frame_->line));
      recording_.header.call_graph = CallGraph::PerfScript;
    }
    frame_.reset();
  }

  void read_header(std::string_view text) {
    const std::string_view key = "group:";
    text.remove_prefix(1);
    text = trim(text);
    if (text.substr(0, key.size()) != key) return;
    text = trim(text.substr(key.size()));
    const size_t open = text.find('{');
    const size_t close = text.rfind('}');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return;
    std::vector<std::string> members = group_members(text.substr(open + 1, close - open - 1));
    if (members.empty() || group_of_leader(members[0])) return;
    FileGroup group;
    group.events = std::move(members);
    group.event_lines.assign(group.events.size(), 0);
    groups_.push_back(std::move(group));
    learned_groups_.push_back(false);
  }

  void read_lost(std::string_view text) {
    split_tokens(text, tokens_);
    for (auto token = tokens_.rbegin(); token != tokens_.rend(); ++token) {
      if (auto lost = number<uint64_t>(*token)) {
        recording_.lost_samples += *lost;
        return;
      }
    }
  }

  std::optional<uint32_t> group_of_leader(std::string_view event) const {
    for (size_t i = 0; i < groups_.size(); ++i) {
      if (groups_[i].events[0] == event) return static_cast<uint32_t>(i);
    }
    return std::nullopt;
  }

  // A member line joins the open sample when it is of the same thread,
  // time and ip and names an event of its group the sample lacks.
  bool joins_open_sample(const MemberLine& line) const {
    if (!open_) return false;
    const Sample& sample = open_->sample;
    if (sample.tid != line.tid || sample.time != line.time || open_->line_ip != line.ip || sample.cpu != line.cpu) {
      return false;
    }
    if (group_of_leader(line.event)) return false;
    const FileGroup& group = groups_[sample.group];
    if (!learned_groups_[sample.group] &&
        std::find(group.events.begin(), group.events.end(), line.event) == group.events.end()) {
      return false;
    }
    for (uint32_t i = 0; i < open_->member_count; ++i) {
      if (groups_[open_->sample.group].events[members_[open_->first_member + i].first] == line.event) return false;
    }
    return true;
  }

  static uint32_t member_index(FileGroup& group, std::string_view event, size_t line_number) {
    for (size_t i = 0; i < group.events.size(); ++i) {
      if (group.events[i] == event) {
        if (group.event_lines[i] == 0) group.event_lines[i] = line_number;
        return static_cast<uint32_t>(i);
      }
    }
    group.events.emplace_back(event);
    group.event_lines.push_back(line_number);
    return static_cast<uint32_t>(group.events.size() - 1);
  }

  void add_member(const MemberLine& line, size_t line_number) {
    // A member's line repeats the leader's callchain.
    frames_are_the_samples_ = !joins_open_sample(line);
    if (frames_are_the_samples_) {
      finish_sample();
      open_.emplace();
      open_->line_ip = line.ip;
      open_->line_number = line_number;
      Sample& sample = open_->sample;
      sample.time = line.time;
      sample.pid = line.pid;
      sample.tid = line.tid;
      sample.cpu = line.cpu;
      sample.ip = line.ip;
      sample.kernel = line.module == "[kernel.kallsyms]" || line.ip >= kKernelStart;
      auto group = group_of_leader(line.event);
      if (!group) {
        FileGroup learned;
        learned.events.emplace_back(line.event);
        learned.event_lines.push_back(line_number);
        learned.first_line = line_number;
        groups_.push_back(std::move(learned));
        learned_groups_.push_back(true);
        group = static_cast<uint32_t>(groups_.size() - 1);
      }
      sample.group = *group;
      open_->first_member = static_cast<uint32_t>(members_.size());
      function_ = line.function;
      module_ = line.module;
      source_file_ = {};
      source_line_ = 0;
    }
    FileGroup& group = groups_[open_->sample.group];
    if (group.first_line == 0) group.first_line = line_number;
    const uint32_t member = member_index(group, line.event, line_number);
    members_.emplace_back(member, line.period);
    ++open_->member_count;
  }

  void finish_sample() {
    if (!open_) return;
    if (function_.empty()) LineError(path_, open_->line_number).fail("no ip field after the event: " + remedy());
    open_->sample.symbol = symbol_index();
    pending_.push_back(*open_);
    open_.reset();
  }

  uint32_t symbol_index() {
    // Samples in a row mostly hit one place: no key to build and hash then.
    if (last_symbol_ != kNoSymbol) {
      const NamedSymbol& last = recording_.symbols[last_symbol_];
      if (last.line == source_line_ && last.function == function_ && last.module == module_ &&
          last.file == source_file_) {
        return last_symbol_;
      }
    }
    last_symbol_ = lookup_symbol(function_, module_, source_file_, source_line_);
    return last_symbol_;
  }

  uint32_t lookup_symbol(const std::string& function, const std::string& module, const std::string& file, int line) {
    key_.assign(function);
    key_ += '\0';
    key_ += module;
    key_ += '\0';
    key_ += file;
    key_ += std::to_string(line);
    auto [entry, fresh] = symbol_indexes_.try_emplace(key_, static_cast<uint32_t>(recording_.symbols.size()));
    if (fresh) recording_.symbols.push_back(NamedSymbol{function, module, file, line, {}});
    return entry->second;
  }

  // The model's events a file event feeds: as import matches them, else a
  // sample event of the model by name (precise events locate, formulas do
  // not use them).
  std::vector<std::string> model_events_of(const std::string& file_event, const model::Model& model,
                                           const import::EventMatcher& matcher, size_t line_number) const {
    const counts::EventKey key = counts::parse_spelled(file_event);
    const std::vector<std::string>& targets = matcher.targets(key.event);
    if (!targets.empty()) return targets;
    const std::string wanted = lowercase(key.event);
    for (const auto& node : model.nodes) {
      for (const auto& event : node.sample_events) {
        if (lowercase(event) == wanted) return {event};
      }
    }
    LineError(path_, line_number)
        .fail(fmt::format("event {} is not an event of the {} model; record the groups topdown record "
                          "--print-perf prints for it",
                          printable(file_event), model.name));
  }

  // The model each sampled group's events are matched by (an index into
  // models_), and each group's events as that model's tree names them; a
  // hybrid CPU's file (core PMUs in its names) by each group's core PMU.
  struct GroupModels {
    std::vector<std::string> core_pmus;           // empty for a CPU with one kind of core
    std::vector<std::optional<size_t>> model_of;  // per group; nullopt: left out
    std::vector<std::vector<std::string>> names;  // per group, per member
  };

  GroupModels assign_models() {
    GroupModels assigned;
    std::vector<std::string> every_name;
    for (const auto& group : groups_) every_name.insert(every_name.end(), group.events.begin(), group.events.end());
    assigned.core_pmus = import::core_pmus_of(every_name);
    std::vector<std::string> left_out;
    for (const FileGroup& group : groups_) {
      std::optional<size_t> model;
      std::vector<std::string> names;
      if (group.first_line != 0 && assigned.core_pmus.empty()) {
        model = 0;
        names = group.events;
      } else if (group.first_line != 0) {
        const std::vector<std::string> pmus = import::core_pmus_of(group.events);
        const std::string pmu = pmus.empty() ? "" : pmus.front();
        for (size_t m = 0; m < models_.size() && !model; ++m) {
          if (models_[m].model.pmu == pmu) model = m;
        }
        if (!model && std::find(left_out.begin(), left_out.end(), pmu) == left_out.end()) left_out.push_back(pmu);
        for (const std::string& event : group.events) {
          // An event of another core PMU in the group counts nothing here.
          names.push_back(import::core_type_name(event, pmu, assigned.core_pmus).value_or(""));
        }
      }
      assigned.model_of.push_back(model);
      assigned.names.push_back(std::move(names));
    }
    if (std::none_of(assigned.model_of.begin(), assigned.model_of.end(), [](const auto& m) { return m.has_value(); })) {
      throw Error(
          fmt::format("{}: its events are counted on {}, the core types of a hybrid CPU, and model {} "
                      "counts on none of them; use --cpu with the P-core model of that CPU, such as --cpu adl",
                      path_, join(assigned.core_pmus, " and "), models_.front().model.name));
    }
    if (!left_out.empty()) {
      recording_.warnings.push_back(fmt::format("{}: the samples of {} are left out: no model given counts on them",
                                                path_, join(left_out, " and ")));
    }
    return assigned;
  }

  void build_groups() {
    const GroupModels assigned = assign_models();
    // Each model's matcher, by its groups' events' own names: a copy
    // ("EVENT:group2") feeds what EVENT feeds.
    std::vector<std::optional<import::EventMatcher>> matchers(models_.size());
    for (size_t m = 0; m < models_.size(); ++m) {
      std::vector<std::string> file_events;
      for (size_t g = 0; g < groups_.size(); ++g) {
        if (assigned.model_of[g] != m) continue;
        for (const auto& event : assigned.names[g]) {
          std::string name = counts::parse_spelled(event).event;
          if (!name.empty() && std::find(file_events.begin(), file_events.end(), name) == file_events.end())
            file_events.push_back(name);
        }
      }
      if (file_events.empty()) continue;
      matchers[m].emplace(models_[m].model, models_[m].resolver);
      matchers[m]->translate(counts::Sample{}, file_events);
    }
    // For each group, where each file member's delta goes among the model's events.
    std::vector<std::vector<std::vector<uint32_t>>> slots(groups_.size());
    std::vector<std::optional<uint32_t>> sampled_index(groups_.size());
    std::vector<bool> model_used(models_.size(), false);
    for (size_t g = 0; g < groups_.size(); ++g) {
      const FileGroup& file_group = groups_[g];
      if (!assigned.model_of[g]) continue;  // a header group never sampled, or of no model's core PMU
      const size_t m = *assigned.model_of[g];
      model_used[m] = true;
      SampledGroup group;
      group.copies.number = static_cast<int>(g + 1);
      if (!assigned.core_pmus.empty()) group.pmu = models_[m].model.pmu;
      for (size_t e = 0; e < file_group.events.size(); ++e) {
        const std::string& name = assigned.names[g][e];
        std::vector<uint32_t> member_slots;
        if (name.empty()) {
          slots[g].push_back(std::move(member_slots));
          continue;
        }
        const counts::EventKey key = counts::parse_spelled(name);
        if (key.group > 0) group.copies.number = key.group;
        const size_t line = file_group.event_lines[e] > 0 ? file_group.event_lines[e] : file_group.first_line;
        for (auto& event : model_events_of(name, models_[m].model, *matchers[m], line)) {
          if (key.group > 0) group.copies.events.insert(event);
          member_slots.push_back(static_cast<uint32_t>(group.events.size()));
          group.events.push_back(std::move(event));
        }
        slots[g].push_back(std::move(member_slots));
      }
      sampled_index[g] = static_cast<uint32_t>(recording_.header.groups.size());
      recording_.header.groups.push_back(std::move(group));
    }
    recording_.samples.reserve(pending_.size());
    for (const PendingSample& pending : pending_) {
      if (!sampled_index[pending.sample.group]) continue;
      Sample sample = pending.sample;
      const auto& group_slots = slots[sample.group];
      sample.group = *sampled_index[sample.group];
      sample.first_value = static_cast<uint32_t>(recording_.values.size());
      recording_.values.resize(recording_.values.size() + recording_.header.groups[sample.group].events.size(), 0);
      for (uint32_t i = 0; i < pending.member_count; ++i) {
        const auto& [member, value] = members_[pending.first_member + i];
        for (uint32_t slot : group_slots[member]) recording_.values[sample.first_value + slot] = value;
      }
      recording_.samples.push_back(sample);
    }
    recording_.header.model = models_.front().model.versioned_name();
    if (assigned.core_pmus.empty()) return;
    for (size_t m = 0; m < models_.size(); ++m) {
      const model::Model& model = models_[m].model;
      if (model_used[m]) recording_.header.core_types.push_back({model.core_type, model.pmu, model.versioned_name()});
    }
    recording_.header.model = recording_.header.core_types.front().model;
  }

  static constexpr uint64_t kKernelStart = 0xffff800000000000ULL;

  const std::string& path_;
  const std::vector<ScriptModel>& models_;
  Recording recording_;
  std::vector<FileGroup> groups_;
  std::vector<bool> learned_groups_;                    // not from the header: members are learned as they come
  std::vector<std::pair<uint32_t, uint64_t>> members_;  // (member of its group, period) of every line
  std::vector<PendingSample> pending_;
  std::optional<PendingSample> open_;
  // A callchain frame until its srcline line (or the next line) ends it.
  struct NamedFrame {
    uint64_t address = 0;
    std::string function;
    std::string module;
    std::string file;
    int line = 0;
  };
  std::optional<NamedFrame> frame_;
  bool frames_are_the_samples_ = false;  // the last member line opened a sample: its callchain is the sample's
  bool in_callchain_ = false;            // a frame line came since the last member line
  bool expect_source_line_ = false;
  std::string function_;
  std::string module_;
  std::string source_file_;
  int source_line_ = 0;
  std::string key_;
  uint32_t last_symbol_ = kNoSymbol;
  std::vector<std::string_view> tokens_;
  std::unordered_map<std::string, uint32_t> symbol_indexes_;
};

}  // namespace

bool looks_like_perf_script(std::string_view text) {
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(begin, end - begin));
    begin = end + 1;
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> words = split_words(line);
    return std::any_of(words.begin(), words.end(), [](std::string_view word) { return time_ns(word).has_value(); });
  }
  return false;
}

Recording read_perf_script(const std::string& path, const model::Model& model, const events::Resolver& resolver) {
  return read_perf_script(path, {ScriptModel{model, resolver}});
}

Recording read_perf_script(const std::string& path, const std::vector<ScriptModel>& models) {
  return Reader(path, models).read();
}

}  // namespace topdown::recording
