// topdown list --models against the [model] sections of models/*.model, read
// here with a parser of its own, and the README's Supported CPUs table
// against topdown list --models --markdown.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <utility>

#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::filesystem::path kSource = TOPDOWN_SOURCE_DIR;

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The [model] section's keys, continuation lines joined with a space.
std::map<std::string, std::string> model_section(const std::filesystem::path& file) {
  std::istringstream in(slurp(file.string()));
  std::map<std::string, std::string> keys;
  std::string line;
  std::string last;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.starts_with("[")) {
      if (inside) break;
      inside = line == "[model]";
    } else if (inside && !line.starts_with("#") && !trimmed(line).empty()) {
      if (line.starts_with(" ") || line.starts_with("\t")) {
        keys[last] += " " + trimmed(line);
      } else {
        last = trimmed(line.substr(0, line.find('=')));
        keys[last] = trimmed(line.substr(line.find('=') + 1));
      }
    }
  }
  return keys;
}

std::string hex(const std::string& number) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%lX", std::stoul(number, nullptr, 0));
  return text;
}

// "0x10-0x1F" or "16" as hex, a range only when its ends differ.
std::string hex_range(const std::string& range) {
  const auto dash = range.find('-');
  if (dash == std::string::npos) return hex(range);
  const std::string low = hex(range.substr(0, dash));
  const std::string high = hex(range.substr(dash + 1));
  return low == high ? low : low + "-" + high;
}

struct Expected {
  std::string vendor;
  std::string cpus;
};

// "Intel 6 0x97, Intel 6 0x9A" -> Intel, "0x6: 0x97, 0x9A".
Expected expected_cpus(const std::string& cpus) {
  Expected expected;
  std::string family;
  std::stringstream items(cpus);
  std::string item;
  while (std::getline(items, item, ',')) {
    std::istringstream words(item);
    std::string vendor, item_family, model, stepping;
    words >> vendor >> item_family >> model >> stepping;
    if (expected.vendor.find(vendor) == std::string::npos) {
      expected.vendor += (expected.vendor.empty() ? "" : "/") + vendor;
    }
    if (hex(item_family) != family) {
      family = hex(item_family);
      expected.cpus += (expected.cpus.empty() ? "" : "; ") + family + ": ";
    } else {
      expected.cpus += ", ";
    }
    expected.cpus += model.empty() ? "any" : hex_range(model);
    if (!stepping.empty()) expected.cpus += " stepping " + hex_range(stepping);
  }
  return expected;
}

