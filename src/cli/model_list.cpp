// topdown list --models: every model of the model folder, read from the
// [model] sections alone.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "cli/commands.h"
#include "cli/standard_streams.h"
#include "common/data_dir.h"
#include "common/strings.h"
#include "events/event_table.h"
#include "model/model.h"

namespace topdown::cli {
namespace {

using Row = std::array<std::string, 8>;
const Row kHeadings = {"Model", "Version", "Vendor", "Core", "Methodology", "Uncore", "CPUs (family: models)", "Title"};

std::string or_dash(const std::string& text) { return text.empty() ? "-" : text; }

std::string vendors_of(const model::ModelHeader& header) {
  std::vector<std::string> names;
  for (const model::CpuMatch& match : header.cpus) {
    std::string name = cpu::vendor_name(match.vendor);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return join(names, "/");
}

std::string hex_range(unsigned low, unsigned high) {
  return low == high ? fmt::format("0x{:X}", low) : fmt::format("0x{:X}-0x{:X}", low, high);
}

// The models of one cpus item: "0x97", "0x10-0x1F", "0x55 stepping 0x5-0xF",
// "any".
std::string models_of(const model::CpuMatch& match) {
  constexpr unsigned kAll = 0xffffffff;
  if (match.model_min == 0 && match.model_max == kAll) return "any";
  std::string text = hex_range(match.model_min, match.model_max);
  if (match.stepping_min != 0 || match.stepping_max != kAll) {
    text += " stepping " + hex_range(match.stepping_min, match.stepping_max);
  }
  return text;
}

// "0x6: 0x97, 0x9A": each family once, its items after it.
std::string cpus_of(const model::ModelHeader& header) {
  std::string text;
  std::optional<std::pair<cpu::Vendor, unsigned>> family;
  for (const model::CpuMatch& match : header.cpus) {
    const std::pair<cpu::Vendor, unsigned> this_family = {match.vendor, match.family};
    if (family == this_family) {
      text += ", ";
    } else {
      text += fmt::format("{}0x{:X}: ", text.empty() ? "" : "; ", match.family);
      family = this_family;
    }
    text += models_of(match);
  }
  return text;
}

// Whether the model counts uncore events: its own tables hold only events it
// names (the shared intel_core has no uncore one).
std::string uncore_of(const model::ModelHeader& header) {
  for (const std::string& table : header.event_tables) {
    const events::EventTable events = events::EventTable::load(models_dir() / "events" / (table + ".events"));
    for (const auto& [name, entry] : events.entries()) {
      if (entry.uncore) return "yes";
    }
  }
  return "no";
}

// Each version of a name is a row: the newest under the name alone, marked
// the default, the older ones under the NAME@VERSION that pins them.
Row row_of(const model::ModelHeader& header, const std::vector<model::ModelHeader>& headers) {
  const auto same_name = [&](const model::ModelHeader& other) { return other.name == header.name; };
  const bool several = std::count_if(headers.begin(), headers.end(), same_name) > 1;
  const bool newest = std::none_of(headers.begin(), headers.end(), [&](const model::ModelHeader& other) {
    return same_name(other) && model::compare_versions(other.version, header.version) > 0;
  });
  std::string version = or_dash(header.version);
  if (several && newest) version += " (default)";
  return {several && !newest ? header.versioned_name() : header.name,
          version,
          vendors_of(header),
          or_dash(header.core_type),
          or_dash(header.methodology),
          uncore_of(header),
          cpus_of(header),
          header.title};
}

std::string text_table(const std::vector<Row>& rows) {
  std::array<std::size_t, std::tuple_size_v<Row>> width{};
  for (const Row& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t i = 0; i + 1 < row.size(); ++i) line += fmt::format("{:<{}}  ", row[i], width[i]);
    out += line + row.back() + "\n";
  }
  return out;
}

std::string markdown_cell(const std::string& text) {
  std::string escaped;
  for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

std::string markdown_table(const std::vector<Row>& rows) {
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      const std::string cell = markdown_cell(rows[r][i]);
      cells.push_back(r > 0 && i == 0 ? "`" + cell + "`" : cell);
    }
    out += "| " + join(cells, " | ") + " |\n";
    if (r == 0) out += "|" + join(std::vector<std::string>(cells.size(), "---"), "|") + "|\n";
  }
  return out;
}

}  // namespace

int run_list_models(ModelListFormat format) {
  std::vector<Row> rows = {kHeadings};
  const std::vector<model::ModelHeader> headers = model::load_headers(models_dir());
  for (const model::ModelHeader& header : headers) rows.push_back(row_of(header, headers));
  const std::string out = format == ModelListFormat::Markdown ? markdown_table(rows) : text_table(rows);
  write_stdout(out);
  return 0;
}

}  // namespace topdown::cli
