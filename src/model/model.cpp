#include "model/model.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "common/strings.h"

namespace topdown::model {
namespace {

std::string hex(unsigned value) {
  std::ostringstream out;
  out << "0x" << std::uppercase << std::hex << value;
  return out.str();
}

// The vendor as the cpus key of a model file spells it.
std::string vendor_spelling(cpu::Vendor vendor) {
  switch (vendor) {
    case cpu::Vendor::Amd:
      return "AMD";
    case cpu::Vendor::Intel:
      return "Intel";
    case cpu::Vendor::Arm:
      return "Arm";
    case cpu::Vendor::Other:
      break;
  }
  return "other vendor";
}

std::string describe(const cpu::CpuId& id) {
  const std::string vendor = id.vendor_string.empty() ? vendor_spelling(id.vendor) : id.vendor_string;
  return vendor + " family " + hex(id.family) + " model " + hex(id.model);
}

std::string describe(const std::vector<Model>& models) {
  std::string text;
  for (const Model& model : models) {
    std::vector<std::string> cpus;
    for (const CpuMatch& match : model.cpus) cpus.push_back(to_string(match));
    text += (text.empty() ? "" : "; ") + model.name + " (" + model.title + ": " + join(cpus, ", ") + ")";
  }
  return text;
}

}  // namespace

std::string to_string(const CpuMatch& match) {
  std::string text = vendor_spelling(match.vendor) + " " + hex(match.family);
  if (match.model_min == 0 && match.model_max == 0xffffffff) return text;
  text += " " + hex(match.model_min);
  if (match.model_max != match.model_min) text += "-" + hex(match.model_max);
  if (match.stepping_min == 0 && match.stepping_max == 0xffffffff) return text;
  text += " " + hex(match.stepping_min);
  if (match.stepping_max != match.stepping_min) text += "-" + hex(match.stepping_max);
  return text;
}

bool is_run_variable(std::string_view name) {
  static constexpr std::array<std::string_view, 11> kNames = {
      "smt_enabled", "ebs_mode", "perf_metrics", "num_cpus_online", "interval-s",      "duration_time",
      "#smt_on",     "#slots",   "this",         "parent_over",     "#num_cpus_online"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
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

bool Model::matches(const cpu::CpuId& id) const {
  return std::any_of(cpus.begin(), cpus.end(), [&](const CpuMatch& match) {
    return match.vendor == id.vendor && match.family == id.family && id.model >= match.model_min &&
           id.model <= match.model_max && id.stepping >= match.stepping_min && id.stepping <= match.stepping_max;
  });
}

std::vector<Model> load_all(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    throw Error("model folder " + dir.string() +
                " does not exist; set TOPDOWN_MODELS to the folder holding the *.model files");
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".model") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Model> models;
  for (const std::filesystem::path& file : files) {
    Model model = load_model(file);
    for (const Model& other : models) {
      if (other.name == model.name) {
        throw Error("model files " + other.source.string() + " and " + file.string() + " both define the model '" +
                    model.name + "'; rename or remove one");
      }
    }
    models.push_back(std::move(model));
  }
  return models;
}

Model select_model(const std::filesystem::path& dir, const cpu::CpuId& id, const std::string& name_override) {
  const std::string wanted = lowercase(name_override);
  // A model's own name is nearly always its file's: read that file alone
  // rather than every model (imports start faster).
  const auto own_file = dir / (wanted + ".model");
  if (!wanted.empty() && wanted.find('/') == std::string::npos && std::filesystem::is_regular_file(own_file)) {
    Model model = load_model(own_file);
    if (lowercase(model.name) == wanted) return model;
  }
  std::vector<Model> models = load_all(dir);
  if (models.empty()) {
    throw Error("no *.model files in " + dir.string() + "; set TOPDOWN_MODELS to the folder holding them");
  }
  if (name_override.empty()) {
    for (Model& model : models) {
      if (model.matches(id)) return std::move(model);
    }
    throw Error("no model for this CPU (" + describe(id) + "); supported: " + describe(models) +
                "; use --cpu NAME to pick one");
  }
  std::vector<Model*> candidates;
  for (Model& model : models) {
    if (lowercase(model.name) == wanted) return std::move(model);
    if (lowercase(model.name).starts_with(wanted) || lowercase(model.title).starts_with(wanted)) {
      candidates.push_back(&model);
    }
  }
  if (candidates.size() == 1) return std::move(*candidates.front());
  if (candidates.empty()) {
    throw Error("--cpu " + name_override + " names no model; supported: " + describe(models) +
                "; use --cpu NAME with one of these names");
  }
  std::vector<std::string> names;
  for (const Model* model : candidates) names.push_back(model->name);
  throw Error("--cpu " + name_override + " fits several models (" + join(names, ", ") +
              "); use --cpu NAME with one of these names");
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

}  // namespace topdown::model
