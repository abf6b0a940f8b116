#include "models/server/resourcepath.h"

#include "models/server/reviews.h"

#include <vector>

namespace server {

namespace {

std::vector<std::string> segments(const std::string &path)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : path) {
        if (c == '/') {
            if (!cur.empty())
                out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

std::optional<api::Kind> kindOfResource(const std::string &group, const std::string &resource)
{
    for (api::Kind k : ResourcePath::servedKinds())
        if (resource == api::resourceName(k) && ResourcePath::groupOf(k) == group)
            return k;
    return std::nullopt;
}

} // namespace

std::string ResourcePath::groupOf(api::Kind kind)
{
    return api::apiGroup(kind);
}

std::string ResourcePath::versionOf(api::Kind kind)
{
    const std::string apiVersion = api::apiVersion(kind);
    const auto slash = apiVersion.find('/');
    return slash == std::string::npos ? apiVersion : apiVersion.substr(slash + 1);
}

const std::vector<std::string> &ResourcePath::groups()
{
    static const std::vector<std::string> g = {
        "apps",   "authentication.k8s.io", "authorization.k8s.io", "batch", "coordination.k8s.io",
        "policy", "upgrade.daemonscope.io"};
    return g;
}

std::string ResourcePath::versionOfGroup(const std::string &group)
{
    for (api::Kind k : servedKinds())
        if (groupOf(k) == group)
            return versionOf(k);
    for (const auto &r : Reviews::resources())
        if (group == r.group)
            return r.version;
    return {};
}

const std::vector<api::Kind> &ResourcePath::servedKinds()
{
    static const std::vector<api::Kind> kinds = [] {
        std::vector<api::Kind> k(std::begin(api::kAllKinds), std::end(api::kAllKinds));
        k.push_back(api::Kind::NodeUpgradeRollout);
        return k;
    }();
    return kinds;
}

ResourcePath ResourcePath::parse(const std::string &path)
{
    const auto s = segments(path);
    ResourcePath p;
    if (s.size() == 1 && s[0] == "version") {
        p.type = Type::Version;
        return p;
    }
    if (s.size() == 2 && s[0] == "openapi" && s[1] == "v2") {
        p.type = Type::OpenApiV2;
        return p;
    }
    if (s.size() >= 2 && s[0] == "openapi" && s[1] == "v3") {
        p.type = Type::OpenApiV3;
        for (std::size_t k = 2; k < s.size(); ++k)
            p.openApiPath += (k > 2 ? "/" : "") + s[k];
        return p;
    }
    if (s.size() == 1 && (s[0] == "healthz" || s[0] == "livez" || s[0] == "readyz")) {
        p.type = Type::Health;
        return p;
    }
    if (s.empty())
        return p;
    std::size_t i = 0;
    if (s[0] == "api") {
        if (s.size() == 1) {
            p.type = Type::CoreVersions;
            return p;
        }
        if (s[1] != "v1")
            return p;
        p.version = "v1";
        i = 2;
    } else if (s[0] == "apis") {
        if (s.size() == 1) {
            p.type = Type::Groups;
            return p;
        }
        const std::string version = versionOfGroup(s[1]);
        if (s[1].empty() || version.empty())
            return p;
        p.group = s[1];
        if (s.size() == 2) {
            p.type = Type::Group;
            return p;
        }
        if (s[2] != version)
            return p;
        p.version = version;
        i = 3;
    } else {
        return p;
    }
    const std::vector<std::string> rest(s.begin() + static_cast<std::ptrdiff_t>(i), s.end());
    if (rest.empty()) {
        p.type = Type::ResourceList;
        return p;
    }
    // namespaces/NS/RESOURCE[/NAME[/SUB]] when the third segment is a namespaced resource of
    // this group; otherwise namespaces/NAME[/SUB] addresses the Namespace object itself.
    if (rest.size() >= 3 && rest[0] == "namespaces") {
        if (auto k = kindOfResource(p.group, rest[2]); k && api::isNamespaced(*k)) {
            if (rest.size() > 5)
                return p;
            p.kind = k;
            p.ns = rest[1];
            if (rest.size() == 3) {
                p.type = Type::Collection;
                return p;
            }
            p.name = rest[3];
            if (rest.size() == 5)
                p.subresource = rest[4];
            p.type = Type::Object;
            return p;
        }
    }
    auto k = kindOfResource(p.group, rest[0]);
    if (!k || rest.size() > 3)
        return p;
    p.kind = k;
    if (rest.size() == 1) {
        p.type = Type::Collection; // cluster-scoped, or every namespace
        return p;
    }
    if (api::isNamespaced(*k))
        return p; // pods/NAME without a namespace is not a path
    p.name = rest[1];
    if (rest.size() == 3)
        p.subresource = rest[2];
    p.type = Type::Object;
    return p;
}

} // namespace server
