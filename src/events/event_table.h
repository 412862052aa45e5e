#pragma once
// Our own event tables (models/events/<name>.events), one event a line:
//   name = cpu/event=0x1a0,umask=0x1/  counters=0-3 fixed=1 uncore   # comment
// The definition is a perf PMU spelling; the attributes are optional. A name
// may itself be a PMU spelling (msr/tsc/), so it resolves where this machine
// has no such PMU.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace topdown::events {

struct TableEntry {
  std::string name;        // as written
  std::string definition;  // "cpu/event=0x1a0,umask=0x1/"
  uint64_t counter_mask = ~0ull;
  std::optional<int> fixed_counter;
  bool uncore = false;
  bool topdown_metric = false;
  SourceLocation where;             // the name
  SourceLocation definition_where;  // the definition
};

class EventTable {
 public:
  // Throws topdown::Error when the file cannot be read and ParseError
  // (file:line:col) for a malformed line.
  static EventTable load(const std::filesystem::path& file);
  static EventTable parse(std::string_view text, const std::string& file_name);

  // Event names compare without regard to case.
  const TableEntry* find(std::string_view name) const;
  const std::map<std::string, TableEntry>& entries() const { return entries_; }
  const std::string& name() const { return name_; }  // the file's stem

 private:
  std::string name_;
  std::map<std::string, TableEntry> entries_;  // keyed by lower-case name
};

}  // namespace topdown::events
