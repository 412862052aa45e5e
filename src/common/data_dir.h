#pragma once
// Where the model files (models/: *.model and the event tables in events/)
// are at run time. No absolute path is compiled in: a binary finds them
// relative to itself, so an install can be moved (cmake --install --prefix,
// packages) and the build tree works without installing.
#include <filesystem>
#include <optional>

namespace topdown {

// $TOPDOWN_MODELS when set and not empty.
std::optional<std::filesystem::path> models_dir_from_environment();

// The models of a binary in `folder`: share/topdown/models of the install
// layout reached from its bin or lib folder, else `models` beside it or one
// folder up (the build tree links the source tree's models beside
// build/topdown, which build/bench/* find one folder up);
// nullopt when none of them is a folder.
std::optional<std::filesystem::path> models_dir_beside(const std::filesystem::path& folder);

// The folder of the executable or shared library holding this code (the
// program, when a static library is linked into it).
std::optional<std::filesystem::path> this_binary_folder();

// $TOPDOWN_MODELS, else the models beside this binary, else `last_resort`
// when it is a folder. When none is found, the installed layout's path
// beside the binary, so that the error about it names where they belong.
std::filesystem::path models_dir(const std::filesystem::path& last_resort = {});

}  // namespace topdown
