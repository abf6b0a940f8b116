#include "models/api/strategicmerge.h"

#include "models/diff/jsonpatch.h"
#include "models/kube/jsonfield.h"

#include <algorithm>
#include <cstring>

namespace api {

using kube::ApiStatus;
using kube::Json;

const char *strategicMergeKey(const std::string &field)
{
    static const std::pair<const char *, const char *> keys[] = {
        {"containers", "name"},
        {"initContainers", "name"},
        {"ephemeralContainers", "name"},
        {"env", "name"},
        {"volumes", "name"},
        {"imagePullSecrets", "name"},
        {"resourceClaims", "name"},
        {"volumeMounts", "mountPath"},
        {"volumeDevices", "devicePath"},
        {"ports", "containerPort"},
        {"hostAliases", "ip"},
        {"ownerReferences", "uid"},
        {"topologySpreadConstraints", "topologyKey"},
        {"conditions", "type"},
    };
    for (const auto &[f, k] : keys)
        if (field == f)
            return k;
    return "";
}

namespace {

bool isPrimitiveSetList(const std::string &field)
{
    return field == "finalizers";
}

bool startsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

struct Merger
{
    std::string error;

    // The patch value with directives removed and nulls dropped, as it lands where nothing was.
    Json fresh(const Json &patch, const std::string &field)
    {
        if (patch.is_object()) {
            Json out = mergeMap(Json::object(), patch);
            return out;
        }
        if (patch.is_array())
            return mergeList(Json::array(), patch, field);
        return patch;
    }

    Json mergeMap(const Json &original, const Json &patch)
    {
        if (!patch.is_object())
            return patch;
        Json result = original.is_object() ? original : Json::object();
        if (auto it = patch.find("$patch"); it != patch.end()) {
            const std::string d = it->is_string() ? it->get<std::string>() : "";
            if (d == "replace") {
                Json rest = patch;
                rest.erase("$patch");
                return mergeMap(Json::object(), rest);
            }
            if (d == "delete")
                return Json(); // caller removes the key
            if (d != "merge") {
                error = "Unrecognized $patch directive: " + d;
                return result;
            }
        }
        for (auto it = patch.begin(); it != patch.end(); ++it) {
            const std::string &k = it.key();
            const Json &v = it.value();
            if (k == "$patch" || k == "$retainKeys" || startsWith(k, "$setElementOrder/"))
                continue;
            if (startsWith(k, "$deleteFromPrimitiveList/")) {
                const std::string field = k.substr(std::strlen("$deleteFromPrimitiveList/"));
                if (result.contains(field) && result[field].is_array() && v.is_array()) {
                    Json kept = Json::array();
                    for (const auto &e : result[field])
                        if (std::find(v.begin(), v.end(), e) == v.end())
                            kept.push_back(e);
                    result[field] = std::move(kept);
                }
                continue;
            }
            if (v.is_null()) {
                result.erase(k);
                continue;
            }
            auto cur = result.find(k);
            if (v.is_object()) {
                if (auto d = v.find("$patch"); d != v.end() && *d == "delete") {
                    result.erase(k);
                    continue;
                }
                Json merged = mergeMap(cur != result.end() ? *cur : Json::object(), v);
                result[k] = std::move(merged);
            } else if (v.is_array()) {
                result[k] = mergeList(cur != result.end() && cur->is_array() ? *cur : Json::array(), v, k);
            } else {
                result[k] = v;
            }
        }
        // $setElementOrder: reorder merged lists as the patch lists them.
        for (auto it = patch.begin(); it != patch.end(); ++it) {
            if (!startsWith(it.key(), "$setElementOrder/") || !it.value().is_array())
                continue;
            const std::string field = it.key().substr(std::strlen("$setElementOrder/"));
            if (!result.contains(field) || !result[field].is_array())
                continue;
            const std::string mk = strategicMergeKey(field);
            Json ordered = Json::array();
            Json rest = result[field];
            std::vector<bool> used(rest.size(), false);
            for (const auto &o : it.value()) {
                for (std::size_t i = 0; i < rest.size(); ++i) {
                    if (used[i])
                        continue;
                    const bool same = mk.empty() ? rest[i] == o
                                                 : (o.is_object() && rest[i].is_object() && o.contains(mk) &&
                                                    rest[i].contains(mk) && o[mk] == rest[i][mk]);
                    if (same) {
                        used[i] = true;
                        ordered.push_back(rest[i]);
                        break;
                    }
                }
            }
            for (std::size_t i = 0; i < rest.size(); ++i)
                if (!used[i])
                    ordered.push_back(rest[i]);
            result[field] = std::move(ordered);
        }
        if (auto rk = patch.find("$retainKeys"); rk != patch.end() && rk->is_array()) {
            Json kept = Json::object();
            for (const auto &k : *rk)
                if (k.is_string() && result.contains(k.get<std::string>()))
                    kept[k.get<std::string>()] = result[k.get<std::string>()];
            result = std::move(kept);
        }
        return result;
    }

