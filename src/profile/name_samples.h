#pragma once
// Names the function and source line of every sample that the file did not
// name (topdown's own data file records ips, perf script names them), and
// of every frame of their call stacks, unwinding the stacks that were
// copied (record --call-graph dwarf) first.
#include <algorithm>
#include <span>
#include <string>
#include <unordered_map>

#include "profile/task_replay.h"
#include "recording/recording.h"
#include "symbols/unwinder.h"

namespace topdown::profile {

// The key of a named place: one NamedSymbol per function, module, source
// line and inlined functions.
template <class Where>
std::string symbol_key(const Where& where) {
  std::string key = where.function + '\0' + where.module + '\0' + where.file + ':' + std::to_string(where.line);
  for (const std::string& inlined : where.inline_chain) key += '\0' + inlined;
  return key;
}

// Replaces the copied stack of `sample` by its unwound user frames, after
// its kernel frames; a kernel sample enters the kernel at the first of them.
template <class Resolver>
void unwind_sample(recording::Recording& recording, recording::Sample& sample, Resolver& resolver) {
  const recording::UserStack& saved = recording.user_stacks[sample.user_stack];
  const auto registers = std::span(recording.stack_registers).subspan(saved.first_register, saved.registers);
  const auto stack = recording.stack_bytes.bytes().subspan(saved.first_byte, saved.bytes);
  recording::Frames& frames = recording.frames;
  // The kernel frames move to the end of the pool, the user frames follow.
  const std::size_t first = frames.addresses.size();
  for (uint32_t i = 0; i < sample.kernel_frames; ++i)
    frames.addresses.push_back(frames.addresses[sample.first_frame + i]);
  const std::size_t max_frames = std::max<std::size_t>(recording.header.max_stack, 1);
  resolver.unwind(sample.pid, sample.tid, symbols::UserState{recording.user_register_mask, registers, stack},
                  max_frames, frames.addresses);
  sample.first_frame = static_cast<uint32_t>(first);
  sample.user_frames =
      static_cast<uint16_t>(std::min<std::size_t>(frames.addresses.size() - first - sample.kernel_frames, UINT16_MAX));
  frames.addresses.resize(first + sample.kernel_frames + sample.user_frames);
  frames.symbols.resize(frames.addresses.size(), recording::kNoSymbol);
  if (sample.kernel && sample.user_ip == 0 && sample.user_frames > 0) {
    sample.user_ip = frames.addresses[first + sample.kernel_frames];
  }
  sample.user_stack = recording::kNoStack;
}

// Feeds `resolver` the recording's mappings and task events in time order,
// each sample resolved at its point in time, and points each sample and
// call stack frame without a symbol at a NamedSymbol. A caller's frame is
// named by the byte before its return address: the call itself. The copied
// stacks are released once unwound.
// `Resolver` is symbols::Symbolizer, or anything with its map, exec, fork,
// exit, resolve and unwind members (the tests use a small fake).
template <class Resolver>
void name_samples(recording::Recording& recording, Resolver& resolver) {
  std::unordered_map<std::string, uint32_t> known;
  for (uint32_t i = 0; i < recording.symbols.size(); ++i) known.try_emplace(symbol_key(recording.symbols[i]), i);
  auto symbol_of = [&](const auto& where) {
    auto [entry, fresh] = known.try_emplace(symbol_key(where), static_cast<uint32_t>(recording.symbols.size()));
    if (fresh) recording.symbols.push_back({where.function, where.module, where.file, where.line, where.inline_chain});
    return entry->second;
  };
  // Frames repeat far more than they differ: each (pid, address, kernel)
  // is resolved once while the mappings stay as they are.
  struct FrameKey {
    uint32_t pid;
    uint64_t address;
    bool kernel;
    bool operator==(const FrameKey&) const = default;
  };
  struct FrameKeyHash {
    std::size_t operator()(const FrameKey& key) const {
      return std::hash<uint64_t>()(key.address * 31 + key.pid * 2 + (key.kernel ? 1 : 0));
    }
  };
  std::unordered_map<FrameKey, uint32_t, FrameKeyHash> frame_symbols;
  TaskReplay replay(recording, resolver);
  recording::Frames& frames = recording.frames;
  // The stacks lie in the file about in time order: the memory of those
  // behind is given back as the unwinding goes (one read again comes from
  // the file).
  uint64_t released = 0;
  for (recording::Sample& sample : recording.samples) {
    if (replay.until(sample.time)) frame_symbols.clear();
    if (sample.user_stack != recording::kNoStack) {
      const uint64_t stack_at = recording.user_stacks[sample.user_stack].first_byte;
      unwind_sample(recording, sample, resolver);
      if (stack_at > released + recording::kStackReleaseStep) {
        recording.stack_bytes.release_before(stack_at);
        released = stack_at;
      }
    }
    const uint32_t end = sample.first_frame + sample.kernel_frames + sample.user_frames;
    for (uint32_t i = sample.first_frame; i < end; ++i) {
      if (frames.symbols[i] != recording::kNoSymbol) continue;
      const bool kernel = i < sample.first_frame + sample.kernel_frames;
      const bool leaf = i == sample.first_frame || i == sample.first_frame + sample.kernel_frames;
      const uint64_t address = frames.addresses[i] - (leaf ? 0 : 1);
      auto [entry, fresh] = frame_symbols.try_emplace({sample.pid, address, kernel}, 0);
      if (fresh) entry->second = symbol_of(resolver.resolve(sample.pid, address, kernel));
      frames.symbols[i] = entry->second;
    }
    if (sample.symbol != recording::kNoSymbol) continue;
    // Time in the kernel on a task's behalf (a page fault, a system call) is
    // the cost of the user function that entered it; kernel threads and
    // recordings without that address keep the kernel function.
    const bool charge_caller = sample.kernel && sample.user_ip != 0;
    sample.symbol = symbol_of(charge_caller ? resolver.resolve(sample.pid, sample.user_ip, false)
                                            : resolver.resolve(sample.pid, sample.ip, sample.kernel));
  }
  recording.user_stacks.clear();
  recording.stack_registers.clear();
  recording.stack_registers.shrink_to_fit();
  recording.stack_bytes = {};
}

}  // namespace topdown::profile
