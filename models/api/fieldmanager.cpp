#include "models/api/fieldmanager.h"

#include "models/kube/apischema.h"
#include "models/kube/jsonfield.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace api {

namespace {

using kube::Json;
using kube::schema::Field;
using kube::schema::Scalar;
using kube::schema::Struct;
using kube::schema::TypeRef;

// A field path as FieldsV1 spells its elements: "f:spec", "k:{\"name\":\"c\"}", "v:\"x\"".
using Path = std::vector<std::string>;
using PathSet = std::set<Path>;

struct ListShape
{
    enum class Kind { Atomic, Map, Set } kind = Kind::Atomic;
    std::vector<std::string> keys;
};

// How a list merges: its x-kubernetes-list-type, or for a list marked only for strategic merge,
// associative by its merge key (a set without one), as structured-merge-diff reads such
// schemas.
ListShape listShape(const Field *f)
{
    ListShape s;
    if (!f)
        return s;
    if (f->listType == "map" && !f->listMapKeys.empty()) {
        s.kind = ListShape::Kind::Map;
        s.keys = f->listMapKeys;
    } else if (f->listType == "set") {
        s.kind = ListShape::Kind::Set;
    } else if (f->listType.empty() && f->patchStrategy.find("merge") != std::string::npos) {
        if (f->patchMergeKey.empty()) {
            s.kind = ListShape::Kind::Set;
        } else {
            s.kind = ListShape::Kind::Map;
            s.keys = {f->patchMergeKey};
        }
    }
    return s;
}

std::string elementKey(const Json &element, const std::vector<std::string> &keys)
{
    Json k = Json::object();
    if (element.is_object())
        for (const auto &key : keys)
            if (const auto it = element.find(key); it != element.end())
                k[key] = *it;
    return "k:" + kube::goJson(k);
}

// A list-map key field with a default value (the OpenAPI `default` of the field): an element
// that leaves it out is keyed by the default, as structured-merge-diff keys it.
const char *keyDefault(const std::string &key)
{
    return key == "protocol" ? "TCP" : nullptr;
}

// structured-merge-diff's checks of an applied configuration before it is merged: every element
// of an associative list names its keys (or they have defaults) and no two share a key; a set
// holds each value once. The first problem, as fieldpath prints it.
std::optional<std::string> listProblem(const Json &v, const TypeRef &t, const Field *f, const std::string &at)
{
    switch (t.form) {
    case TypeRef::Form::Scalar:
        return std::nullopt;
    case TypeRef::Form::Struct:
        if (!v.is_object() || t.type->atomic)
            return std::nullopt;
        for (auto it = v.begin(); it != v.end(); ++it)
            if (const Field *member = t.type->field(it.key()))
                if (auto p = listProblem(*it, member->type, member, at + "." + it.key()))
                    return p;
        return std::nullopt;
    case TypeRef::Form::Map:
        if (!v.is_object() || (f && f->mapType == "atomic"))
            return std::nullopt;
        for (auto it = v.begin(); it != v.end(); ++it)
            if (auto p = listProblem(*it, *t.element, nullptr, at + "." + it.key()))
                return p;
        return std::nullopt;
    case TypeRef::Form::List: {
        const ListShape shape = listShape(f);
        if (!v.is_array() || shape.kind == ListShape::Kind::Atomic)
            return std::nullopt;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const Json &e = v[i];
            std::string key;
            std::string named;
            if (shape.kind == ListShape::Kind::Set) {
                key = kube::goJson(e);
                if (!seen.insert(key).second)
                    return at + ": duplicate entries for key " + key;
                continue;
            }
            if (!e.is_object())
                continue; // not an element at all: the object's validation names it
            Json k = Json::object();
            for (const auto &name : shape.keys) {
                if (const auto it = e.find(name); it != e.end() && !it->is_null())
                    k[name] = *it;
                else if (const char *def = keyDefault(name))
                    k[name] = def;
                else
                    return at + ": element " + std::to_string(i) +
                           ": associative list with keys has an element that omits key field " +
                           kube::goQuote(name) + " (and doesn't have default value)";
            }
            for (auto it = k.begin(); it != k.end(); ++it)
                named += std::string(named.empty() ? "" : ",") + it.key() + "=" + kube::goJson(*it);
            named = "[" + named + "]";
            if (!seen.insert(kube::goJson(k)).second)
                return at + ": duplicate entries for key " + named;
            if (auto p = listProblem(e, *t.element, nullptr, at + named))
                return p;
        }
        return std::nullopt;
    }
    }
    return std::nullopt;
}

