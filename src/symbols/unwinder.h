#pragma once
// Unwinding a sampled user stack (record --call-graph dwarf) with elfutils'
// libdwfl, as perf does: the sample's registers and its copy of the stack
// stand in for a stopped thread, and each module's CFI (.eh_frame,
// .debug_frame) says how to find the caller's registers.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

struct Dwfl;

namespace topdown::symbols {

// What a sample saved: registers in perf_regs order of `register_mask`, and
// the stack's bytes from the stack pointer up.
struct UserState {
  uint64_t register_mask = 0;
  std::span<const uint64_t> registers;
  std::span<const std::byte> stack;
};

// The modules of one process image, each reported once at its load bias.
class Unwinder {
 public:
  struct Module {
    std::string path;
    uint64_t bias = 0;  // run-time address = ELF address + bias
  };
  Unwinder(uint32_t pid, const std::vector<Module>& modules);
  ~Unwinder();
  Unwinder(const Unwinder&) = delete;
  Unwinder& operator=(const Unwinder&) = delete;

  // Appends the frames of thread `tid` at `state`, innermost first: the ip,
  // then each caller's return address, at most `max_frames`. Where the CFI
  // ends or the stack copy is too short, the frames found so far; nothing
  // when the registers lack the ip or stack pointer.
  void unwind(uint32_t tid, const UserState& state, std::size_t max_frames, std::vector<uint64_t>& frames);

  // Hooks for libdwfl's callbacks.
  struct Current {
    uint32_t tid = 0;
    const UserState* state = nullptr;
    uint64_t stack_pointer = 0;
    std::size_t max_frames = 0;
    std::vector<uint64_t>* frames = nullptr;
    bool thread_given = false;
  };

 private:
  Dwfl* dwfl_ = nullptr;
  bool attached_ = false;
  Current current_;
};

}  // namespace topdown::symbols
