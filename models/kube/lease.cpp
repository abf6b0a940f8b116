#include "models/kube/lease.h"

#include <algorithm>

namespace kube {

Json heldLease(const Json &existing, const std::string &namespace_, const std::string &name,
               const std::string &identity, std::int64_t durationSeconds, Timestamp now)
{
    const bool isNew = !existing.is_object();
    Json lease = isNew ? Json::object() : existing;
    lease["apiVersion"] = kLeaseApiVersion;
    lease["kind"] = "Lease";
    lease["metadata"]["name"] = name;
    lease["metadata"]["namespace"] = namespace_;
    Json &spec = lease["spec"];
    if (!spec.is_object())
        spec = Json::object();
    const std::string time = formatMicroTime(now);
    const bool transition = stringOr(spec, "holderIdentity") != identity;
    spec["holderIdentity"] = identity;
    spec["leaseDurationSeconds"] = std::max<std::int64_t>(1, durationSeconds);
    spec["renewTime"] = time;
    if (isNew || transition || !spec.contains("acquireTime")) {
        spec["acquireTime"] = time;
        std::int64_t transitions = 0;
        if (const Json *t = member(spec, "leaseTransitions"); t && t->is_number_integer())
            transitions = t->get<std::int64_t>();
        spec["leaseTransitions"] = isNew ? 0 : transitions + 1;
    }
    return lease;
}

std::string liveLeaseHolder(const Json &lease, Timestamp now)
{
    const Json *spec = lease.is_object() ? member(lease, "spec") : nullptr;
    if (!spec)
        return {};
    const std::string holder = stringOr(*spec, "holderIdentity");
    const auto renewed = parseRfc3339(stringOr(*spec, "renewTime"));
    std::int64_t seconds = 0;
    if (const Json *d = member(*spec, "leaseDurationSeconds"); d && d->is_number_integer())
        seconds = d->get<std::int64_t>();
    if (holder.empty() || !renewed || *renewed + seconds * 1000 < now)
        return {};
    return holder;
}

} // namespace kube
