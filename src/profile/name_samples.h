#pragma once
// Names the function and source line of every sample that the file did not
// name (topdown's own data file records ips, perf script names them).
#include <algorithm>
#include <string>
#include <unordered_map>

#include "recording/recording.h"

namespace topdown::profile {

// Feeds `resolver` the recording's mappings and task events in time order,
// each sample resolved at its point in time, and points each sample without
// a symbol at a NamedSymbol (one per function, module and source line).
// `Resolver` is symbols::Symbolizer, or anything with its map, exec, fork,
// exit and resolve members (the tests use a small fake).
template <class Resolver>
void name_samples(recording::Recording& recording, Resolver& resolver) {
  std::unordered_map<std::string, uint32_t> known;
  for (uint32_t i = 0; i < recording.symbols.size(); ++i) {
    const recording::NamedSymbol& symbol = recording.symbols[i];
    known.try_emplace(symbol.function + '\0' + symbol.module + '\0' + symbol.file + ':' + std::to_string(symbol.line),
                      i);
  }
  // Records of one instant: mappings and task events before the samples.
  size_t next_mapping = 0;
  size_t next_task = 0;
  auto feed_until = [&](uint64_t time) {
    while (true) {
      const bool mapping_next = next_mapping < recording.mappings.size() &&
                                recording.mappings[next_mapping].time <= time &&
                                (next_task >= recording.tasks.size() ||
                                 recording.mappings[next_mapping].time <= recording.tasks[next_task].time);
      if (mapping_next) {
        const recording::Mapping& m = recording.mappings[next_mapping++];
        if (m.executable) resolver.map(m.pid, m.start, m.length, m.file_offset, m.path, m.build_id);
        continue;
      }
      if (next_task >= recording.tasks.size() || recording.tasks[next_task].time > time) return;
      const recording::Task& task = recording.tasks[next_task++];
      switch (task.kind) {
        case recording::Task::Kind::Exec:
          resolver.exec(task.pid);
          break;
        case recording::Task::Kind::Fork:
          if (task.pid == task.tid) resolver.fork(task.pid, task.parent_pid);  // a new thread shares its maps
          break;
        case recording::Task::Kind::Exit:
          if (task.pid == task.tid) resolver.exit(task.pid);
          break;
        case recording::Task::Kind::Comm:
          break;
      }
    }
  };
  for (recording::Sample& sample : recording.samples) {
    feed_until(sample.time);
    if (sample.symbol != recording::kNoSymbol) continue;
    // Time in the kernel on a task's behalf (a page fault, a system call) is
    // the cost of the user function that entered it; kernel threads and
    // recordings without that address keep the kernel function.
    const bool charge_caller = sample.kernel && sample.user_ip != 0;
    const auto& where = charge_caller ? resolver.resolve(sample.pid, sample.user_ip, false)
                                      : resolver.resolve(sample.pid, sample.ip, sample.kernel);
    auto [entry, fresh] =
        known.try_emplace(where.function + '\0' + where.module + '\0' + where.file + ':' + std::to_string(where.line),
                          static_cast<uint32_t>(recording.symbols.size()));
    if (fresh) recording.symbols.push_back({where.function, where.module, where.file, where.line});
    sample.symbol = entry->second;
  }
}

}  // namespace topdown::profile
