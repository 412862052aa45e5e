#pragma once
// An event the resolver refuses because this machine's PMU lacks a format
// term it needs (a virtual machine's PMU without frontend, offcore_rsp or
// ldlat; an older kernel without umask2): a node of such an event is left
// out with the reason, where any other refusal stays an error.
#include <optional>
#include <string>
#include <string_view>

namespace topdown::schedule {

// Why `event` is not counted, from the resolver's refusal text ("event E
// needs the field TERM of PMU P, which this machine's P lacks ..."); nullopt
// for any other refusal.
std::optional<std::string> lacking_term_reason(std::string_view event, std::string_view refusal);

}  // namespace topdown::schedule
