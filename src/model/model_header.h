#pragma once
// The [model] section of a model file, shared by load_model (the whole file)
// and load_header (that section alone), so both check it the same way.
#include <filesystem>
#include <fstream>
#include <string>

#include "model/model.h"
#include "model/section_reader.h"

namespace topdown::model {

// The header a [model] section describes, its source set to `file`; throws
// ParseError for an unknown or missing key and for a bad value.
ModelHeader header_from(const Section& section, const std::filesystem::path& file);

// The error for a file without a [model] section.
ParseError no_model_section(const std::string& file);

// `file` opened for reading; an Error naming it when it cannot be.
std::ifstream open_model_file(const std::filesystem::path& file);

// Throws an Error naming `file` when reading `in` failed (not at its end).
void throw_if_unreadable(const std::ifstream& in, const std::filesystem::path& file);

}  // namespace topdown::model
