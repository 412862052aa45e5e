#pragma once
// Values of model file entries that are not formulas: lists, cpus items and
// constants, each checked with errors pointing into the file.
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "model/section_reader.h"

namespace topdown::model {

using Keys = std::vector<std::string_view>;

// "[node Retiring]": the header as written, for messages.
std::string section_title(const Section& section);

// Throws for the first entry of `section` whose key is not `allowed`.
void check_keys(const Section& section, const Keys& allowed);

// Throws unless `section` is written without a name ([model], [constants]).
void expect_no_name(const Section& section);

// The text of `key`'s value, empty when the section lacks it.
std::string value_of(const Section& section, std::string_view key);

struct ListItem {
  std::string text;
  SourceLocation where;
};

// The comma-separated items of `entry`, trimmed; an empty item is an error.
std::vector<ListItem> split_list(const Entry& entry);

// One cpus item: "VENDOR FAMILY [MODEL or MODELMIN-MODELMAX]".
CpuMatch parse_cpu(const ListItem& item);

// A [constants] value: a finite decimal number.
// `what` names the entry in the error ("constant", "retire latency"), `instead`
// says what else the value may be ("" when nothing else).
double parse_constant(const Entry& entry, std::string_view what = "constant", std::string_view instead = "");

// A count such as `counters = 4`: a whole number from 1 to 64.
unsigned parse_count(const Entry& entry);

}  // namespace topdown::model
