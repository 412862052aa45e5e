#pragma once
// Text from the outside world (node names of a model file, event names and
// paths of an imported file, a workload's arguments) placed in the page as
// text only: never markup, never invalid UTF-8.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace topdown::html {

// `text` as UTF-8 whose invalid bytes and control characters (but tab and
// line feed) are each replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

// valid_utf8(text) with & < > " ' as character references: safe in element
// content and in quoted attribute values.
std::string escape(std::string_view text);

// `data` as JSON for a <script type="application/json"> element: '<', '>'
// and '&' as \u escapes so that no "</script>" or "<!--" can end or change
// the element, invalid UTF-8 replaced.
std::string script_json(const nlohmann::json& data);

}  // namespace topdown::html
