#pragma once
// PodLogStream — GET pods/NAME/log as kube-apiserver serves it (PodLogOptions): text/plain lines
// of the simulated container (sim::containerLog, the same lines the console shows), with
// container, previous, tailLines, limitBytes, sinceSeconds, timestamps and follow. Without
// follow the answer is one body; with it a chunked stream that goes on with every line the
// container writes until it ends, the pod is gone, the limit is reached, the client goes away
// (noticed at the next write) or the server stops.

#include "models/kube/result.h"
#include "models/server/enginehost.h"

#include <chrono>
#include <string>

namespace httplib {
struct Request;
struct Response;
} // namespace httplib

namespace server {

class PodLogStream
{
public:
    // Answers the request in `res`; an error (bad options, missing pod, bad container) is
    // returned for the caller to send as a Status. `poll`: how often a follow looks for lines.
    static kube::Result<void> serve(EngineHost &engine, const httplib::Request &req, httplib::Response &res,
                                    const std::string &ns, const std::string &name,
                                    std::chrono::milliseconds poll);
};

} // namespace server
