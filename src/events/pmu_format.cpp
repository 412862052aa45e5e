#include "events/pmu_format.h"

#include <charconv>
#include <cstdio>
#include <utility>

#include "common/error.h"

namespace topdown::events {
namespace {

constexpr std::string_view kWordNames[] = {"config", "config1", "config2"};

uint64_t& word_of(Encoding& encoding, int word) {
  return word == 0 ? encoding.config : word == 1 ? encoding.config1 : encoding.config2;
}

uint64_t word_of(const Encoding& encoding, int word) {
  return word == 0 ? encoding.config : word == 1 ? encoding.config1 : encoding.config2;
}

uint64_t low_bits(unsigned count) { return count >= 64 ? ~0ull : (1ull << count) - 1; }

unsigned parse_bit(std::string_view text, bool& ok) {
  unsigned bit = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), bit);
  ok = ok && status == std::errc() && end == text.data() + text.size() && bit < 64;
  return bit;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

MissingTerm::MissingTerm(std::string term, std::string pmu)
    : Error("unknown term '" + term + "' for PMU '" + pmu +
            "'; see the PMU's format directory for the terms it accepts"),
      term_(std::move(term)),
      pmu_(std::move(pmu)) {}

PmuFormat PmuFormat::from_directory(const std::filesystem::path& format_dir) {
  PmuFormat format;
  format.pmu_name_ = format_dir.parent_path().filename().string();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(format_dir, error)) {
    const auto description = cpu::read_first_line(entry.path());
    if (!description) throw Error(entry.path().string() + ": cannot read this format file");
    format.add_term(entry.path().filename().string(), *description, entry.path().string());
  }
  if (error) throw Error(format_dir.string() + ": cannot list the PMU's format terms");
  return format;
}

PmuFormat PmuFormat::builtin_x86_core(cpu::Vendor vendor) {
  PmuFormat format;
  format.pmu_name_ = "cpu";
  const std::string_view origin = "built-in x86 core format";
  if (vendor == cpu::Vendor::Amd) {
    format.add_term("event", "config:0-7,32-35", origin);
  } else {
    format.add_term("event", "config:0-7", origin);
    format.add_term("pc", "config:19", origin);
    format.add_term("any", "config:21", origin);
    format.add_term("in_tx", "config:32", origin);
    format.add_term("in_tx_cp", "config:33", origin);
    format.add_term("eq", "config:36", origin);
    format.add_term("umask2", "config:40-47", origin);  // Lion Cove on: the unit mask's extension
    format.add_term("offcore_rsp", "config1:0-63", origin);
    format.add_term("ldlat", "config1:0-15", origin);
    format.add_term("frontend", "config1:0-23", origin);
  }
  format.add_term("umask", "config:8-15", origin);
  format.add_term("edge", "config:18", origin);
  format.add_term("inv", "config:23", origin);
  format.add_term("cmask", "config:24-31", origin);
  return format;
}

PmuFormat PmuFormat::builtin_intel_uncore(std::string pmu, const cpu::CpuId& cpu) {
  PmuFormat format;
  format.pmu_name_ = std::move(pmu);
  const std::string_view origin = "built-in Intel uncore format";
  format.add_term("event", "config:0-7", origin);
  format.add_term("umask", "config:8-15,32-55", origin);
  format.add_term("edge", "config:18", origin);
  format.add_term("inv", "config:23", origin);
  format.add_term("thresh", "config:24-31", origin);
  format.add_term("cmask", "config:24-31", origin);  // the client units' name for it
  if (format.pmu_name_ == "uncore_iio") {
    // The kernel's IIO formats: Skylake and Cascade Lake servers (model 0x55)
    // have eight port bits; Ice Lake server and later twelve, the function
    // mask above them.
    const bool skylake_server = cpu.vendor == cpu::Vendor::Intel && cpu.family == 6 && cpu.model == 0x55;
    format.add_term("umask", "config:8-15", origin);
    format.add_term("ch_mask", skylake_server ? "config:36-43" : "config:36-47", origin);
    format.add_term("fc_mask", skylake_server ? "config:44-46" : "config:48-50", origin);
  }
  return format;
}

void PmuFormat::add_term(const std::string& term, std::string_view description, std::string_view origin) {
  const auto reject = [&]() {
    throw Error(std::string(origin) + ": format '" + std::string(description) + "' is not like config:0-7,32-35");
  };
  const size_t colon = description.find(':');
  if (colon == std::string_view::npos) reject();
  int word = -1;
  for (int i = 0; i < 3; ++i) {
    if (description.substr(0, colon) == kWordNames[i]) word = i;
  }
  if (word < 0) reject();
  std::vector<BitRange> ranges;
  std::string_view rest = description.substr(colon + 1);
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const size_t dash = item.find('-');
    bool ok = true;
    BitRange range{word, parse_bit(item.substr(0, dash), ok), 0};
    range.high = dash == std::string_view::npos ? range.low : parse_bit(item.substr(dash + 1), ok);
    if (!ok || range.high < range.low) reject();
    ranges.push_back(range);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  terms_[term] = std::move(ranges);
}

const std::vector<PmuFormat::BitRange>* PmuFormat::ranges_of(std::string_view term) const {
  if (const auto found = terms_.find(term); found != terms_.end()) return &found->second;
  static const std::vector<BitRange> whole_words[] = {{{0, 0, 63}}, {{1, 0, 63}}, {{2, 0, 63}}};
  for (int i = 0; i < 3; ++i) {
    if (term == kWordNames[i]) return &whole_words[i];
  }
  return nullptr;
}

bool PmuFormat::knows(std::string_view term) const { return ranges_of(term) != nullptr; }

void PmuFormat::set(Encoding& encoding, std::string_view term, uint64_t value) const {
  const auto* ranges = ranges_of(term);
  if (ranges == nullptr) throw MissingTerm(std::string(term), pmu_name_);
  unsigned width = 0;
  for (const BitRange& range : *ranges) width += range.high - range.low + 1;
  if ((value & ~low_bits(width)) != 0) {
    throw Error("value " + hex(value) + " does not fit term '" + std::string(term) + "' of PMU '" + pmu_name_ + "' (" +
                std::to_string(width) + " bits)");
  }
  for (const BitRange& range : *ranges) {
    const unsigned bits = range.high - range.low + 1;
    const uint64_t mask = low_bits(bits);
    uint64_t& word = word_of(encoding, range.word);
    word = (word & ~(mask << range.low)) | ((value & mask) << range.low);
    value = bits >= 64 ? 0 : value >> bits;
  }
}

uint64_t PmuFormat::get(const Encoding& encoding, std::string_view term) const {
  const auto* ranges = ranges_of(term);
  if (ranges == nullptr) return 0;
  uint64_t value = 0;
  unsigned shift = 0;
  for (const BitRange& range : *ranges) {
    const unsigned bits = range.high - range.low + 1;
    const uint64_t part = (word_of(encoding, range.word) >> range.low) & low_bits(bits);
    if (shift < 64) value |= part << shift;
    shift += bits;
  }
  return value;
}

}  // namespace topdown::events