struct Walker
{
    PathSet &out;
    Path path;
    PathSet *maps = nullptr; // the paths of the (granular) maps with entries

    void value(const Json &v, const TypeRef &t, const Field *f)
    {
        switch (t.form) {
        case TypeRef::Form::Scalar:
            out.insert(path);
            return;
        case TypeRef::Form::Struct:
            if (!v.is_object() || t.type->atomic || v.empty()) {
                out.insert(path);
                return;
            }
            for (auto it = v.begin(); it != v.end(); ++it) {
                path.push_back("f:" + it.key());
                if (const Field *member = t.type->field(it.key()))
                    value(*it, member->type, member);
                else
                    out.insert(path);
                path.pop_back();
            }
            return;
        case TypeRef::Form::Map:
            if (!v.is_object() || (f && f->mapType == "atomic") || v.empty()) {
                out.insert(path);
                return;
            }
            if (maps)
                maps->insert(path);
            for (auto it = v.begin(); it != v.end(); ++it) {
                path.push_back("f:" + it.key());
                value(*it, *t.element, nullptr);
                path.pop_back();
            }
            return;
        case TypeRef::Form::List: {
            const ListShape shape = listShape(f);
            if (!v.is_array() || shape.kind == ListShape::Kind::Atomic || v.empty()) {
                out.insert(path);
                return;
            }
            for (const auto &e : v) {
                if (shape.kind == ListShape::Kind::Set) {
                    path.push_back("v:" + kube::goJson(e));
                    out.insert(path);
                } else {
                    path.push_back(elementKey(e, shape.keys));
                    out.insert(path); // the element itself ("." in FieldsV1)
                    value(e, *t.element, nullptr);
                }
                path.pop_back();
            }
            return;
        }
        }
    }
};

// The fields a manager can own: not the type, the identity or the server's metadata, and only
// the status (for the status subresource) or all but the status (for the object).
bool owned(const Path &p, bool statusSubresource)
{
    static const std::set<std::string> serverMeta = {"f:name",
                                                     "f:namespace",
                                                     "f:creationTimestamp",
                                                     "f:selfLink",
                                                     "f:uid",
                                                     "f:clusterName",
                                                     "f:generation",
                                                     "f:managedFields",
                                                     "f:resourceVersion",
                                                     "f:deletionTimestamp",
                                                     "f:deletionGracePeriodSeconds"};
    if (p.empty() || p[0] == "f:apiVersion" || p[0] == "f:kind")
        return false;
    if (p[0] == "f:metadata")
        return p.size() > 1 && !serverMeta.count(p[1]) && !statusSubresource;
    return statusSubresource == (p[0] == "f:status");
}

PathSet fieldsOf(const Json &object, const Struct *type, bool statusSubresource, PathSet *maps = nullptr)
{
    PathSet all;
    if (!object.is_object())
        return all;
    Walker w{all, {}, maps};
    if (type) {
        w.value(object, kube::schema::refTo(*type), nullptr);
    } else {
        for (auto it = object.begin(); it != object.end(); ++it)
            all.insert({"f:" + it.key()});
    }
    PathSet out;
    for (const auto &p : all)
        if (owned(p, statusSubresource))
            out.insert(p);
    if (maps)
        for (auto it = maps->begin(); it != maps->end();)
            it = owned(*it, statusSubresource) ? std::next(it) : maps->erase(it);
    return out;
}

// ---- FieldsV1 ------------------------------------------------------------------------------

