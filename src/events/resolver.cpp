#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <utility>

#include "common/error.h"
#include "common/strings.h"
#include "events/event.h"
#include "events/event_table.h"
#include "events/modifiers.h"
#include "events/pfm_events.h"
#include "events/pmu_format.h"
#include "events/raw_syntax.h"
#include "events/software_events.h"
#include "events/sysfs_events.h"

namespace topdown::events {
namespace {

constexpr std::string_view kSkipPfm = "-";

std::string describe_cpu(const cpu::CpuId& id) {
  char text[64];
  std::snprintf(text, sizeof text, " family 0x%x model 0x%x", id.family, id.model);
  return cpu::vendor_name(id.vendor) + text;
}

}  // namespace

struct Resolver::Impl {
  explicit Impl(ResolverConfig config_in)
      : config(std::move(config_in)), pmus(config.sysfs_devices, config.cpu.id, config.core_pmu) {
    load_tables();
  }

  // libpfm4 starts only when an event is in no table: its start-up (a few
  // milliseconds, most of an import's) is wasted on models whose tables
  // know every event.
  struct PfmChoice {
    std::string pmu;          // empty: libpfm4 not consulted
    std::string description;  // for error messages
  };
  const PfmChoice& pfm() const {
    std::call_once(pfm_chosen, [this] {
      if (config.pfm_pmu == kSkipPfm) {
        pfm_choice.description = "not used";
      } else if (config.pfm_pmu.empty()) {
        pfm_choice.pmu = pfm_host_core_pmu();
        pfm_choice.description = pfm_choice.pmu.empty() ? "knows no PMU for this CPU" : pfm_choice.pmu;
      } else if (pfm_knows_pmu(config.pfm_pmu)) {
        pfm_choice.pmu = config.pfm_pmu;
        pfm_choice.description = pfm_choice.pmu;
      } else {
        // A model may name a PMU that only a newer libpfm4 knows (amd64_fam1ah_zen5
        // is not in 4.13); its own table still works.
        pfm_choice.description = config.pfm_pmu + " unknown to this libpfm4";
      }
    });
    return pfm_choice;
  }

  void load_tables() {
    for (const auto& path : config.tables) {
      const EventTable table = EventTable::load(path);
      table_names.push_back(table.name());
      for (const auto& [key, entry] : table.entries()) {
        if (table_events.count(key) != 0 || refused_events.count(key) != 0) continue;  // an earlier table wins
        try {
          table_events.emplace(key, encode_entry(entry, table.name()));
        } catch (const MissingTerm& missing) {
          // Refused when asked for, so that the model's other events still count.
          refused_events.emplace(key, refusal(entry.name, missing));
        }
      }
    }
  }

  static std::string refusal(const std::string& event, const MissingTerm& missing) {
    return "event " + event + " needs the field " + missing.term() + " of PMU " + missing.pmu() +
           ", which this machine's " + missing.pmu() + " lacks (no format/" + missing.term() +
           "; without it the event counts another): a kernel older than this CPU, or a virtual machine whose PMU "
           "hides it; count on bare metal with a kernel that knows this CPU";
  }

  Encoding encode_entry(const TableEntry& entry, const std::string& table_name) const {
    Encoding encoding;
    try {
      encoding = encode_spelled(entry.definition, /*pmu_may_be_absent=*/true).value();
    } catch (const MissingTerm& missing) {
      // A field of the kernel's layout that this PMU lacks (an older kernel)
      // refuses the event alone; a term no layout has is a mistake in the table.
      if (PmuFormat::builtin_x86_core(config.cpu.id.vendor).knows(missing.term())) throw;
      throw ParseError(entry.definition_where, missing.what());
    } catch (const Error& error) {
      throw ParseError(entry.definition_where, error.what());
    }
    encoding.name = entry.name;
    encoding.counter_mask = entry.counter_mask;
    encoding.fixed_counter = entry.fixed_counter;
    encoding.topdown_metric = entry.topdown_metric;
    encoding.uncore = encoding.uncore || entry.uncore;
    encoding.source = "table:" + table_name;
    return encoding;
  }

