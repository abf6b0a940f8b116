#pragma once
// Scheduling predicates shared by the DaemonSet controller and the simulated scheduler:
// nodeSelector and required node affinity (nodeSelectorTerms: matchExpressions on labels,
// matchFields on metadata.name), as the scheduler's NodeAffinity plugin evaluates them.

#include "models/kube/node.h"
#include <string_view>

namespace kube {

bool nodeSelectorMatches(const Json &podSpec, const Node &node);     // spec.nodeSelector
bool requiredAffinityMatches(const Json &podSpec, const Node &node); // spec.affinity.nodeAffinity.required...
// Hashes a revision for naming: FNV-1a 32 over data, plus 8 collision bytes when set, printed
// in decimal and mapped through SafeEncodeString.
std::string computeHash(const std::string &canonicalTemplate, std::optional<int> collisionCount);
std::uint32_t fnv1a32(const std::string &bytes, std::uint32_t seed = 2166136261u);
// FNV-1a 64; pass the previous result as seed to hash several pieces as one.
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed = 14695981039346656037ULL);
std::string safeEncodeString(const std::string &s);

} // namespace kube