void readTrie(const Json &node, Path &path, PathSet &out)
{
    if (!node.is_object())
        return;
    if (node.empty() && !path.empty())
        out.insert(path);
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (it.key() == ".") {
            out.insert(path);
            continue;
        }
        path.push_back(it.key());
        readTrie(*it, path, out);
        path.pop_back();
    }
}

Json writeTrie(const PathSet &set)
{
    Json root = Json::object();
    for (const auto &p : set) {
        Json *node = &root;
        for (const auto &e : p) {
            Json &next = (*node)[e];
            if (next.is_null())
                next = Json::object();
            node = &next;
        }
    }
    for (const auto &p : set) {
        Json *node = &root;
        for (const auto &e : p)
            node = &(*node)[e];
        if (!node->empty() && !node->contains("."))
            (*node)["."] = Json::object();
    }
    return root;
}

// ---- managedFields -------------------------------------------------------------------------

struct Entry
{
    std::string manager, operation, apiVersion, subresource, time;
    PathSet fields;

    bool sameManager(const Entry &o) const
    {
        return manager == o.manager && operation == o.operation && subresource == o.subresource &&
               (operation == "Apply" || apiVersion == o.apiVersion);
    }
};

std::vector<Entry> readEntries(const Json &object)
{
    std::vector<Entry> out;
    const Json *meta = kube::member(object, "metadata");
    const Json *mf = meta ? kube::member(*meta, "managedFields") : nullptr;
    if (!mf || !mf->is_array())
        return out;
    for (const auto &e : *mf) {
        if (!e.is_object())
            continue;
        Entry entry{kube::stringOr(e, "manager"),    kube::stringOr(e, "operation"),
                    kube::stringOr(e, "apiVersion"), kube::stringOr(e, "subresource"),
                    kube::stringOr(e, "time"),       {}};
        Path path;
        if (const Json *f = kube::member(e, "fieldsV1"))
            readTrie(*f, path, entry.fields);
        out.push_back(std::move(entry));
    }
    return out;
}

bool hasManagedFields(const Json &object)
{
    const Json *meta = kube::member(object, "metadata");
    return meta && kube::member(*meta, "managedFields") && (*meta)["managedFields"].is_array();
}

Json writeEntries(std::vector<Entry> entries)
{
    entries.erase(
        std::remove_if(entries.begin(), entries.end(), [](const Entry &e) { return e.fields.empty(); }),
        entries.end());
    // Appliers first, then by time, then by name (kube-apiserver's order).
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        if ((a.operation == "Apply") != (b.operation == "Apply"))
            return a.operation == "Apply";
        if (a.time != b.time)
            return a.time < b.time;
        return a.manager < b.manager;
    });
    Json out = Json::array();
    for (const auto &e : entries) {
        Json j = {{"manager", e.manager}, {"operation", e.operation}, {"apiVersion", e.apiVersion},
                  {"time", e.time},       {"fieldsType", "FieldsV1"}, {"fieldsV1", writeTrie(e.fields)}};
        if (!e.subresource.empty())
            j["subresource"] = e.subresource;
        out.push_back(std::move(j));
    }
    return out;
}

Entry &entryFor(std::vector<Entry> &entries, const Entry &who)
{
    for (auto &e : entries)
        if (e.sameManager(who))
            return e;
    entries.push_back(who);
    return entries.back();
}

// ---- values at paths -----------------------------------------------------------------------

const Json *child(const Json &v, const std::string &element)
{
    if (element.size() < 2 || element[1] != ':')
        return nullptr; // not a FieldsV1 path element (a managedFields entry a client made up)
    const std::string rest = element.substr(2);
    if (element.rfind("f:", 0) == 0)
        return v.is_object() ? kube::member(v, rest.c_str()) : nullptr;
    if (!v.is_array())
        return nullptr;
    if (element.rfind("v:", 0) == 0) {
        for (const auto &e : v)
            if (kube::goJson(e) == rest)
                return &e;
        return nullptr;
    }
    if (element.rfind("k:", 0) == 0) {
        const Json key = Json::parse(rest, nullptr, false);
        if (!key.is_object())
            return nullptr;
        for (const auto &e : v) {
            bool match = e.is_object();
            for (auto it = key.begin(); match && it != key.end(); ++it)
                match = e.contains(it.key()) && e[it.key()] == *it;
            if (match)
                return &e;
        }
    }
    return nullptr;
}

