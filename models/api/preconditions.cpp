#include "models/api/preconditions.h"

namespace api {

std::optional<kube::ApiStatus> preconditionFailure(const Preconditions &want, const std::string &uid,
                                                   const std::string &resourceVersion)
{
    if (!want.uid.empty() && want.uid != uid)
        return kube::ApiStatus{409, "Conflict",
                               "Precondition failed: UID in precondition: " + want.uid +
                                   ", UID in object meta: " + uid};
    if (!want.resourceVersion.empty() && want.resourceVersion != resourceVersion)
        return kube::ApiStatus{409, "Conflict",
                               "Precondition failed: ResourceVersion in precondition: " +
                                   want.resourceVersion + ", ResourceVersion in meta: " + resourceVersion};
    return std::nullopt;
}

} // namespace api