  // "rNNN" and "pmu/.../"; nullopt for other names.
  std::optional<Encoding> encode_spelled(std::string_view name, bool pmu_may_be_absent = false) const {
    if (const auto raw = split_raw_spelling(name)) {
      Encoding encoding = core_encoding(name, "raw");
      encoding.config = raw->config;
      apply_modifiers(parse_suffix_modifiers(raw->modifiers, name), pmus.format(pmus.core_pmu()), encoding);
      return encoding;
    }
    if (const auto spelling = split_pmu_spelling(name)) {
      Encoding encoding = pmus.encode(*spelling, name, pmu_may_be_absent);
      const bool named_event = spelling->terms.size() == 1 && !spelling->terms.front().value &&
                               pmus.named_event(spelling->pmu, spelling->terms.front().name);
      encoding.source = named_event ? "sysfs" : "raw";
      return encoding;
    }
    return std::nullopt;
  }

  Encoding core_encoding(std::string_view name, std::string source) const {
    Encoding encoding;
    encoding.name = std::string(name);
    encoding.pmu = pmus.core_pmu();
    encoding.type = pmus.type(pmus.core_pmu());
    encoding.source = std::move(source);
    return encoding;
  }

  // A table's event whose field the PMU lacks: refused, naming the event, the field and the PMU.
  void refuse_if_unencodable(std::string_view name) const {
    if (const auto refused = refused_events.find(lowercase(name)); refused != refused_events.end()) {
      throw Error(refused->second);
    }
  }

  std::optional<Encoding> find_named(std::string_view base, std::string_view requested) const {
    refuse_if_unencodable(base);
    if (const auto found = table_events.find(lowercase(base)); found != table_events.end()) {
      Encoding encoding = found->second;
      encoding.name = std::string(requested);
      return encoding;
    }
    if (auto software = software_event(base)) {
      software->name = std::string(requested);
      return software;
    }
    if (const std::string& pfm_pmu = pfm().pmu; !pfm_pmu.empty()) {
      if (const auto encoded = pfm_encode(pfm_pmu, base)) {
        Encoding encoding = core_encoding(requested, "libpfm4");
        encoding.config = encoded->config;
        encoding.config1 = encoded->config1;
        encoding.config2 = encoded->config2;
        return encoding;
      }
    }
    if (const auto terms = pmus.named_event(pmus.core_pmu(), base)) {
      Encoding encoding = pmus.encode(*split_pmu_spelling(pmus.core_pmu() + "/" + *terms + "/"), requested);
      encoding.source = "sysfs";
      return encoding;
    }
    return std::nullopt;
  }

  Encoding resolve(std::string_view name) const {
    // A table may name a PMU spelling (msr/tsc/) to resolve it where this
    // machine lacks the PMU.
    refuse_if_unencodable(name);
    if (const auto found = table_events.find(lowercase(name)); found != table_events.end()) {
      Encoding encoding = found->second;
      encoding.name = std::string(name);
      return encoding;
    }
    if (auto spelled = encode_spelled(name)) return std::move(*spelled);
    Modifiers modifiers;
    const std::string_view base = strip_modifiers(name, modifiers);
    auto encoding = find_named(base, name);
    if (!encoding) throw Error(unknown_message(name));
    apply_modifiers(modifiers, pmus.modifier_format(*encoding), *encoding);
    return std::move(*encoding);
  }

  std::string unknown_message(std::string_view name) const {
    const std::string tables = table_names.empty() ? "not in any table" : "not in table " + join(table_names, ", ");
    return "unknown event '" + std::string(name) + "' for " + describe_cpu(config.cpu.id) + ": " + tables +
           ", libpfm4 (" + pfm().description + ") or sysfs; check the spelling or give it as " + pmus.core_pmu() +
           "/event=...,umask=.../";
  }

  ResolverConfig config;
  SysfsPmus pmus;
  std::vector<std::string> table_names;
  std::map<std::string, Encoding> table_events;       // by lower-case name
  std::map<std::string, std::string> refused_events;  // by lower-case name: why it cannot be encoded here
  mutable std::once_flag pfm_chosen;
  mutable PfmChoice pfm_choice;
};

Resolver::Resolver(ResolverConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Resolver::~Resolver() = default;
Resolver::Resolver(Resolver&&) noexcept = default;
Resolver& Resolver::operator=(Resolver&&) noexcept = default;

Encoding Resolver::resolve(std::string_view name) const { return impl_->resolve(name); }

bool Resolver::knows(std::string_view name) const {
  try {
    impl_->resolve(name);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace topdown::events
