#pragma once
// Values of model file entries that are not formulas: lists, cpus items and
// constants, each checked with errors pointing into the file.
#include <string>
#include <vector>

#include "model/model.h"
#include "model/section_reader.h"

namespace topdown::model {

struct ListItem {
  std::string text;
  SourceLocation where;
};

// The comma-separated items of `entry`, trimmed; an empty item is an error.
std::vector<ListItem> split_list(const Entry& entry);

// One cpus item: "VENDOR FAMILY [MODEL or MODELMIN-MODELMAX]".
CpuMatch parse_cpu(const ListItem& item);

// A [constants] value: a finite decimal number.
double parse_constant(const Entry& entry);

// A count such as `counters = 4`: a whole number from 1 to 64.
unsigned parse_count(const Entry& entry);

}  // namespace topdown::model
