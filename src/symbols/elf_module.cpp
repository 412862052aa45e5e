#include "symbols/elf_module.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "symbols/demangle.h"

namespace topdown::symbols {

namespace {

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string to_hex(const void* bytes, size_t size) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    unsigned value = static_cast<const unsigned char*>(bytes)[i];
    hex += kDigits[value >> 4];
    hex += kDigits[value & 0xf];
  }
  return hex;
}

// A .debug_info section (or its compressed .zdebug_info spelling); `names`
// is the index of the section name table.
bool is_debug_info(Elf* elf, size_t names, const GElf_Shdr& header) {
  const char* name = elf_strptr(elf, names, header.sh_name);
  return name != nullptr && (std::strcmp(name, ".debug_info") == 0 || std::strcmp(name, ".zdebug_info") == 0);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// C++ functions by their qualified, demangled linkage name; others by name.
std::string die_name(Dwarf_Die* die) {
  Dwarf_Attribute attribute;
  for (int name : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
    if (dwarf_attr_integrate(die, name, &attribute) != nullptr) {
      if (const char* linkage = dwarf_formstring(&attribute)) {
        return demangle(linkage);
      }
    }
  }
  const char* plain = dwarf_diename(die);
  return plain != nullptr ? plain : "";
}

}  // namespace

// Debug information is looked for as gdb does: beside the file, in .debug/,
// and under /usr/lib/debug (by build id and by path), where -dbgsym packages
// install it.
const Dwfl_Callbacks kFileCallbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = nullptr,
};

ElfModule::ElfModule(std::string path, std::string recorded_build_id, bool lines, WarningLog& warnings)
    : path_(std::move(path)),
      recorded_build_id_(lower(std::move(recorded_build_id))),
      lines_(lines),
      warnings_(warnings) {
  unknown_.function = "[unknown]";
  unknown_.module = base_name(path_);
}

ElfModule::~ElfModule() {
  if (dwfl_ != nullptr) {
    dwfl_end(dwfl_);
  }
}

void ElfModule::open() {
  opened_ = true;
  struct stat status {};
  if (::stat(path_.c_str(), &status) != 0) {
    warnings_.add(errno == ENOENT ? path_ +
                                        " is gone since recording: its samples show as [unknown]; report where it was "
                                        "recorded or put the binary back"
                                  : "cannot read " + path_ + " (" + std::strerror(errno) +
                                        "): its samples show as [unknown]; report as a user who can read it");
    return;
  }
  dwfl_ = dwfl_begin(&kFileCallbacks);
  if (dwfl_ == nullptr) {
    warnings_.add("cannot read " + path_ + " (" + dwfl_errmsg(-1) + "): its samples show as [unknown]");
    return;
  }
  dwfl_report_begin(dwfl_);
  Dwfl_Module* module = dwfl_report_elf(dwfl_, unknown_.module.c_str(), path_.c_str(), -1, 0, false);
  dwfl_report_end(dwfl_, nullptr, nullptr);
  Dwarf_Addr bias = 0;
  Elf* elf = module != nullptr ? dwfl_module_getelf(module, &bias) : nullptr;
  if (elf == nullptr) {
    warnings_.add("cannot read " + path_ + " as an ELF file (" + dwfl_errmsg(-1) +
                  "): its samples show as [unknown]; check that the file is the program or library that was recorded");
    return;
  }
  const unsigned char* id_bytes = nullptr;
  GElf_Addr id_address = 0;
  int id_size = dwfl_module_build_id(module, &id_bytes, &id_address);
  std::string build_id = id_size > 0 ? to_hex(id_bytes, static_cast<size_t>(id_size)) : "";
  if (!recorded_build_id_.empty() && build_id != recorded_build_id_) {
    warnings_.add(path_ + " changed since recording (build id " + (build_id.empty() ? "none" : build_id) +
                  ", recorded " + recorded_build_id_ +
                  "): its samples show as [unknown] rather than as the wrong functions; put the recorded binary "
                  "back or record again");
    return;
  }
  size_t header_count = 0;
  if (elf_getphdrnum(elf, &header_count) != 0) {
    header_count = 0;
  }
  for (size_t i = 0; i < header_count; ++i) {
    GElf_Phdr header;
    if (gelf_getphdr(elf, static_cast<int>(i), &header) != nullptr && header.p_type == PT_LOAD) {
      segments_.push_back({header.p_offset, header.p_filesz, header.p_vaddr});
    }
  }
  module_ = module;
  bias_ = bias;
  functions_ = FunctionIndex(module);
  if (is_stripped()) {
    warnings_.add(path_ +
                  " is stripped (no symbol table, no debug info): its functions come from its dynamic symbols or "
                  "show as [unknown]; install its debug info (the -dbgsym package) or record an unstripped binary");
  }
}

