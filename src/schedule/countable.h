#pragma once
// What the machine that counts can count: the classes of events its PMU
// lacks (a virtual machine's partial PMU: no PERF_METRICS, no frontend,
// offcore_rsp or ldlat format term, no PEBS, no uncore PMUs, only the
// architectural events), each with the reason, found once from sysfs and one
// trial open per class. The plan leaves out the nodes that need them and
// says why.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu_info.h"
#include "events/event.h"

namespace topdown::schedule {

// The kinds of event that a partial PMU may lack, apart from one another.
enum class EventClass {
  PerfMetrics,       // Intel's PERF_METRICS fields (TOPDOWN.* metrics)
  Frontend,          // FRONTEND_RETIRED.*: the frontend term (MSR_PEBS_FRONTEND)
  OffcoreResponse,   // OCR.*, OFFCORE_RESPONSE*: the offcore_rsp term
  LoadLatency,       // *LOAD_LATENCY*: the ldlat term
  Precise,           // :p events: PEBS
  NonArchitectural,  // a core event that is not one of the seven architectural ones
  Uncore,            // an uncore PMU's events (one class per PMU)
};

// The class of `event` that a partial PMU may lack; nullopt for an event
// every PMU that counts at all counts (an architectural core event, a
// software event).
std::optional<EventClass> event_class(const events::Encoding& event);

// The class of an event by its name alone, for those that need a format
// term (frontend, offcore_rsp, ldlat): without the term its encoding cannot
// be written, so only the name tells.
std::optional<EventClass> term_class(std::string_view name);

// How the classes' events are spelled in messages: "FRONTEND_RETIRED.*",
// "uncore_imc events".
std::string class_label(EventClass kind, const events::Encoding& example);

// Opens `event` once on this machine and closes it: 0 when it opened, else
// the errno. Tests answer for a fixture's machine.
using TrialOpen = std::function<int(const events::Encoding&)>;

// One class this machine cannot count.
struct MissingClass {
  std::string label;  // class_label
  std::string why;    // "frontend term missing", "opening it failed: ..."
};

class Countable {
 public:
  // Every event counts (a plan for another machine's CPU).
  Countable() = default;

  // What `cpu` counts of `needed` (the events a model may plan): each class
  // found among them is checked once in sysfs (the core PMU's format terms
  // and caps, the topdown-* events, the uncore PMUs), then, when `open` is
  // given, by one trial open of its first event. A trial refused for
  // permission (EACCES, EPERM) says nothing of the PMU: the class counts.
  static Countable of_machine(const cpu::CpuInfo& cpu, const std::vector<events::Encoding>& needed,
                              const TrialOpen& open);

  // Why `event` cannot be counted here: "this machine's PMU does not count
  // FRONTEND_RETIRED.*: frontend term missing, a virtual machine?";
  // nullopt when it can.
  std::optional<std::string> why_not(const events::Encoding& event) const;

  // The same for an event of `core_pmu` that cannot be encoded for it: one
  // that needs a format term (term_class) the PMU lacks.
  std::optional<std::string> why_not(std::string_view name, std::string_view core_pmu) const;

  // The classes that do not count, by label, for `topdown info`.
  std::vector<MissingClass> missing() const;
  // The labels of the classes that were checked and count.
  const std::vector<std::string>& counting() const { return counting_; }

  // Marks `event`'s class as not counting (a failed open at run time).
  void refuse(const events::Encoding& event, std::string why);

  bool everything() const { return missing_.empty(); }

 private:
  // By class key: the class, or for uncore "uncore:" and the PMU.
  std::map<std::string, MissingClass, std::less<>> missing_;
  std::vector<std::string> counting_;
};

}  // namespace topdown::schedule
