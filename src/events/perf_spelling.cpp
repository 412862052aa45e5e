#include <cstdio>

#include "events/event.h"

namespace topdown::events {
namespace {

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// perf 6.1 takes name=... unquoted when it has only these characters; other
// names are left out rather than risk perf misreading the list.
bool perf_accepts_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '.' || c == ':' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

// We spell the words config/config1/config2 rather than the PMU's format
// terms: perf knows them for every PMU, so the spelling needs no format and
// counts exactly the encoding.
std::string Encoding::perf_spelling() const {
  std::string text;
  // A named event of the PMU (msr/tsc/) is spelled as perf knows it, which is
  // also what perf prints back.
  const bool named_event = !pmu.empty() && name.starts_with(pmu + "/") && name.ends_with('/') &&
                           name.find('=') == std::string::npos && name.find(',') == std::string::npos;
  if (named_event) {
    text = name;
  } else {
    text = (pmu.empty() ? std::string("cpu") : pmu) + "/config=" + hex(config);
    if (config1 != 0) text += ",config1=" + hex(config1);
    if (config2 != 0) text += ",config2=" + hex(config2);
    if (perf_accepts_name(name)) text += ",name=" + name;
    text += '/';
  }
  if (exclude_kernel) text += 'u';
  if (exclude_user) text += 'k';
  text.append(static_cast<size_t>(precise > 0 ? precise : 0), 'p');
  return text;
}

}  // namespace topdown::events