bool ElfModule::is_stripped() const {
  // The symbol table libdwfl found (FunctionIndex read it) is the file's own
  // or its separate debug file's; asking for the DWARF instead would
  // decompress all of it (15 MB for libc) to answer yes or no.
  const char* debug_file = nullptr;
  dwfl_module_info(module_, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &debug_file);
  if (debug_file != nullptr) {
    return false;
  }
  Dwarf_Addr bias = 0;
  Elf* elf = dwfl_module_getelf(module_, &bias);
  size_t names = 0;
  const bool named = elf_getshdrstrndx(elf, &names) == 0;
  for (Elf_Scn* section = elf_nextscn(elf, nullptr); section != nullptr; section = elf_nextscn(elf, section)) {
    GElf_Shdr header;
    if (gelf_getshdr(section, &header) != nullptr &&
        (header.sh_type == SHT_SYMTAB || (named && is_debug_info(elf, names, header)))) {
      return false;
    }
  }
  return true;
}

const Location& ElfModule::resolve(uint64_t file_offset) {
  auto found = cache_.find(file_offset);
  if (found != cache_.end()) {
    return found->second;
  }
  if (!opened_) {
    open();
  }
  if (module_ == nullptr) {
    return unknown_;
  }
  return cache_.emplace(file_offset, look_up(file_offset)).first->second;
}

const ElfModule::LoadSegment* ElfModule::segment_of(uint64_t file_offset) const {
  auto segment = std::find_if(segments_.begin(), segments_.end(), [&](const LoadSegment& s) {
    return file_offset >= s.file_offset && file_offset - s.file_offset < s.file_size;
  });
  return segment == segments_.end() ? nullptr : &*segment;
}

std::optional<uint64_t> ElfModule::load_bias(uint64_t start, uint64_t file_offset) {
  if (!opened_) {
    open();
  }
  const LoadSegment* segment = module_ != nullptr ? segment_of(file_offset) : nullptr;
  if (segment == nullptr) {
    return std::nullopt;
  }
  return start - (segment->address + (file_offset - segment->file_offset));
}

Location ElfModule::look_up(uint64_t file_offset) {
  Location location = unknown_;
  const LoadSegment* segment = segment_of(file_offset);
  if (segment == nullptr) {
    return location;
  }
  Dwarf_Addr address = segment->address + (file_offset - segment->file_offset) + bias_;
  if (const std::string* function = functions_.find(address)) {
    location.function = *function;
  }
  if (!reads_dwarf_) {
    return location;
  }
  add_inlined_names(address, location);
  if (lines_) {
    if (Dwfl_Line* line = dwfl_module_getsrc(module_, address)) {
      int number = 0;
      if (const char* file = dwfl_lineinfo(line, nullptr, &number, nullptr, nullptr, nullptr)) {
        location.file = file;
        location.line = number;
      }
    }
  }
  return location;
}

void ElfModule::add_inlined_names(uint64_t address, Location& location) const {
  Dwarf_Addr bias = 0;
  Dwarf_Die* unit = dwfl_module_addrdie(module_, address, &bias);
  if (unit == nullptr) {
    return;
  }
  Dwarf_Die* scopes = nullptr;
  int count = dwarf_getscopes(unit, address - bias, &scopes);
  std::unique_ptr<Dwarf_Die, decltype(&std::free)> owned(scopes, &std::free);
  for (int i = 0; i < count; ++i) {
    if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
      location.inline_chain.push_back(die_name(&scopes[i]));
    }
  }
  if (!location.inline_chain.empty()) {
    location.inlined = location.inline_chain.front();
  }
}

std::string build_id_of(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return "";
  }
  elf_version(EV_CURRENT);
  std::string hex;
  if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr)) {
    const void* bytes = nullptr;
    ssize_t size = dwelf_elf_gnu_build_id(elf, &bytes);
    if (size > 0) {
      hex = to_hex(bytes, static_cast<size_t>(size));
    }
    elf_end(elf);
  }
  ::close(fd);
  return hex;
}

}  // namespace topdown::symbols
