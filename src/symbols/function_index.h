#pragma once
// The functions of one module sorted by address, built once from libdwfl's
// symbol table (libdwfl's own address lookup scans every symbol each time).
#include <cstdint>
#include <string>
#include <vector>

struct Dwfl_Module;

namespace topdown::symbols {

class FunctionIndex {
 public:
  FunctionIndex() = default;
  explicit FunctionIndex(Dwfl_Module* module);

  // The demangled name of the function holding `address` (a module
  // address), null when none does.
  const std::string* find(uint64_t address);

 private:
  struct Function {
    uint64_t start = 0;
    uint64_t end = 0;            // 0 until built: to the next function when the symbol has no size
    int rank = 0;                // of aliases at one address the lowest names it: global, weak, then local
    const char* name = nullptr;  // libdwfl's, alive as long as the module
    std::string demangled;       // filled when first found
  };
  std::vector<Function> functions_;
};

}  // namespace topdown::symbols
