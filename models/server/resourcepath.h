#pragma once
// ResourcePath — what a request path of the Kubernetes REST API names: a discovery document, a
// collection (namespaced, all namespaces or cluster-scoped) or one object with an optional
// subresource. Only the group-versions the server serves resolve to a kind (core v1, apps/v1);
// anything else is NotFound, so the server answers "the server could not find the requested
// resource" like kube-apiserver does.

#include "models/engine/kind.h"

#include <optional>
#include <string>

namespace server {

struct ResourcePath
{
    enum class Type {
        NotFound,
        Version,      // /version
        Health,       // /healthz, /livez, /readyz
        CoreVersions, // /api
        Groups,       // /apis
        Group,        // /apis/apps
        ResourceList, // /api/v1, /apis/apps/v1
        Collection,   // .../pods, .../namespaces/NS/pods
        Object        // .../namespaces/NS/pods/NAME[/SUB], .../nodes/NAME[/SUB]
    };

    Type type = Type::NotFound;
    std::string group;   // "" for core, "apps"
    std::string version; // "v1"
    std::optional<engine::Kind> kind;
    std::string ns; // empty: all namespaces, or a cluster-scoped kind
    std::string name;
    std::string subresource; // "status" or empty

    static ResourcePath parse(const std::string &path);
    // The served group-version of a kind: "" / "apps".
    static std::string groupOf(engine::Kind kind);
};

} // namespace server