const Json *valueAt(const Json &object, const Path &p)
{
    const Json *v = &object;
    for (const auto &e : p) {
        v = child(*v, e);
        if (!v)
            return nullptr;
    }
    return v;
}

// A list element's path names the element by its key or value: two objects agree on it when
// both have it, whatever its fields hold (those are paths of their own).
bool sameAt(const Json *a, const Json &objectA, const Json &objectB, const Path &p)
{
    const Json *va = a ? valueAt(objectA, p) : nullptr;
    const Json *vb = valueAt(objectB, p);
    if (!va || !vb)
        return va == vb;
    const std::string &last = p.back();
    if (last.rfind("k:", 0) == 0 || last.rfind("v:", 0) == 0)
        return true;
    return *va == *vb;
}

bool isPrefix(const Path &prefix, const Path &p)
{
    return prefix.size() <= p.size() && std::equal(prefix.begin(), prefix.end(), p.begin());
}

// Removes the value at `p`, if there is one.
void erase(Json &object, const Path &p)
{
    if (p.empty())
        return;
    Json *parent = &object;
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
        const Json *c = child(*parent, p[i]);
        if (!c)
            return;
        parent = const_cast<Json *>(c);
    }
    const std::string &last = p.back();
    if (last.rfind("f:", 0) == 0) {
        if (parent->is_object())
            parent->erase(last.substr(2));
        return;
    }
    if (const Json *target = child(*parent, last)) {
        for (auto it = parent->begin(); it != parent->end(); ++it)
            if (&*it == target) {
                parent->erase(it);
                return;
            }
    }
}

// structured-merge-diff's apply merge of a configuration into the live value.
void merge(Json &dst, const Json &src, const TypeRef &t, const Field *f)
{
    switch (t.form) {
    case TypeRef::Form::Struct:
        if (!src.is_object() || t.type->atomic) {
            dst = src;
            return;
        }
        if (!dst.is_object())
            dst = Json::object();
        for (auto it = src.begin(); it != src.end(); ++it) {
            if (it->is_null()) {
                dst.erase(it.key());
                continue;
            }
            if (const Field *member = t.type->field(it.key()))
                merge(dst[it.key()], *it, member->type, member);
            else
                dst[it.key()] = *it;
        }
        return;
    case TypeRef::Form::Map:
        if (!src.is_object() || (f && f->mapType == "atomic")) {
            dst = src;
            return;
        }
        if (!dst.is_object())
            dst = Json::object();
        for (auto it = src.begin(); it != src.end(); ++it)
            merge(dst[it.key()], *it, *t.element, nullptr);
        return;
    case TypeRef::Form::List: {
        const ListShape shape = listShape(f);
        if (!src.is_array() || shape.kind == ListShape::Kind::Atomic || !dst.is_array()) {
            dst = src;
            return;
        }
        for (const auto &e : src) {
            const std::string key =
                shape.kind == ListShape::Kind::Set ? "v:" + kube::goJson(e) : elementKey(e, shape.keys);
            if (const Json *existing = child(dst, key)) {
                if (shape.kind == ListShape::Kind::Map)
                    merge(*const_cast<Json *>(existing), e, *t.element, nullptr);
            } else {
                dst.push_back(e);
            }
        }
        return;
    }
    case TypeRef::Form::Scalar:
        dst = src;
        return;
    }
}

// "apps/v1, Kind=DaemonSet" ("/v1, Kind=Pod" for the core group), as schema.GroupVersionKind prints.
std::string typedName(const Json &object)
{
    const std::string version = kube::stringOr(object, "apiVersion", "");
    return (version.find('/') == std::string::npos ? "/" + version : version) +
           ", Kind=" + kube::stringOr(object, "kind", "");
}

