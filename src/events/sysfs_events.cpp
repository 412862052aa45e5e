#include "events/sysfs_events.h"

#include <linux/perf_event.h>

#include <algorithm>

#include "common/error.h"
#include "events/modifiers.h"

namespace topdown::events {

namespace fs = std::filesystem;

SysfsPmus::SysfsPmus(fs::path devices_dir, cpu::CpuId cpu, std::string core_pmu)
    : devices_dir_(std::move(devices_dir)), cpu_(std::move(cpu)), core_pmu_(std::move(core_pmu)) {
  if (!core_pmu_.empty()) return;
  const bool hybrid = !fs::exists(devices_dir_ / "cpu") && fs::exists(devices_dir_ / "cpu_core");
  core_pmu_ = hybrid ? "cpu_core" : "cpu";
  if (cpu_.vendor != cpu::Vendor::Arm) return;
  // The first, i.e. the only one unless the cores are of several kinds; a
  // model for one kind names its PMU through ResolverConfig::core_pmu.
  const std::vector<cpu::PmuInfo> pmus = cpu::read_pmus(devices_dir_);
  const auto arm_core = std::find_if(pmus.begin(), pmus.end(), cpu::is_arm_core_pmu);
  // Arm's perf has no "cpu" PMU: without one in sysfs (another CPU's model,
  // an import), the name ACPI servers give it.
  core_pmu_ = arm_core != pmus.end() ? arm_core->name : std::string(kAssumedArmCorePmu);
}

fs::path SysfsPmus::pmu_dir(std::string_view pmu) const { return devices_dir_ / std::string(pmu); }

const SysfsPmus::PmuFacts& SysfsPmus::facts(std::string_view pmu) const {
  const std::lock_guard lock(facts_mutex_);
  if (const auto known = facts_.find(pmu); known != facts_.end()) return known->second;
  PmuFacts read = fs::exists(pmu_dir(pmu) / "type") ? single_facts(pmu) : family_facts(pmu);
  return facts_.emplace(std::string(pmu), std::move(read)).first->second;
}

std::optional<uint32_t> SysfsPmus::read_type(std::string_view pmu) const {
  const fs::path type_file = pmu_dir(pmu) / "type";
  const auto text = cpu::read_first_line(type_file);
  if (!text) return std::nullopt;
  return static_cast<uint32_t>(parse_number(*text, type_file.string()));
}

std::optional<unsigned long> box_number(std::string_view pmu, std::string_view family) {
  if (pmu.size() <= family.size() + 1 || !pmu.starts_with(family) || pmu[family.size()] != '_') return std::nullopt;
  const std::string_view digits = pmu.substr(family.size() + 1);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  return std::stoul(std::string(digits));
}

SysfsPmus::PmuFacts SysfsPmus::single_facts(std::string_view pmu) const {
  PmuFacts read;
  read.type = read_type(pmu);
  const fs::path cpumask = pmu_dir(pmu) / "cpumask";
  read.uncore = pmu != core_pmu_ && fs::exists(cpumask);
  if (read.uncore) {
    read.cpus = cpu::parse_index_list(cpu::read_first_line(cpumask).value_or(""), cpumask.string());
  }
  const fs::path format_dir = pmu_dir(pmu) / "format";
  if (fs::is_directory(format_dir)) {
    read.format = PmuFormat::from_directory(format_dir);
  } else if (pmu == core_pmu_) {
    read.format = PmuFormat::builtin_x86_core(cpu_.vendor);
  } else {
    read.format.set_pmu_name(std::string(pmu));
  }
  return read;
}

SysfsPmus::PmuFacts SysfsPmus::family_facts(std::string_view family) const {
  std::vector<std::pair<unsigned long, std::string>> boxes;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(devices_dir_, error)) {
    const std::string name = entry.path().filename().string();
    if (const auto number = box_number(name, family)) boxes.emplace_back(*number, name);
  }
  std::sort(boxes.begin(), boxes.end());
  if (boxes.empty()) return single_facts(family);  // not registered (the core PMU's built-in layout still applies)
  PmuFacts read = single_facts(boxes.front().second);
  read.format.set_pmu_name(std::string(family));
  for (const auto& box : boxes) {
    if (const auto type = read_type(box.second)) read.box_types.push_back(*type);
  }
  return read;
}

PmuFormat SysfsPmus::absent_format(std::string_view pmu) const {
  if (pmu.starts_with("uncore_")) return PmuFormat::builtin_intel_uncore(std::string(pmu), cpu_);
  return PmuFormat::builtin_x86_core(cpu_.vendor);
}

uint32_t SysfsPmus::type(std::string_view pmu) const {
  if (const auto type = facts(pmu).type) return *type;
  // Without sysfs (or a registered core PMU) raw core events still have a type.
  if (pmu == core_pmu_) return PERF_TYPE_RAW;
  throw Error("unknown PMU '" + std::string(pmu) + "': " + (pmu_dir(pmu) / "type").string() + " does not exist; ls " +
              devices_dir_.string() + " lists the PMUs");
}

PmuFormat SysfsPmus::format(std::string_view pmu) const { return facts(pmu).format; }

PmuFormat SysfsPmus::modifier_format(const Encoding& encoding) const {
  if (encoding.type == Encoding::kAbsentPmu) return absent_format(encoding.pmu);
  return format(encoding.pmu);
}

std::optional<std::string> SysfsPmus::named_event(std::string_view pmu, std::string_view name) const {
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return cpu::read_first_line(pmu_dir(pmu) / "events" / std::string(name));
}

void SysfsPmus::pack_term(const PmuFormat& format, const PmuTerm& term, std::string_view pmu, Encoding& encoding,
                          bool expand_aliases) const {
  if (term.name == "name") {
    encoding.name = term.value.value_or("");
    return;
  }
  if (!term.value) {
    // A bare word is one of the PMU's named events, or a flag term set to 1.
    // Aliases are expanded one level only, so an event file naming itself
    // cannot recurse.
    const auto alias = expand_aliases ? named_event(pmu, term.name) : std::nullopt;
    if (alias) {
      const auto expanded = split_pmu_spelling(std::string(pmu) + "/" + *alias + "/");
      for (const PmuTerm& alias_term : expanded->terms) {
        pack_term(format, alias_term, pmu, encoding, false);
      }
      return;
    }
    format.set(encoding, term.name, 1);
    return;
  }
  format.set(encoding, term.name, parse_number(*term.value, "term '" + term.name + "'"));
}

Encoding SysfsPmus::encode(const PmuSpelling& spelling, std::string_view requested, bool pmu_may_be_absent) const {
  Encoding encoding;
  encoding.name = std::string(requested);
  // Our tables spell core events for every core type as cpu/.../.
  const std::string pmu = spelling.pmu == "cpu" ? core_pmu_ : spelling.pmu;
  encoding.pmu = pmu;
  const bool absent = pmu_may_be_absent && pmu != core_pmu_ && !facts(pmu).type;
  encoding.type = absent ? Encoding::kAbsentPmu : type(pmu);
  const PmuFacts& pmu_facts = facts(pmu);
  encoding.uncore = pmu_facts.uncore;
  encoding.box_types = pmu_facts.box_types;
  encoding.uncore_cpus = pmu_facts.cpus;
  const PmuFormat pmu_format = absent ? absent_format(pmu) : pmu_facts.format;
  for (const PmuTerm& term : spelling.terms) {
    pack_term(pmu_format, term, pmu, encoding, true);
  }
  apply_modifiers(parse_suffix_modifiers(spelling.modifiers, requested), pmu_format, encoding);
  return encoding;
}

}  // namespace topdown::events
