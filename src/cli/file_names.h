#pragma once
// Names of the files a command writes beside the one it was given.
#include <string>

namespace topdown::cli {

// `path` with "-SUFFIX" before its extensions: app.pb.gz, cpu_core:
// app-cpu_core.pb.gz; topdown.data, 2: topdown-2.data.
std::string suffixed_path(const std::string& path, const std::string& suffix);

}  // namespace topdown::cli
