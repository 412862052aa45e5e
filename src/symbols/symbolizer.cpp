#include "symbols/symbolizer.h"

#include <optional>
#include <unordered_map>

#include "symbols/address_space.h"
#include "symbols/elf_module.h"
#include "symbols/text_symbols.h"
#include "symbols/warning_log.h"

namespace topdown::symbols {

namespace {

// What perf and /proc/PID/maps call memory that no file backs.
bool is_anonymous(const std::string& path) {
  return path.empty() || path == "//anon" || path.rfind("[anon", 0) == 0 || path.rfind("/anon_hugepage", 0) == 0 ||
         path.rfind("/dev/zero", 0) == 0 || path.rfind("/memfd:", 0) == 0;
}

// A file deleted while mapped is named "PATH (deleted)"; the build id check
// catches a different file at PATH since.
std::string without_deleted_suffix(const std::string& path) {
  static const std::string kSuffix = " (deleted)";
  if (path.size() > kSuffix.size() && path.compare(path.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
    return path.substr(0, path.size() - kSuffix.size());
  }
  return path;
}

struct CachedSymbols {
  SortedSymbols symbols;
  std::unordered_map<uint64_t, Location> cache;
};

// The location of `address` in text symbols, looked up once.
const Location& resolve_in(CachedSymbols& table, uint64_t address, const char* module, const Location& unknown) {
  auto found = table.cache.find(address);
  if (found != table.cache.end()) {
    return found->second;
  }
  const std::optional<NamedRange> range = table.symbols.find(address);
  if (!range) {
    return unknown;
  }
  Location location;
  location.function = range->name;
  location.module = module;
  return table.cache.emplace(address, std::move(location)).first->second;
}

}  // namespace

struct Symbolizer::State {
  Options options;
  WarningLog warnings;
  Location unknown{"[unknown]", "", "[unknown]", "", 0, {}};
  // One module per file (and build id) whatever processes map it.
  std::unordered_map<std::string, std::unique_ptr<ElfModule>> modules;
  // Forked processes share their parent's mappings until either maps anew.
  std::unordered_map<uint32_t, std::shared_ptr<AddressSpace>> processes;
  std::unordered_map<std::string, Location> special_mappings;
  std::unordered_map<uint32_t, CachedSymbols> jit_by_pid;
  bool kernel_read = false;
  CachedSymbols kernel;
  std::optional<std::vector<uint64_t>> kernel_addresses;       // none: every kernel function is kept
  std::optional<std::unordered_set<std::string>> dwarf_files;  // none: every file's DWARF is read
  // Per process, the unwinder of the address space it was built for: any
  // change of the mappings makes a new space (the one held here is shared),
  // so a different pointer means a new unwinder.
  struct ProcessUnwinder {
    std::shared_ptr<AddressSpace> space;
    std::unique_ptr<Unwinder> unwinder;
  };
  std::unordered_map<uint32_t, ProcessUnwinder> unwinders;

  Unwinder& unwinder_for(uint32_t pid, const std::shared_ptr<AddressSpace>& space) {
    ProcessUnwinder& entry = unwinders[pid];
    if (entry.space != space || !entry.unwinder) {
      std::vector<Unwinder::Module> mapped;
      std::unordered_map<ElfModule*, bool> reported;
      for (const auto& [start, mapping] : space->by_start()) {
        if (mapping.module == nullptr || !reported.try_emplace(mapping.module, true).second) continue;
        if (auto bias = mapping.module->load_bias(mapping.start, mapping.file_offset)) {
          mapped.push_back({mapping.module->path(), *bias});
        }
      }
      entry.space = space;
      entry.unwinder = std::make_unique<Unwinder>(pid, mapped);
    }
    return *entry.unwinder;
  }

  ElfModule* module_for(const std::string& path, const std::string& build_id) {
    auto& module = modules[path + '\n' + build_id];
    if (!module) {
      module = std::make_unique<ElfModule>(path, build_id, options.lines, warnings);
      if (dwarf_files) module->read_dwarf(dwarf_files->contains(path));
    }
    return module.get();
  }

  const Location* special_mapping(const std::string& name) {
    auto [entry, added] = special_mappings.try_emplace(name);
    if (added) {
      entry->second.function = "[unknown]";
      entry->second.module = name;
    }
    return &entry->second;
  }

  AddressSpace& writable_space(uint32_t pid) {
    auto& space = processes[pid];
    if (!space) {
      space = std::make_shared<AddressSpace>();
    } else if (space.use_count() > 1) {
      space = std::make_shared<AddressSpace>(*space);
    }
    return *space;
  }

