#pragma once
// The symbol tables that come as text: the kernel's /proc/kallsyms and the
// perf-PID.map files that JIT compilers write for perf.
#include <cstdint>
#include <string>
#include <vector>

#include "symbols/sorted_symbols.h"

namespace topdown::symbols {

// The kernel's function symbols ("ADDRESS TYPE NAME [MODULE]" lines of
// types t, T, w, W). When the file cannot be read, or shows every address
// as 0 (kptr_restrict), the result is empty and `warning` says why. With
// `wanted` (sorted addresses), only the functions holding them are kept,
// each with its true end, so that other addresses find no function.
SortedSymbols read_kallsyms(const std::string& path, std::string& warning,
                            const std::vector<uint64_t>* wanted = nullptr);

// perf's JIT map: "START SIZE NAME" lines, START and SIZE in hex, NAME the
// rest of the line. Empty when the file does not exist; malformed lines are
// skipped.
SortedSymbols read_perf_map(const std::string& path);

}  // namespace topdown::symbols
