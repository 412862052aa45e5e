#pragma once
// Which file an output path names: the file a symbolic link leads to (the
// one to replace), and whether an output is an input or another output.
#include <string>
#include <vector>

namespace topdown::cli {

// `path` with the symbolic links of its last component followed, however
// many (a dangling link gives the file it would create). Throws Error on a
// loop of links.
std::string file_behind_links(const std::string& path);

// A file the command reads or writes, and what the user called it.
struct NamedPath {
  std::string what;  // "-o", "--html", "the import file", ...
  std::string path;  // empty: not given
};

// Throws Error, before anything runs, when an output is one of the inputs
// or two outputs are one file: the output would destroy the input, or one
// output the other. Files are compared by device and inode, with links
// followed (./F and a link to F are F); outputs not there yet by the
// directory they would be created in and their name. Only regular files
// (and new ones) count: a device or a FIFO is written in place, and one
// both read and written (/dev/stdin and /dev/stdout on a terminal) loses
// nothing.
void check_outputs_apart(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

}  // namespace topdown::cli
