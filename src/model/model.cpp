#include "model/model.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <sstream>

namespace topdown::model {
namespace {

std::string hex(unsigned value) {
  std::ostringstream out;
  out << "0x" << std::uppercase << std::hex << value;
  return out.str();
}

// Whether some CPU fits both items.
bool overlaps(const CpuMatch& a, const CpuMatch& b) {
  return a.vendor == b.vendor && a.family == b.family && a.model_min <= b.model_max && b.model_min <= a.model_max &&
         a.stepping_min <= b.stepping_max && b.stepping_min <= a.stepping_max;
}

bool shares_cpu(const ModelHeader& a, const ModelHeader& b) {
  return std::any_of(a.cpus.begin(), a.cpus.end(), [&](const CpuMatch& ours) {
    return std::any_of(b.cpus.begin(), b.cpus.end(), [&](const CpuMatch& theirs) { return overlaps(ours, theirs); });
  });
}

// The model in `dir` of `model`'s CPU counting on `pmu`, if any.
std::optional<Model> core_type_model(const Model& model, std::string_view pmu, const std::filesystem::path& dir) {
  if (model.core_type.empty() || pmu.empty()) return std::nullopt;
  for (const ModelHeader& header : load_headers(dir)) {
    if (header.pmu == pmu && !header.core_type.empty() && shares_cpu(header, model)) return load_model(header.source);
  }
  return std::nullopt;
}

}  // namespace

std::string to_string(const CpuMatch& match) {
  std::string text = cpu::vendor_name(match.vendor) + " " + hex(match.family);
  if (match.model_min == 0 && match.model_max == 0xffffffff) return text;
  text += " " + hex(match.model_min);
  if (match.model_max != match.model_min) text += "-" + hex(match.model_max);
  if (match.stepping_min == 0 && match.stepping_max == 0xffffffff) return text;
  text += " " + hex(match.stepping_min);
  if (match.stepping_max != match.stepping_min) text += "-" + hex(match.stepping_max);
  return text;
}

bool is_run_variable(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kNames = {
      "smt_enabled",      "ebs_mode",         "perf_metrics", "num_cpus_online", "interval-s",       "duration_time",
      "#smt_on",          "#slots",           "this",         "parent_over",     "#num_cpus_online", "#socket_count",
      "#chas_per_socket", "#cores_per_socket"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end() || is_retire_latency(name);
}

namespace {
constexpr std::string_view kRetireLatencyPrefix = "Retire_Latency_";
}

std::string retire_latency_name(std::string_view event) {
  std::string name(kRetireLatencyPrefix);
  for (const char c : event) name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return name;
}

bool is_retire_latency(std::string_view name) {
  return name.starts_with(kRetireLatencyPrefix) && name.size() > kRetireLatencyPrefix.size();
}

std::optional<std::string_view> over_target(std::string_view identifier) {
  constexpr std::string_view kPrefix = "over(";
  if (!identifier.starts_with(kPrefix) || !identifier.ends_with(')')) return std::nullopt;
  return identifier.substr(kPrefix.size(), identifier.size() - kPrefix.size() - 1);
}

const Node* Model::find(std::string_view wanted) const {
  for (const Node& node : nodes) {
    if (node.name == wanted || (!node.vendor_name.empty() && node.vendor_name == wanted)) {
      return &node;
    }
  }
  return nullptr;
}

std::vector<const Node*> Model::children(std::string_view parent) const {
  std::vector<const Node*> found;
  for (const Node& node : nodes) {
    if (!node.is_info && node.parent == parent) found.push_back(&node);
  }
  return found;
}

bool is_version(std::string_view text) {
  const std::size_t dot = text.find('.');
  const auto digits = [](std::string_view part) {
    return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return dot == std::string_view::npos ? digits(text) : digits(text.substr(0, dot)) && digits(text.substr(dot + 1));
}

int compare_versions(std::string_view a, std::string_view b) {
  // Whole numbers by value (leading zeros dropped, then length, then digits),
  // fractions digit by digit, the shorter padded with zeros (5.1 is 5.10).
  const auto whole = [](std::string_view v) {
    v = v.substr(0, v.find('.'));
    while (v.size() > 1 && v.front() == '0') v.remove_prefix(1);
    return v;
  };
  const auto fraction = [](std::string_view v) {
    const std::size_t dot = v.find('.');
    return dot == std::string_view::npos ? std::string_view() : v.substr(dot + 1);
  };
  const std::string_view whole_a = whole(a);
  const std::string_view whole_b = whole(b);
  if (whole_a.size() != whole_b.size()) return whole_a.size() < whole_b.size() ? -1 : 1;
  if (const int order = whole_a.compare(whole_b); order != 0) return order < 0 ? -1 : 1;
  std::string fraction_a(fraction(a));
  std::string fraction_b(fraction(b));
  const std::size_t digits = std::max(fraction_a.size(), fraction_b.size());
  fraction_a.resize(digits, '0');
  fraction_b.resize(digits, '0');
  const int order = fraction_a.compare(fraction_b);
  return order < 0 ? -1 : (order > 0 ? 1 : 0);
}

std::string ModelHeader::versioned_name() const { return version.empty() ? name : name + "@" + version; }

bool ModelHeader::matches(const cpu::CpuId& id) const {
  return std::any_of(cpus.begin(), cpus.end(), [&](const CpuMatch& match) {
    return match.vendor == id.vendor && match.family == id.family && id.model >= match.model_min &&
           id.model <= match.model_max && id.stepping >= match.stepping_min && id.stepping <= match.stepping_max;
  });
}

std::vector<Model> with_companion(Model model, const std::filesystem::path& dir) {
  std::vector<Model> models;
  if (!model.companion.empty()) {
    Model companion = select_model(dir, {}, model.companion);
    if (companion.pmu.empty() || companion.pmu == model.pmu || companion.core_type == model.core_type) {
      throw Error("model " + model.name + " names " + companion.name + " as the model of its other core type, but " +
                  companion.name + " has pmu '" + companion.pmu + "' and core_type '" + companion.core_type +
                  "'; give each model of a hybrid CPU its own pmu and core_type");
    }
    models.push_back(std::move(model));
    models.push_back(std::move(companion));
    return models;
  }
  models.push_back(std::move(model));
  return models;
}

std::vector<Model> with_core_type_pmus(std::vector<Model> models, const cpu::CpuInfo& cpu,
                                       const std::filesystem::path& dir) {
  for (const cpu::PmuInfo& pmu : cpu.hybrid_core_pmus()) {
    const bool counted =
        std::any_of(models.begin(), models.end(), [&](const Model& model) { return model.pmu == pmu.name; });
    if (counted) continue;
    if (std::optional<Model> further = core_type_model(models.front(), pmu.name, dir)) {
      models.push_back(std::move(*further));
    }
  }
  return models;
}

}  // namespace topdown::model
