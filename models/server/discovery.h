#pragma once
// Discovery — the discovery documents of the served API: aggregated discovery
// (APIGroupDiscoveryList, apidiscovery.k8s.io v2 as kubectl 1.30+ asks, v2beta1 as kubectl
// 1.26-1.29 ask) and the legacy documents (APIVersions, APIGroupList, APIGroup,
// APIResourceList) for clients that ask for plain JSON. kubectl resolves "ds", "po", "no" and
// "get all" from shortNames and categories, so those must be present (kube-api.md §0).

#include "models/kube/gojson.h"

#include <string>
#include <vector>

namespace server {

// One served resource, as discovery and the OpenAPI documents describe it.
struct ServedResource
{
    struct Subresource
    {
        std::string name; // "status", "eviction"
        std::string group, version, kind;
        std::vector<std::string> verbs;
    };
    std::string group, version, resource, singular, kind;
    bool namespaced = false;
    std::vector<std::string> verbs;
    std::vector<Subresource> subresources;
};

// The media type kubectl asks /openapi/v2 for, and the one the document is sent with.
inline constexpr const char *kOpenApiV2Protobuf =
    "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
inline constexpr const char *kOpenApiV2ProtobufResponse =
    "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

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
    // Every served resource, the review kinds included, group by group in discovery's order.
    static const std::vector<ServedResource> &servedResources();

    // GET /openapi/v2: the Swagger 2.0 document (OpenApi::v2Json: every path of every served
    // resource and a definition for every type), as JSON or, when `accept` asks for
    // kOpenApiV2Protobuf, in its protobuf encoding (gnostic's openapi.v2.Document, openapiv2.h).
    // Both are built once and shared by every request.
    struct OpenApiDocument
    {
        const std::string &body; // the cached document
        std::string contentType;
    };
    static OpenApiDocument openApiV2(const std::string &accept);
};

} // namespace server