    Json mergeList(const Json &original, const Json &patch, const std::string &field)
    {
        const std::string mk = strategicMergeKey(field);
        // {"$patch":"replace"} as an element replaces the list with the other elements.
        bool replace = false;
        for (const auto &e : patch)
            if (e.is_object() && e.size() == 1 && kube::stringOr(e, "$patch") == "replace")
                replace = true;
        if (isPrimitiveSetList(field) && !replace) {
            Json out = original;
            for (const auto &e : patch)
                if (std::find(out.begin(), out.end(), e) == out.end())
                    out.push_back(e);
            return out;
        }
        const bool mergeable = !mk.empty() && std::all_of(patch.begin(), patch.end(), [&](const Json &e) {
            return e.is_object() && (e.contains(mk) || (e.size() == 1 && e.contains("$patch")));
        });
        if (!mergeable || replace) {
            Json out = Json::array();
            for (const auto &e : patch) {
                if (e.is_object() && e.size() == 1 && e.contains("$patch"))
                    continue;
                out.push_back(fresh(e, ""));
            }
            return out;
        }
        Json out = original;
        for (const auto &e : patch) {
            if (!e.contains(mk))
                continue;
            const Json &key = e[mk];
            const std::string directive = kube::stringOr(e, "$patch");
            if (directive == "delete") {
                Json kept = Json::array();
                for (const auto &o : out)
                    if (!(o.is_object() && o.contains(mk) && o[mk] == key))
                        kept.push_back(o);
                out = std::move(kept);
                continue;
            }
            bool found = false;
            for (auto &o : out) {
                if (o.is_object() && o.contains(mk) && o[mk] == key) {
                    o = mergeMap(o, e);
                    found = true;
                    break;
                }
            }
            if (!found)
                out.push_back(mergeMap(Json::object(), e));
        }
        return out;
    }
};

} // namespace

Json mergePatch(const Json &target, const Json &patch)
{
    Json result = target;
    result.merge_patch(patch);
    return result;
}

kube::Result<Json> jsonPatch(const Json &target, const Json &patch)
{
    if (!patch.is_array())
        return ApiStatus::badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    auto patched = diff::applyJsonPatch(target, patch);
    if (!patched)
        // kube-apiserver answers an operation that does not apply with 422 ("the server rejected
        // our request due to an error in our request").
        return ApiStatus{422, "Invalid",
                         "the server rejected our request due to an error in our request: " +
                             patched.error().message};
    return patched;
}

kube::Result<Json> strategicMergePatch(const Json &original, const Json &patch)
{
    if (!patch.is_object())
        return ApiStatus::badRequest("strategic merge patch: the patch must be a JSON object");
    Merger m;
    Json out = m.mergeMap(original, patch);
    if (!m.error.empty())
        return ApiStatus::badRequest(m.error);
    if (out.is_null())
        out = Json::object();
    return out;
}

kube::Result<kube::Json> patchDocument(const kube::Json &target, PatchType type, const kube::Json &patch)
{
    kube::Result<kube::Json> patched = kube::Json();
    switch (type) {
    case PatchType::Merge:
        if (!patch.is_object())
            return kube::ApiStatus::badRequest("merge patch: the patch must be a JSON object");
        patched = mergePatch(target, patch);
        break;
    case PatchType::Json:
        patched = jsonPatch(target, patch);
        break;
    case PatchType::Strategic:
        patched = strategicMergePatch(target, patch);
        break;
    }
    if (patched && !patched->is_object())
        return kube::ApiStatus::badRequest("the patched object is not a JSON object");
    return patched;
}

} // namespace api
