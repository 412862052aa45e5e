#include "import/counts_file.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "common/error.h"
#include "import/text_fields.h"

namespace topdown::import {
namespace {

std::string_view without_comment(std::string_view line) { return trim(line.substr(0, line.find('#'))); }

// The whitespace-separated words of `line`: up to 3 (a third means too many).
size_t words_of(std::string_view line, std::array<std::string_view, 3>& words) {
  size_t count = 0;
  size_t at = 0;
  while (count < words.size()) {
    at = line.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) break;
    const size_t end = std::min(line.find_first_of(" \t", at), line.size());
    words[count++] = line.substr(at, end - at);
    at = end;
  }
  return count;
}

bool flag_value(double value) { return value == 0 || value == 1; }

struct MachineSize {
  CountsLine::Kind kind;
  const char* what;
};
const std::map<std::string_view, MachineSize> kMachineSizes = {
    {"num_cpus_online", {CountsLine::Kind::OnlineCpus, "CPUs"}},
    {"socket_count", {CountsLine::Kind::Sockets, "sockets"}},
    {"chas_per_socket", {CountsLine::Kind::ChasPerSocket, "CHA boxes"}},
    {"cores_per_socket", {CountsLine::Kind::CoresPerSocket, "cores"}}};

}  // namespace

bool looks_like_counts_line(std::string_view line) {
  std::array<std::string_view, 3> words;
  return words_of(without_comment(line), words) == 2 && looks_like_number(words[1]);
}

CountsLine parse_counts_line(std::string_view line) {
  CountsLine parsed;
  line = without_comment(line);
  if (line.empty()) return parsed;
  std::array<std::string_view, 3> words;
  if (words_of(line, words) != 2) {
    throw Error(fmt::format(
        "expected 'EVENT VALUE' or a run variable (interval-s, smt_enabled, ebs_mode, perf_metrics, num_cpus_online, "
        "socket_count, chas_per_socket, cores_per_socket), found '{}'",
        excerpt(line)));
  }
  parsed.name = words[0];
  const auto value = parse_count(words[1]);
  if (!value) throw Error(fmt::format("value '{}' of {} is not a number >= 0", excerpt(words[1]), excerpt(words[0])));
  parsed.value = *value;
  parsed.kind = CountsLine::Kind::Event;
  if (parsed.name == "interval-s") {
    // Beyond 1e9 s (31 years) the run's nanoseconds would not fit in 64 bits.
    if (parsed.value <= 0 || parsed.value > 1e9) {
      throw Error("interval-s must be a number of seconds above 0, at most 1e9");
    }
    parsed.kind = CountsLine::Kind::IntervalSeconds;
  } else if (auto machine_size = kMachineSizes.find(parsed.name); machine_size != kMachineSizes.end()) {
    if (parsed.value < 1 || parsed.value != std::floor(parsed.value) || parsed.value > 1e6) {
      throw Error(fmt::format("{} must be a whole number of {}, 1 or more", parsed.name, machine_size->second.what));
    }
    parsed.kind = machine_size->second.kind;
  } else if (parsed.name == "smt_enabled" || parsed.name == "ebs_mode" || parsed.name == "perf_metrics") {
    if (!flag_value(parsed.value)) throw Error(std::string(parsed.name) + " must be 0 or 1");
    parsed.kind = parsed.name == "smt_enabled" ? CountsLine::Kind::SmtEnabled
                  : parsed.name == "ebs_mode"  ? CountsLine::Kind::EbsMode
                                               : CountsLine::Kind::PerfMetrics;
  }
  return parsed;
}

}  // namespace topdown::import
