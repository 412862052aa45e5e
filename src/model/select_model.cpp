// select_model: picks a model by --cpu name or by the CPU from the headers of
// the model files alone, and on a miss names the nearest models.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "common/nearest_names.h"
#include "common/strings.h"
#include "model/model.h"

namespace topdown::model {
namespace {

constexpr std::string_view kListHint = "`topdown list --models` lists them";
// More look-alikes than this (every "lake") are no suggestion but a list.
constexpr std::size_t kMostSuggestions = 4;

std::string describe(const cpu::CpuId& id) {
  const std::string vendor = id.vendor_string.empty() ? cpu::vendor_name(id.vendor) : id.vendor_string;
  return fmt::format("{} family 0x{:X} model 0x{:X}", vendor, id.family, id.model);
}

// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
std::string one_of(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (const std::string& name : names) quoted.push_back("'" + name + "'");
  const std::string last = quoted.back();
  quoted.pop_back();
  return quoted.empty() ? last : join(quoted, ", ") + " or " + last;
}

// What a user may type for a model: its name and the words of its title
// ("skylake", "sapphire", ...), lowercase.
std::vector<std::string> spellings(const ModelHeader& header) {
  std::vector<std::string> words = {lowercase(header.name)};
  const std::string title = lowercase(header.title);
  for (std::string_view word : split_words(title, " ()/,")) words.emplace_back(word);
  return words;
}

// The models whose name or a title word is fewest edits from `wanted`
// (lowercase): at most a third of its letters, one at least.
std::vector<std::string> look_alikes(const std::vector<ModelHeader>& headers, const std::string& wanted) {
  std::vector<std::string> every_spelling;
  for (const ModelHeader& header : headers) {
    for (std::string& word : spellings(header)) every_spelling.push_back(std::move(word));
  }
  const std::vector<std::string> nearest =
      nearest_names(wanted, every_spelling, std::clamp<std::size_t>(wanted.size() / 3, 1, 3));
  std::vector<std::string> names;
  for (const ModelHeader& header : headers) {
    const std::vector<std::string> words = spellings(header);
    if (std::any_of(words.begin(), words.end(), [&](const std::string& word) {
          return std::find(nearest.begin(), nearest.end(), word) != nearest.end();
        })) {
      names.push_back(header.name);
    }
  }
  return names;
}

// The model `named` for --cpu `argument`: its name's newest version, or the
// version `pinned` names (an Error listing the versions there are).
const ModelHeader& version_of(const std::vector<ModelHeader>& headers, const ModelHeader& named,
                              const std::string& argument, const std::optional<std::string>& pinned) {
  const ModelHeader* chosen = nullptr;
  std::vector<std::string> versions;
  for (const ModelHeader& header : headers) {
    if (header.name != named.name) continue;
    if (!header.version.empty()) versions.push_back(header.versioned_name());
    if (!pinned ? chosen == nullptr || compare_versions(header.version, chosen->version) > 0
                : is_version(*pinned) && !header.version.empty() && compare_versions(header.version, *pinned) == 0) {
      chosen = &header;
    }
  }
  if (chosen != nullptr) return *chosen;
  throw Error("--cpu " + argument + ": model " + named.name + " has no version " + pinned.value_or("") +
              (versions.empty() ? "; it has no versions, choose it with --cpu " + named.name
                                : "; choose one of " + join(versions, ", ") + " or " + named.name + " for the newest") +
              "; " + std::string(kListHint));
}

const ModelHeader& header_named(const std::vector<ModelHeader>& headers, const std::string& argument) {
  // NAME@VERSION pins a version; the name part is matched as a plain name.
  const std::size_t at = argument.find('@');
  const std::string name = argument.substr(0, at);
  const std::optional<std::string> pinned =
      at == std::string::npos ? std::nullopt : std::optional<std::string>(argument.substr(at + 1));
  const std::string wanted = lowercase(name);
  std::vector<const ModelHeader*> candidates;
  for (const ModelHeader& header : headers) {
    if (lowercase(header.name) == wanted) return version_of(headers, header, argument, pinned);
    const bool fits = lowercase(header.name).starts_with(wanted) || lowercase(header.title).starts_with(wanted);
    const bool named_before = std::any_of(candidates.begin(), candidates.end(),
                                          [&](const ModelHeader* seen) { return seen->name == header.name; });
    if (fits && !named_before) candidates.push_back(&header);
  }
  if (candidates.size() == 1) return version_of(headers, *candidates.front(), argument, pinned);
  if (candidates.empty()) {
    const std::vector<std::string> similar = look_alikes(headers, wanted);
    const bool suggest = !similar.empty() && similar.size() <= kMostSuggestions;
    throw Error("--cpu " + argument + " names no model" + (suggest ? " (did you mean " + one_of(similar) + "?)" : "") +
                "; " + std::string(kListHint));
  }
  std::vector<std::string> names;
  for (const ModelHeader* header : candidates) names.push_back(header->name);
  throw Error("--cpu " + argument + " fits several models (" + join(names, ", ") +
              "); use --cpu NAME with one of these names");
}

// How far a cpus item of the same vendor is from `id`: families apart, then
// model numbers apart (0 inside its range).
std::pair<unsigned, unsigned> distance(const CpuMatch& match, const cpu::CpuId& id) {
  const unsigned families = match.family > id.family ? match.family - id.family : id.family - match.family;
  unsigned models = 0;
  if (id.model < match.model_min) models = match.model_min - id.model;
  if (id.model > match.model_max) models = id.model - match.model_max;
  return {families, models};
}

// The models of `id`'s vendor nearest to it: of the nearest family, those
// with the nearest model number. Model numbers are not a timeline: the
// nearest is a place to start, not a promise that the tree fits.
std::vector<const ModelHeader*> nearest_of_vendor(const std::vector<ModelHeader>& headers, const cpu::CpuId& id) {
  std::vector<const ModelHeader*> nearest;
  std::pair<unsigned, unsigned> best;
  for (const ModelHeader& header : headers) {
    for (const CpuMatch& match : header.cpus) {
      if (match.vendor != id.vendor) continue;
      const auto apart = distance(match, id);
      if (!nearest.empty() && apart > best) continue;
      if (!nearest.empty() && apart < best) nearest.clear();
      best = apart;
      if (nearest.empty() || nearest.back() != &header) nearest.push_back(&header);
    }
  }
  return nearest;
}

const ModelHeader& header_for(const std::vector<ModelHeader>& headers, const cpu::CpuId& id) {
  for (const ModelHeader& header : headers) {
    if (header.matches(id)) return version_of(headers, header, header.name, std::nullopt);
  }
  const std::vector<const ModelHeader*> nearest = nearest_of_vendor(headers, id);
  std::string closest;
  for (const ModelHeader* header : nearest) {
    closest += (closest.empty() ? "" : ", ") + header->name + " (" + header->title + ")";
  }
  const bool named = id.vendor == cpu::Vendor::Other && !id.vendor_string.empty();
  const std::string vendor = named ? id.vendor_string : cpu::vendor_name(id.vendor);
  throw Error("no model for this CPU (" + describe(id) + ")" +
              (nearest.empty()
                   ? ", nor for any " + vendor + " CPU"
                   : "; the nearest " + vendor + (nearest.size() == 1 ? " model is " : " models are ") + closest) +
              "; use --cpu NAME to pick one, " + std::string(kListHint));
}

// Whether `dir` holds a file NAME@*.model beside NAME.model.
bool has_other_versions(const std::filesystem::path& dir, const std::string& name) {
  const std::string prefix = name + "@";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = lowercase(entry.path().filename().string());
    if (file.starts_with(prefix) && entry.path().extension() == ".model") return true;
  }
  return false;
}

}  // namespace

Model select_model(const std::filesystem::path& dir, const cpu::CpuId& id, const std::string& name_override) {
  const std::string wanted = lowercase(name_override);
  // A model's own name (NAME@VERSION for an older version) is nearly always
  // its file's: read that file alone, unless other versions of the name may
  // be newer.
  const auto own_file = dir / (wanted + ".model");
  if (!wanted.empty() && wanted.find('/') == std::string::npos && std::filesystem::is_regular_file(own_file) &&
      lowercase(load_header(own_file).versioned_name()) == wanted) {
    return load_model(own_file);
  }
  if (!wanted.empty() && wanted.find_first_of("/@") == std::string::npos &&
      std::filesystem::is_regular_file(own_file) && !has_other_versions(dir, wanted) &&
      lowercase(load_header(own_file).name) == wanted) {
    return load_model(own_file);
  }
  const std::vector<ModelHeader> headers = load_headers(dir);
  return load_model((name_override.empty() ? header_for(headers, id) : header_named(headers, name_override)).source);
}

}  // namespace topdown::model
