#include "symbols/function_index.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <algorithm>

#include "symbols/demangle.h"

namespace topdown::symbols {

namespace {

bool is_code(const GElf_Sym& symbol) {
  int type = GELF_ST_TYPE(symbol.st_info);
  return type == STT_FUNC || type == STT_GNU_IFUNC || (type == STT_NOTYPE && symbol.st_size > 0);
}

int rank_of(const GElf_Sym& symbol, const char* name) {
  int binding = GELF_ST_BIND(symbol.st_info);
  int rank = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 2 : 4;
  return rank + (name[0] == '_' ? 1 : 0);  // cos rather than __cos
}

}  // namespace

FunctionIndex::FunctionIndex(Dwfl_Module* module) {
  int count = dwfl_module_getsymtab(module);
  for (int i = 1; i < count; ++i) {
    GElf_Sym symbol;
    GElf_Addr address = 0;
    GElf_Word section = 0;
    const char* name = dwfl_module_getsym_info(module, i, &symbol, &address, &section, nullptr, nullptr);
    if (name == nullptr || name[0] == '\0' || section == SHN_UNDEF || section == static_cast<GElf_Word>(-1) ||
        !is_code(symbol)) {
      continue;
    }
    Function function;
    function.start = address;
    function.end = symbol.st_size > 0 ? address + symbol.st_size : 0;
    function.rank = rank_of(symbol, name);
    function.name = name;
    functions_.push_back(std::move(function));
  }
  std::sort(functions_.begin(), functions_.end(), [](const Function& a, const Function& b) {
    return a.start != b.start ? a.start < b.start : a.rank < b.rank;
  });
  functions_.erase(std::unique(functions_.begin(), functions_.end(),
                               [](const Function& a, const Function& b) { return a.start == b.start; }),
                   functions_.end());
  for (size_t i = 0; i < functions_.size(); ++i) {
    if (functions_[i].end == 0) {
      functions_[i].end = i + 1 < functions_.size() ? functions_[i + 1].start : functions_[i].start + 1;
    }
  }
}

const std::string* FunctionIndex::find(uint64_t address) {
  auto after = std::upper_bound(functions_.begin(), functions_.end(), address,
                                [](uint64_t value, const Function& function) { return value < function.start; });
  if (after == functions_.begin()) {
    return nullptr;
  }
  Function& function = *(after - 1);
  if (address >= function.end) {
    return nullptr;
  }
  if (function.demangled.empty()) {
    function.demangled = demangle(function.name);
  }
  return &function.demangled;
}

}  // namespace topdown::symbols