std::vector<std::filesystem::path> model_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kSource / "models")) {
    if (entry.path().extension() == ".model") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The cells of an aligned row (two or more blanks between them), each with
// the column it starts at.
std::vector<std::pair<std::size_t, std::string>> cells_of(const std::string& row) {
  std::vector<std::pair<std::size_t, std::string>> cells;
  const std::regex cell("\\S+( \\S+)*");
  for (auto it = std::sregex_iterator(row.begin(), row.end(), cell); it != std::sregex_iterator(); ++it) {
    cells.emplace_back(static_cast<std::size_t>(it->position()), it->str());
  }
  return cells;
}

// "yes" when a line of one of the model's event tables carries the uncore
// attribute after its definition.
std::string uncore_of(const std::map<std::string, std::string>& keys) {
  std::istringstream tables(keys.count("event_table") ? keys.at("event_table") : "");
  for (std::string table; std::getline(tables, table, ',');) {
    table.erase(0, table.find_first_not_of(' '));
    std::ifstream in(kSource / "models" / "events" / (table + ".events"));
    for (std::string line; std::getline(in, line);) {
      const std::string definition = line.substr(0, line.find('#'));
      if (std::regex_search(definition, std::regex("=\\s*\\S+.*\\suncore(\\s|$)"))) return "yes";
    }
  }
  return "no";
}

// The Model and Version cells of a model file: a name with several versions
// shows its newest as NAME with "VERSION (default)", the others as
// NAME@VERSION; a name with one version shows NAME and VERSION.
std::pair<std::string, std::string> name_and_version(const std::map<std::string, std::string>& keys) {
  const std::string& name = keys.at("name");
  if (!keys.count("version")) return {name, "-"};
  const std::string& version = keys.at("version");
  int versions = 0;
  bool newest = true;
  for (const std::filesystem::path& file : model_files()) {
    const auto other = model_section(file);
    if (other.at("name") != name) continue;
    ++versions;
    // TMA versions read as decimal numbers here (5.01 < 5.1 < 5.2).
    if (std::stod(other.at("version")) > std::stod(version)) newest = false;
  }
  if (versions == 1) return {name, version};
  return newest ? std::pair{name, version + " (default)"} : std::pair{name + "@" + version, version};
}

TEST(ListModels, ShowsEveryModelFileWithItsHeader) {
  const CommandResult r = run_command(kTopdown + " list --models");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> rows = lines_of(r.out);
  const std::vector<std::filesystem::path> files = model_files();
  ASSERT_EQ(rows.size(), files.size() + 1) << r.out;
  const auto headings = cells_of(rows[0]);
  std::vector<std::string> heading_texts;
  for (const auto& [column, text] : headings) heading_texts.push_back(text);
  EXPECT_EQ(heading_texts, (std::vector<std::string>{"Model", "Version", "Vendor", "Core", "Methodology", "Uncore",
                                                     "CPUs (family: models)", "Title"}));
  for (std::size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(files[i].string());
    const auto keys = model_section(files[i]);
    const Expected cpus = expected_cpus(keys.at("cpus"));
    auto or_dash = [&](const std::string& key) { return keys.count(key) ? keys.at(key) : std::string("-"); };
    const auto [name, version] = name_and_version(keys);
    const std::vector<std::string> expected = {
        name,      version,         cpus.vendor, or_dash("core_type"), or_dash("methodology"), uncore_of(keys),
        cpus.cpus, keys.at("title")};
    const auto cells = cells_of(rows[i + 1]);
    ASSERT_EQ(cells.size(), expected.size()) << rows[i + 1];
    for (std::size_t c = 0; c < cells.size(); ++c) {
      EXPECT_EQ(cells[c].second, expected[c]);
      EXPECT_EQ(cells[c].first, headings[c].first) << "column " << c << " is not aligned: " << rows[i + 1];
    }
  }
}

// The servers with TMA 5.2 show it as their default, the version they had
// before as NAME@VERSION; Clearwater Forest says it has no TMA tree.
TEST(ListModels, ShowsTheDefaultVersionAndThePinnedOnes) {
  const CommandResult r = run_command(kTopdown + " list --models");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::vector<std::string>> rows;
  for (const std::string& row : lines_of(r.out)) {
    std::vector<std::string> cells;
    for (auto& [column, text] : cells_of(row)) cells.push_back(text);
    rows[cells.at(0)] = cells;
  }
  for (const auto& [name, earlier] :
       std::map<std::string, std::string>{{"icx", "5.1"}, {"spr", "5.01"}, {"emr", "5.1"}, {"gnr", "5.1"}}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(rows.count(name));
    EXPECT_EQ(rows[name][1], "5.2 (default)");
    EXPECT_EQ(rows[name][4], "TMA 5.2");
    ASSERT_TRUE(rows.count(name + "@" + earlier));
    EXPECT_EQ(rows[name + "@" + earlier][1], earlier);
    EXPECT_EQ(rows[name + "@" + earlier][4], "TMA " + earlier);
  }
  ASSERT_TRUE(rows.count("cwf"));
  EXPECT_EQ(rows["cwf"][1], "-");
  EXPECT_EQ(rows["cwf"][4], "no TMA tree published by Intel yet");
  EXPECT_EQ(rows["cwf"][6], "0x6: 0xDD");
  EXPECT_EQ(rows["icl"][1], "5.1");  // one version: no default to mark
}

// Panther Lake: its P-cores on TMA 5.2 (its only version), its Darkmont
// E-cores on Skymont's E-core TMA until Intel publishes Darkmont's.
TEST(ListModels, PantherLakeShowsTma52AndItsECoresBorrowedTree) {
  const CommandResult r = run_command(kTopdown + " list --models");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::vector<std::string>> rows;
  for (const std::string& row : lines_of(r.out)) {
    std::vector<std::string> cells;
    for (auto& [column, text] : cells_of(row)) cells.push_back(text);
    rows[cells.at(0)] = cells;
  }
  ASSERT_TRUE(rows.count("ptl"));
  EXPECT_EQ(rows["ptl"][1], "5.2");
  EXPECT_EQ(rows["ptl"][3], "P-core");
  EXPECT_EQ(rows["ptl"][4], "TMA 5.2");
  EXPECT_EQ(rows["ptl"][6], "0x6: 0xCC, 0xD5, 0xE5");
  ASSERT_TRUE(rows.count("ptl_ecore"));
  EXPECT_EQ(rows["ptl_ecore"][3], "E-core");
  EXPECT_EQ(rows["ptl_ecore"][4], "E-core TMA 4 of Skymont (LNL-SKT); none published for Darkmont yet");
  EXPECT_EQ(rows["ptl_ecore"][6], "0x6: 0xCC, 0xD5, 0xE5");
}

TEST(ListModels, ReadmeSupportedCpusIsTheMarkdownList) {
  const CommandResult r = run_command(kTopdown + " list --models --markdown");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), model_files().size() + 2);
  const std::string readme = slurp((kSource / "README.md").string());
  const std::string begin = "<!-- supported-cpus: begin -->\n";
  const std::string end = "<!-- supported-cpus: end -->";
  const auto from = readme.find(begin);
  const auto to = readme.find(end);
  ASSERT_NE(from, std::string::npos) << "README.md has no " << begin;
  ASSERT_NE(to, std::string::npos) << "README.md has no " << end;
  EXPECT_EQ(readme.substr(from + begin.size(), to - from - begin.size()), r.out)
      << "README.md's Supported CPUs table is stale: run scripts/update-supported-cpus.sh";
}

TEST(ListModels, TakesNoModelChoice) {
  const CommandResult r = run_command(kTopdown + " list --models --cpu hsw");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--cpu excludes --models"), std::string::npos) << r.err;
  const CommandResult markdown = run_command(kTopdown + " list --markdown");
  EXPECT_EQ(markdown.exit_code, 125);
  EXPECT_NE(markdown.err.find("--markdown requires --models"), std::string::npos) << markdown.err;
}

}  // namespace
}  // namespace topdown::testing
