// The C++ API: Session and Scope over Session::Impl.
#include <iomanip>
#include <sstream>

#include "common/error.h"
#include "region/open_session.h"
#include "region/session_impl.h"

namespace topdown::region {

const NodeValue* RegionResult::find(std::string_view node) const {
  for (const NodeValue& value : nodes) {
    if (value.name == node) return &value;
  }
  return nullptr;
}

namespace {

// Any failure of the stages below as a region::Error, so that callers catch one type.
std::unique_ptr<Session::Impl> open_or_throw(const Options& options) {
  try {
    return open_session(options);
  } catch (const Error&) {
    throw;
  } catch (const topdown::Error& error) {
    throw Error(ErrorCode::Model, error.what());
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    throw Error(ErrorCode::Internal, error.what());
  }
}

}  // namespace

Session::Session(const Options& options) : Session(open_or_throw(options)) {}
Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

std::optional<Session> Session::try_open(const Options& options, std::optional<Error>* error) noexcept {
  try {
    return Session(options);
  } catch (const Error& failure) {
    if (error) *error = failure;
  } catch (const std::exception& failure) {
    if (error) *error = Error(ErrorCode::Internal, failure.what());
  }
  return std::nullopt;
}

RegionId Session::region(std::string_view name) { return impl_->region(name); }
void Session::begin(RegionId id) { impl_->begin(id); }
void Session::begin(std::string_view name) { impl_->begin(impl_->region(name)); }
void Session::end() { impl_->end(); }
std::vector<RegionResult> Session::results() const { return impl_->results(); }
const SessionInfo& Session::info() const { return impl_->info; }

std::optional<RegionResult> Session::result(std::string_view name) const {
  for (RegionResult& result : impl_->results()) {
    if (result.name == name) return std::move(result);
  }
  return std::nullopt;
}

Scope::~Scope() { session_.impl_->end_noexcept(); }

std::string to_text(const RegionResult& result) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  out << std::string(static_cast<std::size_t>(result.depth) * 2, ' ') << result.name << ": " << result.calls
      << " calls";
  if (result.slots) out << ", " << std::setprecision(0) << *result.slots << std::setprecision(1) << " slots";
  if (result.counted_share < 1.0) out << ", counted " << result.counted_share * 100 << "% of the time";
  out << '\n';
  for (const NodeValue& node : result.nodes) {
    out << std::string(static_cast<std::size_t>(result.depth + node.level) * 2, ' ') << std::left
        << std::setw(22 - 2 * (node.level - 1)) << node.name << std::right;
    if (node.fraction) {
      out << std::setw(6) << *node.fraction * 100 << '%';
    } else {
      out << std::setw(7) << "n/a";
    }
    if (node.bottleneck) out << "  <== bottleneck";
    out << '\n';
  }
  for (const std::string& warning : result.warnings) out << "  warning: " << warning << '\n';
  return out.str();
}

}  // namespace topdown::region
