#include <fmt/format.h>

#include <algorithm>

#include "collect/collect.h"
#include "common/error.h"
#include "cpu/cpu_info.h"

namespace topdown::collect {

std::vector<int> select_cpus(std::string_view list, const std::filesystem::path& cpu_dir) {
  const std::filesystem::path online_file = cpu_dir / "online";
  const auto online_text = cpu::read_first_line(online_file);
  if (!online_text) {
    throw Error("cannot read the online CPUs from " + online_file.string() + "; is /sys mounted?");
  }
  std::vector<int> online = cpu::parse_index_list(*online_text, online_file.string());
  if (list.empty()) return online;
  std::vector<int> chosen = cpu::parse_index_list(list, fmt::format("-C {}", list));
  for (const int cpu : chosen) {
    if (std::find(online.begin(), online.end(), cpu) == online.end()) {
      throw Error(fmt::format("-C {}: CPU {} is not online (online: {}); choose from those", list, cpu, *online_text));
    }
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  return chosen;
}

}  // namespace topdown::collect
