#pragma once
// Discovery — the discovery documents of the served API: aggregated discovery
// (APIGroupDiscoveryList, apidiscovery.k8s.io v2 as kubectl 1.30+ asks, v2beta1 as kubectl
// 1.26-1.29 ask) and the legacy documents (APIVersions, APIGroupList, APIGroup,
// APIResourceList) for clients that ask for plain JSON. kubectl resolves "ds", "po", "no" and
// "get all" from shortNames and categories, so those must be present (kube-api.md §0).

#include "models/kube/gojson.h"

#include <string>

namespace server {

class Discovery
{
public:
    enum class Format { Legacy, AggregatedV2, AggregatedV2Beta1 };

    // Picks the first media range of an Accept header the server can answer.
    static Format negotiate(const std::string &accept);
    // Content-Type of an answer in that format.
    static std::string contentType(Format format);

    // GET /api and GET /apis in the negotiated format. serverAddress: "127.0.0.1:PORT".
    static kube::Json core(Format format, const std::string &serverAddress);
    static kube::Json groups(Format format);
    // GET /apis/apps, /apis/upgrade.daemonscope.io (legacy APIGroup).
    static kube::Json group(const std::string &group);
    // GET /api/v1, /apis/apps/v1 or /apis/upgrade.daemonscope.io/v1alpha1 (legacy APIResourceList).
    static kube::Json resourceList(const std::string &group);
    // GET /version.
    static kube::Json version();
};

} // namespace server
