#include "cli/event_list.h"

namespace topdown::cli {

std::vector<std::string> split_event_list(const std::string& list) {
  std::vector<std::string> events;
  std::string current;
  bool inside_terms = false;
  for (char c : list) {
    if (c == '/') inside_terms = !inside_terms;
    if (c == ',' && !inside_terms) {
      if (!current.empty()) events.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) events.push_back(current);
  return events;
}

}  // namespace topdown::cli
