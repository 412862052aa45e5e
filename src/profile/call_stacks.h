#pragma once
// The call stacks of a recording (record -g, --call-graph dwarf, perf
// script callchains) as trees: each function's inclusive counts, from every
// sample with it anywhere on the stack (report --children), and the call
// paths into one function, each with its samples' counts (report --callers).
// Inlined functions count as frames of their own.
#include <cstddef>
#include <string>
#include <string_view>

#include "profile/attribute.h"
#include "recording/recording.h"

namespace topdown::profile {

// Callers a path of --callers shows at most, above the function.
constexpr std::size_t kCallerDepth = 8;

// Whether a function named `name` (demangled, with parameters) is the one
// asked for as `wanted`: the whole name, the name without its parameters,
// or its last components (`leaf` names `app::leaf(int)`).
bool names_function(std::string_view name, std::string_view wanted);

// Each function (by name and module) charged once with every sample that
// has it on its stack, however often (recursion); a sample without a stack
// counts for its own function. Named samples and frames (name_samples).
Attribution attribute_children(const recording::Recording& recording);

// The distinct call paths into the functions `wanted` names: per sample,
// from the outermost frame of such a function up to kCallerDepth callers,
// heaviest first. Throws Error naming `file` when no stack holds it.
Attribution attribute_callers(const recording::Recording& recording, std::string_view wanted, const std::string& file);

}  // namespace topdown::profile
