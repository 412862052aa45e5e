#include "pprof/pprof.h"

#include <fmt/format.h>
#define ZLIB_CONST  // next_in of a const buffer
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "common/error.h"
#include "common/strings.h"
#include "profile.pb.h"

namespace topdown::pprof {
namespace {

namespace format = topdown::pprof::format;

// Strings once each, by index; entry 0 is the empty string.
class Strings {
 public:
  explicit Strings(format::Profile& profile) : profile_(profile) { index(""); }
  int64_t index(const std::string& text) {
    auto [entry, fresh] = indices_.try_emplace(text, static_cast<int64_t>(indices_.size()));
    if (fresh) profile_.add_string_table(text);
    return entry->second;
  }

 private:
  format::Profile& profile_;
  std::unordered_map<std::string, int64_t> indices_;
};

std::string clock_unit(const std::string& clock_event) {
  const std::string clock = lowercase(clock_event);
  if (clock == "task-clock" || clock == "cpu-clock") return "nanoseconds";
  if (clock.starts_with("cpu_clk_unhalted") || clock == "ls_not_halted_cyc") return "cycles";
  return "count";
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

class Encoder {
 public:
  Encoder(const recording::Recording& recording, const profile::Profile& profile)
      : recording_(recording), profile_(profile), strings_(out_) {}

  std::string encode(const About& about) {
    const std::string unit = clock_unit(profile_.clock_event);
    add_type("samples", "count");
    add_type("clockticks", unit);
    for (const eval::NodeResult& node : profile_.whole.evaluation.nodes) {
      if (node.node->is_info) continue;
      nodes_.push_back(node.node->name);
      add_type(node.node->name, unit);
    }
    out_.set_default_sample_type(strings_.index("clockticks"));
    out_.mutable_period_type()->set_type(strings_.index("clockticks"));
    out_.mutable_period_type()->set_unit(strings_.index(unit));
    const recording::SampledGroup& first = recording_.header.groups.front();
    out_.set_period(static_cast<int64_t>(first.period));
    out_.add_comment(strings_.index("model: " + about.model));
    out_.add_comment(strings_.index("source: " + about.source));
    out_.add_comment(strings_.index(first.period != 0
                                        ? fmt::format("period: every {} {}", first.period, first.events[0])
                                        : fmt::format("period: {} samples per second", first.frequency)));
    out_.add_comment(strings_.index("clockticks: " + profile_.clock_event));
    out_.set_duration_nanos(static_cast<int64_t>(std::llround(profile_.whole.function.counts.duration_s * 1e9)));
    for (const profile::FunctionResult& result : profile_.functions) {
      results_.try_emplace(result.function.name + '\0' + result.function.module, &result);
    }
    for (const recording::SampledGroup& group : recording_.header.groups) {
      const auto clock = std::find(group.events.begin(), group.events.end(), profile_.clock_event);
      clock_slots_.push_back(clock == group.events.end() ? -1 : static_cast<int>(clock - group.events.begin()));
    }
    // pprof takes the first mapping for the program: the module of the
    // function with the largest share.
    if (!profile_.functions.empty()) mapping(profile_.functions.front().function.module);
    for (const recording::Sample& sample : recording_.samples) add_sample(sample);
    return out_.SerializeAsString();
  }

 private:
  void add_type(const std::string& type, const std::string& unit) {
    format::ValueType* value = out_.add_sample_type();
    value->set_type(strings_.index(type));
    value->set_unit(strings_.index(unit));
  }

  void add_sample(const recording::Sample& sample) {
    format::Sample* out = out_.add_sample();
    const uint32_t frames = sample.kernel_frames + sample.user_frames;
    for (uint32_t i = sample.first_frame; i < sample.first_frame + frames; ++i) {
      out->add_location_id(location(recording_.frames.symbols[i], recording_.frames.addresses[i]));
    }
    if (frames == 0) out->add_location_id(location(sample.symbol, sample.ip));
    const int clock_slot = clock_slots_[sample.group];
    const double clock =
        clock_slot < 0 ? 0
                       : static_cast<double>(recording_.values[sample.first_value + static_cast<uint32_t>(clock_slot)]);
    out->add_value(1);
    out->add_value(std::llround(clock));
    const profile::FunctionResult* function = function_of(sample.symbol);
    for (const std::string& node : nodes_) {
      const eval::NodeResult* result = function != nullptr ? function->evaluation.find(node) : nullptr;
      const double value = result != nullptr && result->value ? std::clamp(*result->value, 0.0, 1.0) : 0.0;
      out->add_value(std::llround(value * clock));
    }
  }

  const profile::FunctionResult* function_of(uint32_t symbol) const {
    if (symbol >= recording_.symbols.size()) return nullptr;
    const recording::NamedSymbol& named = recording_.symbols[symbol];
    const auto found = results_.find(named.function + '\0' + named.module);
    return found == results_.end() ? nullptr : found->second;
  }

  // One location per named place (where many addresses fall), at the first
  // address seen there.
  uint64_t location(uint32_t symbol, uint64_t address) {
    auto [entry, fresh] = locations_.try_emplace(symbol, static_cast<uint64_t>(locations_.size() + 1));
    if (!fresh) return entry->second;
    format::Location* location = out_.add_location();
    location->set_id(entry->second);
    location->set_address(address);
    if (symbol >= recording_.symbols.size()) {
      location->add_line()->set_function_id(function("[unknown]", ""));
      return entry->second;
    }
    const recording::NamedSymbol& named = recording_.symbols[symbol];
    location->set_mapping_id(mapping(named.module));
    for (const std::string& inlined : named.inline_chain) {
      format::Line* line = location->add_line();
      line->set_function_id(function(inlined, named.file));
      if (line == &location->line(0)) line->set_line(named.line);
    }
    format::Line* line = location->add_line();
    line->set_function_id(function(named.function, named.file));
    if (named.inline_chain.empty()) line->set_line(named.line);
    return entry->second;
  }

  uint64_t function(const std::string& name, const std::string& file) {
    auto [entry, fresh] = functions_.try_emplace(name + '\0' + file, static_cast<uint64_t>(functions_.size() + 1));
    if (fresh) {
      format::Function* function = out_.add_function();
      function->set_id(entry->second);
      function->set_name(strings_.index(name));
      function->set_system_name(strings_.index(name));
      function->set_filename(strings_.index(file));
    }
    return entry->second;
  }

  // A module by its name: the recorded mapping of that file when there is
  // one (address range, offset, build id).
  uint64_t mapping(const std::string& module) {
    auto [entry, fresh] = mappings_.try_emplace(module, static_cast<uint64_t>(mappings_.size() + 1));
    if (!fresh) return entry->second;
    format::Mapping* mapping = out_.add_mapping();
    mapping->set_id(entry->second);
    mapping->set_filename(strings_.index(module));
    mapping->set_has_functions(true);
    mapping->set_has_filenames(true);
    mapping->set_has_line_numbers(true);
    mapping->set_has_inline_frames(true);
    const auto recorded = std::find_if(
        recording_.mappings.begin(), recording_.mappings.end(),
        [&](const recording::Mapping& m) { return m.executable && (m.path == module || base_name(m.path) == module); });
    if (recorded != recording_.mappings.end()) {
      mapping->set_filename(strings_.index(recorded->path));
      mapping->set_memory_start(recorded->start);
      mapping->set_memory_limit(recorded->start + recorded->length);
      mapping->set_file_offset(recorded->file_offset);
      mapping->set_build_id(strings_.index(recorded->build_id));
    }
    return entry->second;
  }

  const recording::Recording& recording_;
  const profile::Profile& profile_;
  format::Profile out_;
  Strings strings_;
  std::vector<std::string> nodes_;
  std::vector<int> clock_slots_;
  std::unordered_map<std::string, const profile::FunctionResult*> results_;
  std::unordered_map<uint32_t, uint64_t> locations_;
  std::unordered_map<std::string, uint64_t> functions_;
  std::unordered_map<std::string, uint64_t> mappings_;
};

}  // namespace

std::string encode_profile(const recording::Recording& recording, const profile::Profile& profile, const About& about) {
  if (recording.header.groups.empty()) throw Error(about.source + " has no sampled group: nothing for --pprof");
  return Encoder(recording, profile).encode(about);
}

std::string gzip(const std::string& bytes) {
  z_stream stream{};
  constexpr int kGzipWindow = 15 + 16;  // zlib's window, with a gzip header and trailer
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw Error("cannot start compressing the pprof profile (zlib)");
  }
  std::string out(deflateBound(&stream, bytes.size()), '\0');
  stream.next_in = reinterpret_cast<const Bytef*>(bytes.data());
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw Error("cannot compress the pprof profile (zlib)");
  return out;
}

}  // namespace topdown::pprof