  const Location& resolve_kernel(uint64_t ip) {
    if (!kernel_read) {
      kernel_read = true;
      if (!options.kallsyms.empty()) {
        std::string warning;
        kernel.symbols = read_kallsyms(options.kallsyms, warning, kernel_addresses ? &*kernel_addresses : nullptr);
        kernel_addresses.reset();
        if (!warning.empty()) {
          warnings.add(warning);
        }
      }
    }
    return resolve_in(kernel, ip, "[kernel]", unknown);
  }

  const Location& resolve_jit(uint32_t pid, uint64_t ip) {
    auto [table, added] = jit_by_pid.try_emplace(pid);
    if (added) {
      table->second.symbols = read_perf_map(options.jit_map_dir + "/perf-" + std::to_string(pid) + ".map");
    }
    return resolve_in(table->second, ip, "[jit]", unknown);
  }
};

Symbolizer::Symbolizer(Options options) : state_(std::make_unique<State>()) { state_->options = std::move(options); }
Symbolizer::Symbolizer() : Symbolizer(Options{}) {}
Symbolizer::~Symbolizer() = default;
Symbolizer::Symbolizer(Symbolizer&&) noexcept = default;
Symbolizer& Symbolizer::operator=(Symbolizer&&) noexcept = default;

void Symbolizer::map(uint32_t pid, uint64_t start, uint64_t length, uint64_t file_offset, const std::string& path,
                     const std::string& build_id) {
  if (length == 0 || start + length < start) {
    return;
  }
  Mapping mapping;
  mapping.start = start;
  mapping.end = start + length;
  mapping.file_offset = file_offset;
  if (is_anonymous(path)) {
    mapping.anonymous = true;
  } else if (path.front() == '[') {
    mapping.fixed = state_->special_mapping(path);
  } else {
    mapping.module = state_->module_for(without_deleted_suffix(path), build_id);
  }
  state_->writable_space(pid).add(mapping);
}

void Symbolizer::exec(uint32_t pid) { state_->processes[pid] = std::make_shared<AddressSpace>(); }

void Symbolizer::fork(uint32_t child, uint32_t parent) {
  if (child == parent) {
    return;  // a new thread shares its process's mappings
  }
  auto found = state_->processes.find(parent);
  if (found == state_->processes.end()) {
    state_->processes.erase(child);
  } else {
    state_->processes[child] = found->second;
  }
}

// JIT tables stay: the locations resolved from them must stay valid, and
// perf-PID.map, read after the recording, is the same file for every image
// of the PID anyway.
void Symbolizer::exit(uint32_t pid) {
  state_->processes.erase(pid);
  state_->unwinders.erase(pid);
}

const Location& Symbolizer::resolve(uint32_t pid, uint64_t ip, bool kernel) {
  if (kernel) {
    return state_->resolve_kernel(ip);
  }
  auto process = state_->processes.find(pid);
  if (process == state_->processes.end()) {
    return state_->unknown;
  }
  const Mapping* mapping = process->second->find(ip);
  if (mapping == nullptr) {
    return state_->unknown;
  }
  if (mapping->module != nullptr) {
    return mapping->module->resolve(ip - mapping->start + mapping->file_offset);
  }
  if (mapping->fixed != nullptr) {
    return *mapping->fixed;
  }
  return state_->resolve_jit(pid, ip);
}

void Symbolizer::unwind(uint32_t pid, uint32_t tid, const UserState& state, std::size_t max_frames,
                        std::vector<uint64_t>& frames) {
  auto process = state_->processes.find(pid);
  if (process == state_->processes.end()) {
    Unwinder(pid, {}).unwind(tid, state, max_frames, frames);  // no mappings known: the ip alone
    return;
  }
  state_->unwinder_for(pid, process->second).unwind(tid, state, max_frames, frames);
}

const std::string* Symbolizer::file_at(uint32_t pid, uint64_t ip) const {
  auto process = state_->processes.find(pid);
  if (process == state_->processes.end()) return nullptr;
  const Mapping* mapping = process->second->find(ip);
  return mapping != nullptr && mapping->module != nullptr ? &mapping->module->path() : nullptr;
}

void Symbolizer::restart() {
  state_->processes.clear();
  state_->unwinders.clear();
}

void Symbolizer::read_dwarf_of(std::unordered_set<std::string> files) {
  for (const auto& [key, module] : state_->modules) module->read_dwarf(files.contains(module->path()));
  state_->dwarf_files = std::move(files);
}

void Symbolizer::expect_kernel_addresses(std::vector<uint64_t> addresses) {
  state_->kernel_addresses = std::move(addresses);
}

std::vector<std::string> Symbolizer::warnings() const { return state_->warnings.lines(); }

}  // namespace topdown::symbols
