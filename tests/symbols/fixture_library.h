#pragma once
// A small shared library the symbols tests link, built with -O2 -g and a
// fixed build id (tests/symbols/CMakeLists.txt), with functions of known
// names, an always_inline helper and a function kept out of the dynamic
// symbol table.
#include <cstdint>

namespace fixture {

class Widget {
 public:
  int compute(int n) const;  // calls mix_step, inlined
};

// First and last line of mix_step in fixture_library.cpp.
extern const int kMixStepFirstLine;
extern const int kMixStepLastLine;

// The address of a function with hidden visibility: in .symtab, not in .dynsym.
uintptr_t hidden_function_address();

}  // namespace fixture
