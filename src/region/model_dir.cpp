#include "common/data_dir.h"
#include "region/open_session.h"

namespace topdown::region {

std::filesystem::path model_dir() { return models_dir(TOPDOWN_INSTALL_DATA_DIR); }

}  // namespace topdown::region
