#include "collect/cgroups.h"

#include <fmt/format.h>

#include <algorithm>
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

namespace {

// The mount perf counts cgroups under; `option` names what needs it.
std::filesystem::path cgroup_mount(const std::filesystem::path& mountinfo, std::string_view option) {
  const std::optional<std::filesystem::path> mount = perf_cgroup_mount(read_whole_file(mountinfo).value_or(""));
  if (!mount) {
    throw Error(
        fmt::format("{}: {} lists no cgroup2 mount and no cgroup hierarchy with the perf_event controller; mount one "
                    "(mount -t cgroup2 none /sys/fs/cgroup) or leave out {}",
                    option, mountinfo.string(), option));
  }
  return *mount;
}

}  // namespace

Cgroup find_cgroup(std::string_view given, const std::filesystem::path& mount, std::string_view option) {
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
        fmt::format("{} '{}': no such cgroup under {}; give its path under that mount (as in "
                    "/proc/PID/cgroup) or its full directory",
                    option, given, mount.string()));
  }
  return {name_of(relative), directory};
}

std::vector<Cgroup> find_cgroups(const std::vector<std::string>& given, const std::filesystem::path& mountinfo) {
  const std::filesystem::path mount = cgroup_mount(mountinfo, "--cgroup");
  std::vector<Cgroup> cgroups;
  for (const std::string& one : given) cgroups.push_back(find_cgroup(one, mount));
  return cgroups;
}

CgroupTree find_cgroup_tree(std::string_view given, int depth, const std::filesystem::path& mountinfo) {
  return {find_cgroup(given, cgroup_mount(mountinfo, "--cgroups-under"), "--cgroups-under"), depth};
}

std::vector<Cgroup> cgroups_in(const CgroupTree& tree) {
  std::vector<Cgroup> found;
  std::error_code error;
  if (!std::filesystem::is_directory(tree.top.directory, error)) return found;
  found.push_back(tree.top);
  // A directory removed while it is walked ends its part of the walk, not the walk.
  using Walk = std::filesystem::recursive_directory_iterator;
  for (Walk walk(tree.top.directory, std::filesystem::directory_options::skip_permission_denied, error);
       !error && walk != Walk(); walk.increment(error)) {
    if (walk.depth() + 1 >= tree.depth) walk.disable_recursion_pending();
    if (!walk->is_directory(error) || walk->is_symlink(error)) continue;
    const std::filesystem::path relative = walk->path().lexically_relative(tree.top.directory);
    const std::string below = tree.top.name == "/" ? "" : tree.top.name;
    found.push_back({below + name_of(relative), walk->path()});
  }
  std::sort(found.begin() + 1, found.end(), [](const Cgroup& a, const Cgroup& b) { return a.name < b.name; });
  return found;
}

}  // namespace topdown::collect
