#pragma once
// ResourcePath — what a request path of the Kubernetes REST API names: a discovery document, a
// collection (namespaced, all namespaces or cluster-scoped) or one object with an optional
// subresource. Only the group-versions the server serves resolve to a kind (core v1, apps/v1,
// upgrade.daemonscope.io/v1alpha1); anything else is NotFound, so the server answers "the
// server could not find the requested resource" like kube-apiserver does.

#include "models/api/kind.h"

#include <optional>
#include <string>
#include <vector>

namespace server {

struct ResourcePath
{
    enum class Type {
        NotFound,
        Version,      // /version
        Health,       // /healthz, /livez, /readyz
        OpenApiV2,    // /openapi/v2
        OpenApiV3,    // /openapi/v3 (the index) and /openapi/v3/apis/apps/v1 (one group-version: name)
        CoreVersions, // /api
        Groups,       // /apis
        Group,        // /apis/apps
        ResourceList, // /api/v1, /apis/apps/v1
        Collection,   // .../pods, .../namespaces/NS/pods
        Object        // .../namespaces/NS/pods/NAME[/SUB], .../nodes/NAME[/SUB]
    };

    Type type = Type::NotFound;
    std::string group;   // "" for core, "apps", "upgrade.daemonscope.io"
    std::string version; // "v1", "v1alpha1"
    std::optional<api::Kind> kind;
    std::string ns; // empty: all namespaces, or a cluster-scoped kind
    std::string name;
    std::string subresource; // "status" or empty
    // OpenApiV3: the group-version's path in the index ("api/v1", "apis/apps/v1"); empty for the
    // index itself.
    std::string openApiPath;

    static ResourcePath parse(const std::string &path);
    // The served group and version of a kind: "" / "apps" / "upgrade.daemonscope.io", and
    // "v1" / "v1alpha1".
    static std::string groupOf(api::Kind kind);
    static std::string versionOf(api::Kind kind);
    // The named groups (under /apis), in the order discovery lists them, and their version.
    static const std::vector<std::string> &groups();
    static std::string versionOfGroup(const std::string &group); // empty: not served
    // Every kind the server serves: the built-in kinds and the NodeUpgradeRollout custom kind.
    static const std::vector<api::Kind> &servedKinds();
};

} // namespace server
