#pragma once
// Addresses of sampled processes to functions and source lines: executables
// and shared libraries through elfutils (libdwfl), kernel addresses through
// /proc/kallsyms, JIT code through /tmp/perf-PID.map, "[unknown]" for the rest.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "symbols/unwinder.h"

namespace topdown::symbols {

struct Location {
  std::string function;                   // demangled; the outermost non-inlined function, "[unknown]" when none
  std::string inlined;                    // the innermost inlined function at the address, empty when not inlined
  std::string module;                     // file name of the executable or library, "[kernel]", "[jit]", "[unknown]"
  std::string file;                       // source file, empty without line information
  int line = 0;                           // 0 without line information
  std::vector<std::string> inline_chain;  // every inlined function there, innermost first (inlined is the first)
};

// A symbolizer of the processes of one recording. Feed it the recording's
// mappings and task events in time order, interleaved with resolve() calls
// for samples at that point in time.
class Symbolizer {
 public:
  struct Options {
    std::string kallsyms = "/proc/kallsyms";  // empty: no kernel symbols
    std::string jit_map_dir = "/tmp";         // perf-PID.map files
    bool lines = true;                        // source file and line (slower)
  };
  explicit Symbolizer(Options options);
  Symbolizer();
  ~Symbolizer();
  Symbolizer(Symbolizer&&) noexcept;
  Symbolizer& operator=(Symbolizer&&) noexcept;

  void map(uint32_t pid, uint64_t start, uint64_t length, uint64_t file_offset, const std::string& path,
           const std::string& build_id);
  void exec(uint32_t pid);                     // the process's old mappings are gone
  void fork(uint32_t child, uint32_t parent);  // the child starts with the parent's mappings
  void exit(uint32_t pid);

  // Cached per (file, offset), kernel address and JIT address: repeated
  // addresses cost a hash lookup, and a library mapped by many processes is
  // read once. The Location stays valid as long as the Symbolizer.
  const Location& resolve(uint32_t pid, uint64_t ip, bool kernel);

  // The file mapped at `ip` of `pid` now, null when none is; reads nothing.
  const std::string* file_at(uint32_t pid, uint64_t ip) const;
  // Forgets every process's mappings, to be fed the recording again from
  // its start; the files read so far stay read.
  void restart();
  // Source lines and inlined functions come from a file's DWARF, for a
  // system library mostly its separate debug file, decompressed whole (libc's
  // is 15 MB): only `files` get them; the others' locations name the
  // function from the symbol table alone. Before the first resolve().
  void read_dwarf_of(std::unordered_set<std::string> files);
  // The kernel addresses resolve() will be asked for (sorted): only their
  // functions are kept of /proc/kallsyms, instead of all 100,000 and more.
  // Others resolve to [unknown]. Before the first kernel resolve().
  void expect_kernel_addresses(std::vector<uint64_t> addresses);

  // Appends the user-mode call stack of thread `tid` of `pid` at a sample
  // that saved `state` (record --call-graph dwarf), innermost first, at most
  // `max_frames`, through the process's mappings at this point in time.
  void unwind(uint32_t pid, uint32_t tid, const UserState& state, std::size_t max_frames,
              std::vector<uint64_t>& frames);

  // One line per problem met so far (a binary that vanished or changed since
  // recording, a stripped binary, an unreadable kallsyms), each said once.
  std::vector<std::string> warnings() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The GNU build id of an ELF file in hex, as Mapping::build_id records it;
// empty when the file has none or cannot be read.
std::string build_id_of(const std::string& path);

}  // namespace topdown::symbols
