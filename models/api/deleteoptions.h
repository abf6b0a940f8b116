#pragma once
// metav1.DeleteOptions of a DELETE, and of an eviction (policy/v1 Eviction.deleteOptions,
// merged with the query): what a store checks and does when it deletes an object.

#include "models/api/preconditions.h"

#include <cstdint>
#include <optional>

namespace api {

// DeleteOptions.propagationPolicy: what happens to the objects the deleted one owns.
enum class DeletePropagation { Background, Foreground, Orphan };

struct DeleteOptions
{
    std::optional<std::int64_t> gracePeriodSeconds;
    DeletePropagation propagation = DeletePropagation::Background;
    Preconditions preconditions;
    // dryRun=All: everything a deletion checks (existence, preconditions), nothing changed.
    bool dryRun = false;
};
// An eviction carries DeleteOptions too; its propagation does not apply to a pod.
using EvictOptions = DeleteOptions;

} // namespace api