// ".spec.template.spec.containers[name=\"c\"].image", as fieldpath.Path prints.
std::string pathText(const Path &p)
{
    std::string out;
    for (const auto &e : p) {
        const std::string rest = e.size() < 2 ? std::string() : e.substr(2);
        if (e.rfind("f:", 0) == 0) {
            out += "." + rest;
        } else if (e.rfind("v:", 0) == 0) {
            out += "[=" + rest + "]";
        } else if (e.rfind("k:", 0) == 0) {
            const Json key = Json::parse(rest, nullptr, false);
            std::string fields;
            if (key.is_object())
                for (auto it = key.begin(); it != key.end(); ++it)
                    fields += (fields.empty() ? "" : ",") + it.key() + "=" + kube::goJson(*it);
            out += "[" + fields + "]";
        }
    }
    return out;
}

std::string managerText(const Entry &e)
{
    std::string text = kube::goQuote(e.manager);
    if (!e.subresource.empty())
        text += " with subresource " + kube::goQuote(e.subresource);
    if (e.operation == "Update")
        text += " using " + e.apiVersion;
    return text;
}

kube::ApiStatus conflictError(const std::vector<std::pair<const Entry *, Path>> &conflicts)
{
    kube::ApiStatus st{409, "Conflict", ""};
    for (const auto &[e, p] : conflicts)
        st.causes.push_back({"FieldManagerConflict", "conflict with " + managerText(*e), pathText(p)});
    if (conflicts.size() == 1) {
        st.message = "Apply failed with 1 conflict: conflict with " + managerText(*conflicts[0].first) +
                     ": " + pathText(conflicts[0].second);
        return st;
    }
    std::map<std::string, std::vector<std::string>> byManager;
    for (const auto &[e, p] : conflicts)
        byManager[managerText(*e)].push_back(pathText(p));
    std::string lines;
    for (const auto &[manager, paths] : byManager) {
        lines += (lines.empty() ? "" : "\n") + std::string("conflicts with ") + manager + ":";
        for (const auto &p : paths)
            lines += "\n- " + p;
    }
    st.message = "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: " + lines;
    return st;
}

void setManaged(Json &object, Json managed)
{
    if (!object.contains("metadata") || !object["metadata"].is_object())
        object["metadata"] = Json::object();
    if (managed.empty())
        object["metadata"].erase("managedFields");
    else
        object["metadata"]["managedFields"] = std::move(managed);
}

} // namespace

Json FieldManager::update(const Json *live, const Json &updated, const FieldManagerContext &ctx)
{
    const bool statusSub = ctx.subresource == "status";
    const Struct *type = kube::schema::structForObject(updated);
    const PathSet before = live ? fieldsOf(*live, type, statusSub) : PathSet();
    PathSet maps;
    const PathSet after = fieldsOf(updated, type, statusSub, &maps);
    std::vector<Entry> entries = hasManagedFields(updated) ? readEntries(updated)
                                 : live                    ? readEntries(*live)
                                                           : std::vector<Entry>();
    PathSet changed;
    for (const auto &p : after)
        if (!before.count(p) || !sameAt(live, live ? *live : updated, updated, p))
            changed.insert(p);
    // A map the update creates is the updater's too ("." in FieldsV1), as structured-merge-diff's
    // comparison reports it.
    for (const auto &p : maps)
        if (!live || !valueAt(*live, p))
            changed.insert(p);
    PathSet removed;
    for (const auto &p : before)
        if (!after.count(p))
            removed.insert(p);
    const Entry self{ctx.manager, "Update", ctx.apiVersion, ctx.subresource, ctx.time, {}};
    for (auto &e : entries) {
        if (e.sameManager(self))
            continue;
        for (auto it = e.fields.begin(); it != e.fields.end();) {
            bool gone = changed.count(*it) > 0;
            for (const auto &r : removed)
                gone = gone || isPrefix(r, *it);
            it = gone ? e.fields.erase(it) : std::next(it);
        }
    }
    if (!changed.empty() || !removed.empty()) {
        Entry &mine = entryFor(entries, self);
        mine.time = ctx.time;
        mine.apiVersion = ctx.apiVersion;
        for (const auto &p : changed)
            mine.fields.insert(p);
        for (auto it = mine.fields.begin(); it != mine.fields.end();) {
            bool gone = false;
            for (const auto &r : removed)
                gone = gone || isPrefix(r, *it);
            it = gone ? mine.fields.erase(it) : std::next(it);
        }
    }
    // Nobody owns what the object no longer has.
    for (auto &e : entries)
        for (auto it = e.fields.begin(); it != e.fields.end();)
            it = valueAt(updated, *it) ? std::next(it) : e.fields.erase(it);
    return writeEntries(std::move(entries));
}

