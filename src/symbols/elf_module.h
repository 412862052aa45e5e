#pragma once
// One executable or shared library, opened once with libdwfl however many
// processes map it, and the locations of its addresses, each looked up once.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "symbols/function_index.h"
#include "symbols/symbolizer.h"
#include "symbols/warning_log.h"

#include <elfutils/libdwfl.h>

namespace topdown::symbols {

// How libdwfl finds a file's ELF and its separate debug information.
extern const Dwfl_Callbacks kFileCallbacks;

class ElfModule {
 public:
  // Opens nothing yet: the file is read at the first resolve().
  // `recorded_build_id` (hex, may be empty) is what the recording saw. Why
  // the file's samples lack names (gone, changed, stripped) goes to `warnings`.
  ElfModule(std::string path, std::string recorded_build_id, bool lines, WarningLog& warnings);
  ~ElfModule();
  ElfModule(const ElfModule&) = delete;
  ElfModule& operator=(const ElfModule&) = delete;

  // The location of the byte at `file_offset` of the file.
  const Location& resolve(uint64_t file_offset);
  // Whether locations get their source line and inlined functions, which
  // come from the file's DWARF (often most of its size once decompressed);
  // without, functions come from the symbol table alone. Set before the
  // first resolve(); on by default.
  void read_dwarf(bool reads) { reads_dwarf_ = reads; }

  const std::string& path() const { return path_; }
  // What to add to the file's ELF addresses for where it runs when the byte
  // at `file_offset` is mapped at `start`; none when the file cannot be used
  // or the offset is in no loaded segment.
  std::optional<uint64_t> load_bias(uint64_t start, uint64_t file_offset);

 private:
  struct LoadSegment {
    uint64_t file_offset;
    uint64_t file_size;
    uint64_t address;
  };

  void open();
  bool is_stripped() const;
  Location look_up(uint64_t file_offset);
  void add_inlined_names(uint64_t address, Location& location) const;
  const LoadSegment* segment_of(uint64_t file_offset) const;

  std::string path_;
  std::string recorded_build_id_;
  bool lines_;
  bool reads_dwarf_ = true;
  bool opened_ = false;
  Dwfl* dwfl_ = nullptr;
  Dwfl_Module* module_ = nullptr;  // null when the file cannot be used
  uint64_t bias_ = 0;              // module address = ELF address + bias_
  std::vector<LoadSegment> segments_;
  FunctionIndex functions_;
  WarningLog& warnings_;
  Location unknown_;
  std::unordered_map<uint64_t, Location> cache_;
};

}  // namespace topdown::symbols
