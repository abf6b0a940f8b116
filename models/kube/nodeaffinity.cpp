#include "models/kube/nodeaffinity.h"

#include "models/kube/jsonfield.h"

#include <algorithm>
#include <cstdlib>

namespace kube {

namespace {

bool matchRequirement(const Json &req, const std::string &value, bool present)
{
    const std::string op = stringOr(req, "operator");
    std::vector<std::string> values;
    if (auto v = req.find("values"); v != req.end() && v->is_array())
        for (const auto &x : *v)
            if (x.is_string())
                values.push_back(x.get<std::string>());
    const bool in = present && std::find(values.begin(), values.end(), value) != values.end();
    if (op == "In")
        return in;
    if (op == "NotIn")
        return !in;
    if (op == "Exists")
        return present;
    if (op == "DoesNotExist")
        return !present;
    if ((op == "Gt" || op == "Lt") && present && values.size() == 1) {
        char *end = nullptr;
        const long long a = std::strtoll(value.c_str(), &end, 10);
        if (*end)
            return false;
        const long long b = std::strtoll(values[0].c_str(), &end, 10);
        if (*end)
            return false;
        return op == "Gt" ? a > b : a < b;
    }
    return false;
}

bool termMatches(const Json &term, const Node &node)
{
    if (!term.is_object())
        return false;
    bool any = false;
    if (auto me = term.find("matchExpressions"); me != term.end() && me->is_array()) {
        for (const auto &req : *me) {
            any = true;
            const std::string key = stringOr(req, "key");
            auto it = node.metadata.labels.find(key);
            const bool present = it != node.metadata.labels.end();
            if (!matchRequirement(req, present ? it->second : std::string(), present))
                return false;
        }
    }
    if (auto mf = term.find("matchFields"); mf != term.end() && mf->is_array()) {
        for (const auto &req : *mf) {
            any = true;
            if (stringOr(req, "key") != "metadata.name")
                return false;
            if (!matchRequirement(req, node.metadata.name, true))
                return false;
        }
    }
    return any; // an empty term matches nothing
}

} // namespace

bool nodeSelectorMatches(const Json &podSpec, const Node &node)
{
    auto ns = podSpec.find("nodeSelector");
    if (ns == podSpec.end() || !ns->is_object())
        return true;
    for (auto it = ns->begin(); it != ns->end(); ++it) {
        auto l = node.metadata.labels.find(it.key());
        if (l == node.metadata.labels.end() || !it.value().is_string() ||
            l->second != it.value().get<std::string>())
            return false;
    }
    return true;
}

bool requiredAffinityMatches(const Json &podSpec, const Node &node)
{
    auto aff = podSpec.find("affinity");
    if (aff == podSpec.end() || !aff->is_object())
        return true;
    auto na = aff->find("nodeAffinity");
    if (na == aff->end() || !na->is_object())
        return true;
    auto req = na->find("requiredDuringSchedulingIgnoredDuringExecution");
    if (req == na->end() || !req->is_object())
        return true;
    auto terms = req->find("nodeSelectorTerms");
    if (terms == req->end() || !terms->is_array())
        return true;
    for (const auto &t : *terms) // terms are ORed
        if (termMatches(t, node))
            return true;
    return false;
}

std::uint32_t fnv1a32(const std::string &bytes, std::uint32_t h)
{
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h)
{
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

std::string safeEncodeString(const std::string &s)
{
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s)
        out += alphabet[c % 27];
    return out;
}

std::string computeHash(const std::string &canonicalTemplate, std::optional<int> collisionCount)
{
    std::uint32_t h = fnv1a32(canonicalTemplate);
    if (collisionCount) {
        const auto v = static_cast<std::uint32_t>(*collisionCount);
        std::string extra(8, '\0');
        for (int i = 0; i < 4; ++i)
            extra[static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
        h = fnv1a32(extra, h);
    }
    return safeEncodeString(std::to_string(h));
}

} // namespace kube