kube::Result<Json> FieldManager::apply(const Json *live, const Json &config, const FieldManagerContext &ctx,
                                       bool force)
{
    const bool statusSub = ctx.subresource == "status";
    const Struct *type = kube::schema::structForObject(config);
    Json cfg = config;
    // The object's apply ignores the status and the status subresource's everything else.
    if (cfg.is_object()) {
        if (statusSub) {
            for (auto it = cfg.begin(); it != cfg.end();)
                it = (it.key() == "status" || it.key() == "apiVersion" || it.key() == "kind" ||
                      it.key() == "metadata")
                         ? std::next(it)
                         : cfg.erase(it);
        } else {
            cfg.erase("status");
        }
        if (cfg.contains("metadata") && cfg["metadata"].is_object())
            cfg["metadata"].erase("managedFields");
    }
    if (type)
        if (auto problem = listProblem(cfg, kube::schema::refTo(*type), nullptr, ""))
            return kube::ApiStatus::internal("failed to create typed patch object (" + typedName(cfg) +
                                             "): " + *problem);
    const PathSet applied = fieldsOf(cfg, type, statusSub);
    std::vector<Entry> entries = live ? readEntries(*live) : std::vector<Entry>();
    const Entry self{ctx.manager, "Apply", ctx.apiVersion, ctx.subresource, ctx.time, {}};

    std::vector<std::pair<const Entry *, Path>> conflicts;
    if (live)
        for (const auto &e : entries) {
            if (e.sameManager(self))
                continue;
            for (const auto &p : applied)
                if (e.fields.count(p) && !sameAt(live, *live, cfg, p))
                    conflicts.push_back({&e, p});
        }
    if (!conflicts.empty() && !force)
        return conflictError(conflicts);
    std::set<std::pair<const Entry *, Path>> taken(conflicts.begin(), conflicts.end());
    for (auto &e : entries)
        for (auto it = e.fields.begin(); it != e.fields.end();)
            it = taken.count({&e, *it}) ? e.fields.erase(it) : std::next(it);

    Json merged = live ? *live : Json::object();
    if (live) {
        // What this manager applied before and no longer applies goes, unless another manager
        // owns it or something below it.
        PathSet previous;
        for (const auto &e : entries)
            if (e.sameManager(self))
                previous = e.fields;
        std::vector<Path> drop;
        for (const auto &p : previous) {
            if (applied.count(p))
                continue;
            bool kept = false;
            for (const auto &e : entries) {
                if (e.sameManager(self))
                    continue;
                for (const auto &q : e.fields)
                    kept = kept || isPrefix(p, q);
            }
            if (!kept)
                drop.push_back(p);
        }
        for (auto it = drop.rbegin(); it != drop.rend(); ++it)
            erase(merged, *it);
    }
    if (type)
        merge(merged, cfg, kube::schema::refTo(*type), nullptr);
    else
        merged.update(cfg);
    const bool known =
        std::any_of(entries.begin(), entries.end(), [&](const Entry &e) { return e.sameManager(self); });
    Entry &mine = entryFor(entries, self);
    // A re-apply that changes nothing keeps the entry as it was, so the object is not written.
    bool unchanged = known && live && mine.fields == applied && conflicts.empty();
    if (unchanged) {
        Json before = *live, after = merged;
        before["metadata"].erase("managedFields");
        after["metadata"].erase("managedFields");
        unchanged = before == after;
    }
    mine.fields = applied;
    if (!unchanged) {
        mine.time = ctx.time;
        mine.apiVersion = ctx.apiVersion;
    }
    setManaged(merged, writeEntries(std::move(entries)));
    return merged;
}

} // namespace api
