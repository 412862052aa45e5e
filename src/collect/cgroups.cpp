#include "collect/cgroups.h"

#include <fmt/format.h>

#include <system_error>

#include "common/error.h"
#include "common/input_file.h"
#include "common/strings.h"

namespace topdown::collect {
namespace {

// mountinfo writes space, tab, newline and backslash in paths as \ and three
// octal digits.
std::string unescape_octal(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() && field[i + 1] >= '0' && field[i + 1] <= '3' && field[i + 2] >= '0' &&
        field[i + 2] <= '7' && field[i + 3] >= '0' && field[i + 3] <= '7') {
      out += static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0'));
      i += 3;
    } else {
      out += field[i];
    }
  }
  return out;
}

bool lists_option(std::string_view options, std::string_view wanted) {
  for (const std::string_view option : split_words(options, ",")) {
    if (option == wanted) return true;
  }
  return false;
}

// "a/b/" -> "/a/b"; "" -> "/".
std::string name_of(const std::filesystem::path& relative) {
  std::string name = "/" + relative.generic_string();
  while (name.size() > 1 && name.back() == '/') name.pop_back();
  return name;
}

}  // namespace

std::optional<std::filesystem::path> perf_cgroup_mount(std::string_view mountinfo) {
  std::optional<std::filesystem::path> unified;
  for (const std::string_view line : split_words(mountinfo, "\n")) {
    // ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS
    const std::vector<std::string_view> fields = split_words(line, " ");
    size_t dash = 6;
    while (dash < fields.size() && fields[dash] != "-") ++dash;
    if (dash + 1 >= fields.size()) continue;  // not a mount line
    const std::string_view type = fields[dash + 1];
    const std::filesystem::path mount_point = unescape_octal(fields[4]);
    if (type == "cgroup" && dash + 3 < fields.size() && lists_option(fields[dash + 3], "perf_event")) {
      return mount_point;
    }
    if (type == "cgroup2" && !unified) unified = mount_point;
  }
  return unified;
}

Cgroup find_cgroup(std::string_view given, const std::filesystem::path& mount) {
  const std::filesystem::path path(given);
  std::filesystem::path relative = path.lexically_relative(mount);
  if (relative.empty() || *relative.begin() == "..") relative = path.relative_path();
  relative = relative.lexically_normal();
  if (relative == ".") relative.clear();
  const std::filesystem::path directory = mount / relative;
  std::error_code error;
  const bool outside = !relative.empty() && *relative.begin() == "..";
  if (given.empty() || outside || !std::filesystem::is_directory(directory, error)) {
    throw Error(
        fmt::format("--cgroup '{}': no such cgroup under {}; give its path under that mount (as in "
                    "/proc/PID/cgroup) or its full directory",
                    given, mount.string()));
  }
  return {name_of(relative), directory};
}

std::vector<Cgroup> find_cgroups(const std::vector<std::string>& given, const std::filesystem::path& mountinfo) {
  const std::optional<std::filesystem::path> mount = perf_cgroup_mount(read_whole_file(mountinfo).value_or(""));
  if (!mount) {
    throw Error(fmt::format(
        "--cgroup: {} lists no cgroup2 mount and no cgroup hierarchy with the perf_event controller; mount one "
        "(mount -t cgroup2 none /sys/fs/cgroup) or leave out --cgroup",
        mountinfo.string()));
  }
  std::vector<Cgroup> cgroups;
  for (const std::string& one : given) cgroups.push_back(find_cgroup(one, *mount));
  return cgroups;
}

}  // namespace topdown::collect
