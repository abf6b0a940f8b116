#pragma once
// metav1.Preconditions as kube-apiserver's registry store checks them: a deletion (or an
// eviction's DeleteOptions, or an update's or patch's metadata.uid) that names the uid or the
// resourceVersion it expects fails with 409 Conflict when the stored object has another. The
// uid is checked first.

#include "models/kube/apistatus.h"

#include <optional>
#include <string>

namespace api {

struct Preconditions
{
    std::string uid;             // empty: none
    std::string resourceVersion; // empty: none
};

// The Conflict a stored object with `uid` and `resourceVersion` gives, or none when it meets
// the preconditions.
std::optional<kube::ApiStatus> preconditionFailure(const Preconditions &want, const std::string &uid,
                                                   const std::string &resourceVersion);

} // namespace api
