#include "serve/cgroup_labels.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace topdown::serve {
namespace {

std::vector<std::string_view> path_parts(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    if (!part.empty()) parts.push_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool is_hex(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A pod UID as kubelet writes it (8-4-4-4-12 hex digits; the systemd driver
// writes '_' for '-'), in its usual spelling with dashes.
std::optional<std::string> pod_uid(std::string_view text) {
  std::string uid(text);
  std::replace(uid.begin(), uid.end(), '_', '-');
  constexpr std::array<size_t, 4> kDashes = {8, 13, 18, 23};
  if (uid.size() != 36) return std::nullopt;
  for (size_t at = 0; at < uid.size(); ++at) {
    const bool dash = std::find(kDashes.begin(), kDashes.end(), at) != kDashes.end();
    if (dash ? uid[at] != '-' : !is_hex(std::string_view(uid).substr(at, 1))) return std::nullopt;
  }
  return uid;
}

// The QoS class a kubepods level names; nullopt for a part that is none.
std::optional<std::string_view> qos_of(std::string_view part) {
  for (const std::string_view qos : {"burstable", "besteffort"}) {
    if (part == qos || part == "kubepods-" + std::string(qos) + ".slice") return qos;
  }
  return std::nullopt;
}

// "kubepods-burstable-pod<UID>.slice" or "kubepods-pod<UID>.slice" (systemd),
// "pod<UID>" (cgroupfs).
std::optional<std::string> pod_of(std::string_view part) {
  if (ends_with(part, ".slice")) {
    part.remove_suffix(6);
    const size_t pod = part.rfind("-pod");
    if (!starts_with(part, "kubepods-") || pod == std::string_view::npos) return std::nullopt;
    return pod_uid(part.substr(pod + 4));
  }
  return starts_with(part, "pod") ? pod_uid(part.substr(3)) : std::nullopt;
}

// "cri-containerd-<ID>.scope", "crio-<ID>.scope", "docker-<ID>.scope"
// (systemd), or a bare ID (cgroupfs).
std::optional<std::string> container_of(std::string_view part) {
  if (ends_with(part, ".scope")) {
    part.remove_suffix(6);
    for (const std::string_view runtime : {"cri-containerd-", "crio-", "docker-"}) {
      if (starts_with(part, runtime)) part.remove_prefix(runtime.size());
    }
  }
  return is_hex(part) && part.size() >= 12 ? std::optional(std::string(part)) : std::nullopt;
}

// A systemd unit that holds processes, by the suffix systemd gives it.
bool is_unit(std::string_view part) { return ends_with(part, ".service") || ends_with(part, ".scope"); }

}  // namespace

Labels cgroup_labels(std::string_view cgroup) {
  const std::vector<std::string_view> parts = path_parts(cgroup);
  const auto kubepods = std::find_if(
      parts.begin(), parts.end(), [](std::string_view part) { return part == "kubepods" || part == "kubepods.slice"; });
  Labels labels;
  if (kubepods != parts.end()) {
    std::string_view qos = "guaranteed";
    for (auto part = kubepods + 1; part != parts.end(); ++part) {
      if (const auto named = qos_of(*part)) {
        qos = *named;
        continue;
      }
      const auto uid = pod_of(*part);
      if (!uid) break;
      labels.emplace_back("pod_uid", *uid);
      labels.emplace_back("qos", std::string(qos));
      if (part + 1 != parts.end()) {
        if (const auto container = container_of(*(part + 1))) labels.emplace_back("container_id", *container);
      }
      return labels;
    }
    return labels;
  }
  if (!parts.empty() && is_unit(parts.back())) labels.emplace_back("systemd_unit", std::string(parts.back()));
  return labels;
}

}  // namespace topdown::serve
