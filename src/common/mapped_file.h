#pragma once
// A large input file read in place: mapped read-only, so its bytes cost page
// cache the kernel can drop rather than a heap copy beside what is parsed
// from them (a recording of a million samples is ~160 MB of records).
#include <string>
#include <string_view>

namespace topdown {

class MappedFile {
 public:
  // Maps `path`; a pipe or other file that cannot be mapped is read into
  // memory instead. Throws Error "cannot open PATH: REASON; check the path
  // given" or "cannot read PATH: REASON".
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view bytes() const { return bytes_; }

  // Gives the memory of the mapped pages wholly before `offset` back (a
  // reader done with them); reading them again reads the file again. Does
  // nothing for a file read into memory.
  void release_before(std::size_t offset) const;

 private:
  void* mapping_ = nullptr;
  std::string read_;  // the bytes of a file that could not be mapped
  std::string_view bytes_;
};

}  // namespace topdown
