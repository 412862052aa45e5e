#include "cli/output_paths.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>

#include "common/error.h"

namespace topdown::cli {
namespace {

constexpr int kMostLinks = 40;  // the kernel's own limit before ELOOP

// A regular file, or the place where a new one would be created.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  std::string new_name;  // empty for a file that exists

  bool operator==(const FileIdentity&) const = default;
};

// An existing regular file's; nothing for a device, a FIFO or a directory,
// which no output replaces, or for a path that is not there.
std::optional<FileIdentity> existing_file(const std::string& path) {
  struct stat file {};
  if (::stat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) return std::nullopt;
  return FileIdentity{file.st_dev, file.st_ino, ""};
}

// The file an output replaces or creates.
std::optional<FileIdentity> output_file(const std::string& path) {
  struct stat file {};
  if (::stat(path.c_str(), &file) == 0) return existing_file(path);
  const std::filesystem::path target(file_behind_links(path));
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  struct stat parent {};
  if (::stat(dir.c_str(), &parent) != 0) return std::nullopt;  // opening the output says why
  return FileIdentity{parent.st_dev, parent.st_ino, target.filename().string()};
}

}  // namespace

std::string file_behind_links(const std::string& path) {
  std::filesystem::path file(path);
  for (int links = 0; links < kMostLinks; ++links) {
    std::error_code error;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(file, error))) return file.string();
    const std::filesystem::path target = std::filesystem::read_symlink(file, error);
    if (error) return file.string();
    file = target.is_absolute() ? target : file.parent_path() / target;
  }
  throw Error("cannot write output file " + path + ": " + std::strerror(ELOOP) + "; give the file itself");
}

void check_outputs_apart(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& output = outputs[i];
    if (output.path.empty()) continue;
    const std::optional<FileIdentity> written = output_file(output.path);
    if (!written) continue;
    for (const NamedPath& input : inputs) {
      if (input.path.empty() || existing_file(input.path) != written) continue;
      throw Error(output.what + " " + output.path + " is " + input.what + " " + input.path +
                  ": writing it would destroy it; choose another output file");
    }
    for (size_t j = i + 1; j < outputs.size(); ++j) {
      if (outputs[j].path.empty() || output_file(outputs[j].path) != written) continue;
      throw Error(output.what + " " + output.path + " and " + outputs[j].what + " " + outputs[j].path +
                  " are one file: one would overwrite the other; give each its own file");
    }
  }
}

}  // namespace topdown::cli
