#include "symbols/unwinder.h"

#include <elfutils/libdwfl.h>

#include <array>
#include <cstring>
#include <optional>

#include "perf/user_registers.h"
#include "symbols/elf_module.h"

namespace topdown::symbols {
namespace {

std::optional<uint64_t> saved(const UserState& state, int perf_index) {
  const int position = perf::saved_position(state.register_mask, perf_index);
  if (position < 0 || static_cast<std::size_t>(position) >= state.registers.size()) return std::nullopt;
  return state.registers[static_cast<std::size_t>(position)];
}

// The one thread a sample shows.
pid_t next_thread(Dwfl* /*dwfl*/, void* dwfl_arg, void** thread_argp) {
  auto* current = static_cast<Unwinder::Current*>(dwfl_arg);
  if (current->thread_given) return 0;
  current->thread_given = true;
  *thread_argp = current;
  return static_cast<pid_t>(current->tid);
}

// Memory of the stack copy; anything else was not saved.
bool memory_read(Dwfl* /*dwfl*/, Dwarf_Addr address, Dwarf_Word* result, void* dwfl_arg) {
  const auto* current = static_cast<const Unwinder::Current*>(dwfl_arg);
  const std::span<const std::byte> stack = current->state->stack;
  if (address < current->stack_pointer || address - current->stack_pointer + sizeof(Dwarf_Word) > stack.size()) {
    return false;
  }
  std::memcpy(result, stack.data() + (address - current->stack_pointer), sizeof(Dwarf_Word));
  return true;
}

bool set_initial_registers(Dwfl_Thread* thread, void* thread_arg) {
  const auto* current = static_cast<const Unwinder::Current*>(thread_arg);
  std::array<Dwarf_Word, perf::kUserRegisters.size()> values{};
  for (const perf::UserRegister& reg : perf::kUserRegisters) {
    values[static_cast<std::size_t>(reg.dwarf_number)] = saved(*current->state, reg.perf_index).value_or(0);
  }
  if (!dwfl_thread_state_registers(thread, 0, static_cast<unsigned>(values.size()), values.data())) return false;
  dwfl_thread_state_register_pc(thread, *saved(*current->state, perf::kInstructionPointer));
  return true;
}

const Dwfl_Thread_Callbacks kThreadCallbacks = {
    .next_thread = next_thread,
    .get_thread = nullptr,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
    .detach = nullptr,
    .thread_detach = nullptr,
};

int take_frame(Dwfl_Frame* frame, void* arg) {
  auto* current = static_cast<Unwinder::Current*>(arg);
  Dwarf_Addr pc = 0;
  if (!dwfl_frame_pc(frame, &pc, nullptr) || pc == 0) return DWARF_CB_ABORT;
  current->frames->push_back(pc);
  return current->frames->size() >= current->max_frames ? DWARF_CB_ABORT : DWARF_CB_OK;
}

}  // namespace

Unwinder::Unwinder(uint32_t pid, const std::vector<Module>& modules) {
  dwfl_ = dwfl_begin(&kFileCallbacks);
  if (dwfl_ == nullptr) return;
  dwfl_report_begin(dwfl_);
  for (const Module& module : modules) {
    dwfl_report_elf(dwfl_, module.path.c_str(), module.path.c_str(), -1, module.bias, true);
  }
  dwfl_report_end(dwfl_, nullptr, nullptr);
  // The architecture comes from the first module's ELF header.
  attached_ = dwfl_attach_state(dwfl_, nullptr, static_cast<pid_t>(pid), &kThreadCallbacks, &current_);
}

Unwinder::~Unwinder() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

void Unwinder::unwind(uint32_t tid, const UserState& state, std::size_t max_frames, std::vector<uint64_t>& frames) {
  const auto ip = saved(state, perf::kInstructionPointer);
  const auto sp = saved(state, perf::kStackPointer);
  if (!ip || !sp || max_frames == 0) return;
  const std::size_t first = frames.size();
  if (attached_) {
    current_ = {tid, &state, *sp, first + max_frames, &frames, false};
    dwfl_getthread_frames(dwfl_, static_cast<pid_t>(tid), take_frame, &current_);
  }
  // Without any module's CFI, the sample's own place still counts.
  if (frames.size() == first) frames.push_back(*ip);
}

}  // namespace topdown::symbols
