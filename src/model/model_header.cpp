#include "model/model_header.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/input_file.h"
#include "model/entry_values.h"

namespace topdown::model {
namespace {

const Keys kModelKeys = {"name",
                         "title",
                         "cpus",
                         "event_table",
                         "pfm_pmu",
                         "pmu",
                         "core_type",
                         "companion",
                         "clock",
                         "methodology",
                         "version",
                         "counters",
                         "counters_without_smt",
                         "fixed_counters"};

std::vector<std::filesystem::path> model_files(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    throw Error("model folder " + dir.string() +
                " does not exist; set TOPDOWN_MODELS to the folder holding the *.model files");
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".model") files.push_back(entry.path());
  }
  if (files.empty()) {
    throw Error("no *.model files in " + dir.string() + "; set TOPDOWN_MODELS to the folder holding them");
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

ModelHeader header_from(const Section& section, const std::filesystem::path& file) {
  expect_no_name(section);
  check_keys(section, kModelKeys);
  for (std::string_view key : {"name", "title", "cpus", "event_table"}) {
    if (!section.find(key)) {
      throw ParseError(section.where,
                       "[model] has no '" + std::string(key) + "'; add '" + std::string(key) + " = ...'");
    }
  }
  ModelHeader header;
  header.source = file;
  header.name = value_of(section, "name");
  if (header.name.find_first_of(" @") != std::string::npos) {
    throw ParseError(section.find("name")->value_at(),
                     "model name '" + header.name +
                         "' contains a blank or '@'; use one word such as zen5 (the version goes in 'version')");
  }
  header.title = value_of(section, "title");
  for (const ListItem& item : split_list(*section.find("event_table"))) header.event_tables.push_back(item.text);
  header.pfm_pmu = value_of(section, "pfm_pmu");
  header.pmu = value_of(section, "pmu");
  header.core_type = value_of(section, "core_type");
  header.companion = value_of(section, "companion");
  header.methodology = value_of(section, "methodology");
  header.version = value_of(section, "version");
  if (section.find("version") && !is_version(header.version)) {
    throw ParseError(section.find("version")->value_at(),
                     "version '" + header.version + "' is not a version number; write it as 5.2 or 4");
  }
  header.clock = value_of(section, "clock");
  if (!header.clock.empty() && header.clock.find_first_of(" \t,") != std::string::npos) {
    throw ParseError(section.find("clock")->value_at(),
                     "clock '" + header.clock + "' is not one event; name the core's clock event, e.g. cycles");
  }
  auto count_of = [&](std::string_view key) { return section.find(key) ? parse_count(*section.find(key)) : 0u; };
  header.counters = {count_of("counters"), count_of("counters_without_smt"), count_of("fixed_counters")};
  for (const ListItem& item : split_list(*section.find("cpus"))) header.cpus.push_back(parse_cpu(item));
  return header;
}

ParseError no_model_section(const std::string& file) {
  return ParseError({file, 1, 1},
                    "no [model] section; start the file with [model] and its name, title, cpus and "
                    "event_table keys");
}

std::ifstream open_model_file(const std::filesystem::path& file) {
  return open_input(file, "model file", "name a .model file",
                    "check the path or set TOPDOWN_MODELS to the models folder");
}

void throw_if_unreadable(const std::ifstream& in, const std::filesystem::path& file) {
  if (in.bad()) throw Error("cannot read model file " + file.string() + ": " + std::strerror(errno));
}

ModelHeader load_header(const std::filesystem::path& file) {
  std::ifstream in = open_model_file(file);
  const std::optional<Section> section = read_first_section(in, file.string(), "model");
  throw_if_unreadable(in, file);
  if (!section) throw no_model_section(file.string());
  return header_from(*section, file);
}

std::vector<ModelHeader> load_headers(const std::filesystem::path& dir) {
  std::vector<ModelHeader> headers;
  for (const std::filesystem::path& file : model_files(dir)) {
    ModelHeader header = load_header(file);
    for (const ModelHeader& other : headers) {
      // Versions of one name are told apart by their version alone.
      if (other.name == header.name &&
          (other.version.empty() || header.version.empty() || compare_versions(other.version, header.version) == 0)) {
        throw Error("model files " + other.source.string() + " and " + file.string() + " both define the model '" +
                    header.versioned_name() + "'; rename or remove one, or give each its own version");
      }
    }
    headers.push_back(std::move(header));
  }
  return headers;
}

}  // namespace topdown::model
