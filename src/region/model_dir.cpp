#include <dlfcn.h>

#include <cstdlib>

#include "region/open_session.h"

namespace topdown::region {
namespace {

// The installed models beside the file this code was loaded from: the shared
// library, or the program a static library was linked into.
std::optional<std::filesystem::path> beside_this_library() {
  Dl_info where{};
  if (::dladdr(reinterpret_cast<void*>(&model_dir), &where) == 0 || where.dli_fname == nullptr) return std::nullopt;
  std::error_code error;
  const std::filesystem::path file = std::filesystem::canonical(where.dli_fname, error);
  if (error) return std::nullopt;
  // TOPDOWN_LIBRARY_TO_MODELS: the models' install path relative to the library's.
  const std::filesystem::path models = (file.parent_path() / TOPDOWN_LIBRARY_TO_MODELS).lexically_normal();
  if (!std::filesystem::is_directory(models, error)) return std::nullopt;
  return models;
}

}  // namespace

std::filesystem::path model_dir() {
  const char* configured = std::getenv("TOPDOWN_MODELS");
  if (configured == nullptr || *configured == '\0') {
    if (auto installed = beside_this_library()) return *installed;
    std::error_code error;
    if (std::filesystem::is_directory(TOPDOWN_INSTALL_DATA_DIR, error)) return TOPDOWN_INSTALL_DATA_DIR;
  }
  return model::default_model_dir();
}

}  // namespace topdown::region
