#include "common/data_dir.h"

#include <dlfcn.h>
#include <link.h>

#include <array>
#include <cstdlib>

namespace topdown {
namespace {

// From the folders of an installed binary to the installed models, relative
// (TOPDOWN_BIN_TO_MODELS, TOPDOWN_LIB_TO_MODELS: set by CMake from the
// install layout), then the build tree's link, beside build/topdown or one
// folder up for the binaries in build/bench and the like.
constexpr std::array<const char*, 4> kBesideBinary = {TOPDOWN_BIN_TO_MODELS, TOPDOWN_LIB_TO_MODELS, "models",
                                                      "../models"};

bool is_folder(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error);
}

}  // namespace

std::optional<std::filesystem::path> models_dir_from_environment() {
  const char* configured = std::getenv("TOPDOWN_MODELS");
  if (configured == nullptr || *configured == '\0') return std::nullopt;
  return std::filesystem::path(configured);
}

std::optional<std::filesystem::path> models_dir_beside(const std::filesystem::path& folder) {
  for (const char* relative : kBesideBinary) {
    const std::filesystem::path candidate = (folder / relative).lexically_normal();
    if (is_folder(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> this_binary_folder() {
  Dl_info where{};
  link_map* object = nullptr;
  const int found = ::dladdr1(reinterpret_cast<void*>(&this_binary_folder), &where, reinterpret_cast<void**>(&object),
                              RTLD_DL_LINKMAP);
  std::error_code error;
  std::filesystem::path file;
  if (found != 0 && object != nullptr && object->l_name != nullptr && *object->l_name != '\0') {
    file = std::filesystem::canonical(object->l_name, error);  // a shared library
  } else {
    // The program itself, whose name dladdr gives only as argv[0].
    file = std::filesystem::read_symlink("/proc/self/exe", error);
  }
  if (error) return std::nullopt;
  return file.parent_path();
}

std::filesystem::path models_dir(const std::filesystem::path& last_resort) {
  if (auto configured = models_dir_from_environment()) return *configured;
  const std::optional<std::filesystem::path> folder = this_binary_folder();
  if (folder) {
    if (auto beside = models_dir_beside(*folder)) return *beside;
  }
  if (!last_resort.empty() && is_folder(last_resort)) return last_resort;
  return (folder.value_or(std::filesystem::path()) / kBesideBinary.front()).lexically_normal();
}

}  // namespace topdown
