#pragma once
// JobClient — what the Job controller sees of a cluster, as upstream's is handed its informers'
// listers and PodControl: what every controller sees (ControllerClient), the Jobs (batch/v1, as
// the JSON objects the API serves), the Job's status write and events. The simulated cluster implements it
// over its store (models/sim/controllerclients.*); the controller sees nothing else of it.

#include "models/controllers/controllerclient.h"

#include <string>

namespace controllers {

class JobClient : public ControllerClient
{
public:
    // The Job "namespace/name" as stored, null when none.
    virtual const kube::Json *job(const std::string &key) const = 0;
    // The Job with its status written.
    virtual void updateJobStatus(kube::Json job) = 0;
    // An Event about the Job NS/NAME (UID).
    virtual void recordEvent(const std::string &ns, const std::string &name, const std::string &uid,
                             const std::string &type, const std::string &reason,
                             const std::string &message) = 0;

protected:
    ~JobClient() = default;
};

} // namespace controllers
