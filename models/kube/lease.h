#pragma once
// Lease — the rules of a coordination.k8s.io/v1 Lease record as a holder writes it and as an
// onlooker reads it, shared by the leader election (models/liveupgrade/leaderelection.h) and `serve`'s
// built-in node-upgrade controller, which holds the controllers' Lease itself.

#include "models/kube/jsonfield.h"
#include "models/kube/timeutil.h"

#include <cstdint>
#include <string>

namespace kube {

inline constexpr const char *kLeaseApiVersion = "coordination.k8s.io/v1";

// The Lease `existing` (null or not an object: none yet) as `identity` writes it to take or
// renew it: holder, duration (whole seconds, at least 1) and renewTime `now`. acquireTime and
// leaseTransitions move only when the holder changes (a new Lease starts at 0 transitions).
Json heldLease(const Json &existing, const std::string &namespace_, const std::string &name,
               const std::string &identity, std::int64_t durationSeconds, Timestamp now);

// The holder of `lease` when its renewTime + leaseDurationSeconds has not passed at `now` (the
// reader's clock, so only an estimate when clocks differ), else "".
std::string liveLeaseHolder(const Json &lease, Timestamp now);

} // namespace kube
