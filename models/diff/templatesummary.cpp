#include "models/diff/templatesummary.h"

#include "models/kube/defaults.h"

#include <algorithm>
#include <map>
#include <set>

namespace diff {
namespace {

using kube::Json;

const Json *field(const Json &object, const std::string &key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return nullptr;
    return &*it;
}

std::optional<Json> optionalOf(const Json *value)
{
    return value ? std::optional<Json>(*value) : std::nullopt;
}

std::string escapePointerToken(const std::string &token)
{
    std::string out;
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string pointer(const std::string &base, const std::string &token)
{
    return base + "/" + escapePointerToken(token);
}
std::string pointer(const std::string &base, std::size_t index)
{
    return base + "/" + std::to_string(index);
}

// A value as a reader wants it in a one-line summary: strings unquoted, structures compact and
// shortened.
std::string show(const Json &value)
{
    if (value.is_string()) {
        const auto &s = value.get_ref<const std::string &>();
        return s.empty() ? std::string("\"\"") : s;
    }
    std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    constexpr std::size_t limit = 60;
    if (text.size() > limit) {
        std::size_t cut = limit;
        // Never cut inside a UTF-8 sequence.
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
            --cut;
        text = text.substr(0, cut) + "…";
    }
    return text;
}

std::string showList(const Json &value)
{
    if (!value.is_array())
        return show(value);
    std::string out;
    for (const auto &item : value) {
        if (!out.empty())
            out += ' ';
        std::string s = item.is_string() ? item.get<std::string>()
                                         : item.dump(-1, ' ', false, Json::error_handler_t::replace);
        if (s.empty() || s.find_first_of(" \t\"'") != std::string::npos)
            s = Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
        out += s;
    }
    return "[" + out + "]";
}

// Leaf differences below two structured values, as "a.b x → y" fragments.
void leafChanges(const Json *a, const Json *b, const std::string &prefix, std::vector<std::string> &out)
{
    const std::string label = prefix.empty() ? std::string() : prefix + " ";
    if (!a && !b)
        return;
    if (!a) {
        out.push_back(label + "added (=" + show(*b) + ")");
        return;
    }
    if (!b) {
        out.push_back(label + "removed (was " + show(*a) + ")");
        return;
    }
    if (*a == *b)
        return;
    if (a->is_object() && b->is_object()) {
        std::set<std::string> keys;
        for (const auto &item : a->items())
            keys.insert(item.key());
        for (const auto &item : b->items())
            keys.insert(item.key());
        for (const auto &key : keys)
            leafChanges(field(*a, key), field(*b, key), prefix.empty() ? key : prefix + "." + key, out);
        return;
    }
    if (a->is_array() && b->is_array() && a->size() == b->size()) {
        for (std::size_t i = 0; i < a->size(); ++i)
            leafChanges(&(*a)[i], &(*b)[i], prefix + "[" + std::to_string(i) + "]", out);
        return;
    }
    if (a->is_array() && b->is_array()) {
        out.push_back(label + std::to_string(a->size()) + " items → " + std::to_string(b->size()) + " items");
        return;
    }
    out.push_back(label + show(*a) + " → " + show(*b));
}

// "name x → y", "name added (=v)", "name removed (was v)", or for structures
// "name a.b x → y; c added (=1)".
std::string describe(const std::string &name, const Json *a, const Json *b)
{
    std::vector<std::string> details;
    const bool structured =
        a && b && ((a->is_object() && b->is_object()) || (a->is_array() && b->is_array()));
    if (!structured) {
        leafChanges(a, b, std::string(), details);
        return details.empty() ? name : name + " " + details.front();
    }
    leafChanges(a, b, std::string(), details);
    std::string out = name;
    constexpr std::size_t shown = 3;
    for (std::size_t i = 0; i < details.size() && i < shown; ++i)
        out += (i == 0 ? " " : "; ") + details[i];
    if (details.size() > shown)
        out += "; " + std::to_string(details.size() - shown) + " more";
    return out;
}

// Keyed view of a list: key → index. Later duplicates win, as they do in the API server.
template <typename KeyFn> std::map<std::string, std::size_t> indexBy(const Json *list, KeyFn key)
{
    std::map<std::string, std::size_t> index;
    if (!list || !list->is_array())
        return index;
    for (std::size_t i = 0; i < list->size(); ++i)
        index[key((*list)[i])] = i;
    return index;
}

std::string stringField(const Json &object, const std::string &key)
{
    const Json *v = field(object, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::string envSource(const Json &env)
{
    if (const Json *value = field(env, "value"))
        return "=" + show(*value);
    const Json *from = field(env, "valueFrom");
    if (!from)
        return "=\"\"";
    if (const Json *r = field(*from, "fieldRef"))
        return "from field " + stringField(*r, "fieldPath");
    if (const Json *r = field(*from, "secretKeyRef"))
        return "from secret " + stringField(*r, "name") + " key " + stringField(*r, "key");
    if (const Json *r = field(*from, "configMapKeyRef"))
        return "from configMap " + stringField(*r, "name") + " key " + stringField(*r, "key");
    if (const Json *r = field(*from, "resourceFieldRef"))
        return "from resource " + stringField(*r, "resource");
    return "from " + show(*from);
}

std::string envValueText(const Json &env)
{
    std::string s = envSource(env);
    return s.rfind('=', 0) == 0 ? s.substr(1) : s;
}

std::string portKey(const Json &port)
{
    const Json *number = field(port, "containerPort");
    const std::string protocol = stringField(port, "protocol");
    return (number ? show(*number) : std::string("?")) + "/" +
           (protocol.empty() ? std::string("TCP") : protocol);
}

std::string tolerationText(const Json &t)
{
    const std::string key = stringField(t, "key");
    const std::string op = stringField(t, "operator");
    const std::string value = stringField(t, "value");
    const std::string effect = stringField(t, "effect");
    std::string out = key.empty() ? std::string("*") : key;
    if (op != "Exists" && !value.empty())
        out += "=" + value;
    out += ":" + (effect.empty() ? std::string("*") : effect);
    if (const Json *seconds = field(t, "tolerationSeconds"))
        out += " for " + show(*seconds) + "s";
    return out;
}

std::string volumeSource(const Json &volume)
{
    if (!volume.is_object())
        return show(volume);
    for (const auto &item : volume.items()) {
        if (item.key() == "name")
            continue;
        const Json &src = item.value();
        for (const char *nameKey : {"name", "secretName", "path", "claimName"}) {
            const std::string n = stringField(src, nameKey);
            if (!n.empty())
                return item.key() + " " + n;
        }
        return item.key();
    }
    return "no source";
}

class Summarizer
{
public:
    std::vector<Change> run(const Json &before, const Json &after)
    {
        compareSpec(field(before, "spec"), field(after, "spec"));
        compareMetadata(field(before, "metadata"), field(after, "metadata"));
        forEachKey(&before, &after, [&](const std::string &key, const Json *a, const Json *b) {
            if (key != "metadata" && key != "spec")
                add("other", {}, pointer("", key), describe(key, a, b), a, b);
        });
        if (m_changes.empty() && before != after)
            add("other", {}, "", "template changed", &before, &after);
        return std::move(m_changes);
    }

private:
    void add(const std::string &category, const std::string &container, const std::string &path,
             const std::string &summary, const Json *before, const Json *after)
    {
        m_changes.push_back({category, container, path, summary, optionalOf(before), optionalOf(after)});
    }

    // Calls fn(key, a, b) for every key whose values differ (absent and null count as equal), in
    // the order of `order` (keys not listed last, by name) so the summary reads most important first.
    template <typename Fn>
    static void forEachKey(const Json *a, const Json *b, Fn fn,
                           std::initializer_list<const char *> order = {})
    {
        std::set<std::string> keys;
        for (const Json *side : {a, b})
            if (side && side->is_object())
                for (const auto &item : side->items())
                    keys.insert(item.key());
        std::vector<std::string> sorted(keys.begin(), keys.end());
        auto rank = [&](const std::string &key) {
            std::size_t r = 0;
            for (const char *k : order) {
                if (key == k)
                    return r;
                ++r;
            }
            return r;
        };
        std::stable_sort(sorted.begin(), sorted.end(),
                         [&](const std::string &x, const std::string &y) { return rank(x) < rank(y); });
        for (const auto &key : sorted) {
            const Json *va = a ? field(*a, key) : nullptr;
            const Json *vb = b ? field(*b, key) : nullptr;
            if ((va == nullptr) != (vb == nullptr) || (va && *va != *vb))
                fn(key, va, vb);
        }
    }

    // Per-key comparison of a string map (labels, annotations, nodeSelector).
    void compareMap(const std::string &category, const std::string &noun, const std::string &path,
                    const Json *a, const Json *b)
    {
        if (a && !a->is_object() && b && !b->is_object()) {
            add(category, {}, path, describe(noun, a, b), a, b);
            return;
        }
        forEachKey(a, b, [&](const std::string &key, const Json *va, const Json *vb) {
            std::string summary;
            if (!va)
                summary = noun + " " + key + "=" + show(*vb) + " added";
            else if (!vb)
                summary = noun + " " + key + " removed (was " + show(*va) + ")";
            else
                summary = noun + " " + key + " " + show(*va) + " → " + show(*vb);
            add(category, {}, pointer(path, key), summary, va, vb);
        });
    }

    void compareMetadata(const Json *a, const Json *b)
    {
        forEachKey(a, b, [&](const std::string &key, const Json *va, const Json *vb) {
            const std::string path = pointer("/metadata", key);
            if (key == "labels")
                compareMap("labels", "label", path, va, vb);
            else if (key == "annotations")
                compareMap("annotations", "annotation", path, va, vb);
            else
                add("other", {}, path, describe("metadata." + key, va, vb), va, vb);
        });
    }

    void compareSpec(const Json *a, const Json *b)
    {
        forEachKey(a, b,
                   [&](const std::string &key, const Json *va, const Json *vb) {
                       const std::string path = pointer("/spec", key);
                       if (key == "containers" || key == "initContainers") {
                           compareContainers(key, path, va, vb);
                       } else if (key == "tolerations") {
                           compareTolerations(path, va, vb);
                       } else if (key == "nodeSelector") {
                           compareMap("nodeSelector", "nodeSelector", path, va, vb);
                       } else if (key == "affinity") {
                           add("affinity", {}, path, describe("affinity", va, vb), va, vb);
                       } else if (key == "volumes") {
                           compareKeyedList(
                               "volumes", {}, "volume", path, va, vb,
                               [](const Json &v) { return stringField(v, "name"); }, volumeSource);
                       } else if (key == "serviceAccountName" || key == "serviceAccount") {
                           add("serviceAccount", {}, path,
                               describe(key == "serviceAccount" ? "serviceAccount (deprecated field)"
                                                                : "serviceAccount",
                                        va, vb),
                               va, vb);
                       } else if (key == "hostNetwork") {
                           const Json no = false;
                           add("hostNetwork", {}, path, describe("hostNetwork", va ? va : &no, vb ? vb : &no),
                               va, vb);
                       } else {
                           add("other", {}, path, describe(key, va, vb), va, vb);
                       }
                   },
                   {"containers", "initContainers", "volumes", "tolerations", "nodeSelector", "affinity",
                    "serviceAccountName", "serviceAccount", "hostNetwork"});
    }

    // A list whose items have an identity (volumes by name, volume mounts by mountPath, ports
    // by number/protocol): added, removed and changed items, or a reorder.
    template <typename KeyFn, typename SourceFn>
    void compareKeyedList(const std::string &category, const std::string &container, const std::string &noun,
                          const std::string &path, const Json *a, const Json *b, KeyFn key, SourceFn source)
    {
        const bool aList = !a || a->is_array();
        const bool bList = !b || b->is_array();
        if (!aList || !bList) {
            add(category, container, path, describe(category, a, b), a, b);
            return;
        }
        const auto ia = indexBy(a, key);
        const auto ib = indexBy(b, key);
        const std::size_t before = m_changes.size();
        if (b) {
            for (std::size_t j = 0; j < b->size(); ++j) {
                const Json &item = (*b)[j];
                const std::string k = key(item);
                if (ib.at(k) != j)
                    continue; // a duplicate key: the later item is the one that counts
                const auto it = ia.find(k);
                if (it == ia.end()) {
                    add(category, container, pointer(path, j),
                        noun + " " + k + " added (" + source(item) + ")", nullptr, &item);
                } else if ((*a)[it->second] != item) {
                    add(category, container, pointer(path, j),
                        describe(noun + " " + k, &(*a)[it->second], &item), &(*a)[it->second], &item);
                }
            }
        }
        if (a) {
            for (const auto &[k, i] : ia) {
                if (!ib.count(k))
                    add(category, container, pointer(path, i),
                        noun + " " + k + " removed (was " + source((*a)[i]) + ")", &(*a)[i], nullptr);
            }
        }
        if (m_changes.size() == before)
            add(category, container, path, category + " order changed", a, b);
    }

    void compareTolerations(const std::string &path, const Json *a, const Json *b)
    {
        const Json empty = Json::array();
        const Json &la = a && a->is_array() ? *a : empty;
        const Json &lb = b && b->is_array() ? *b : empty;
        if ((a && !a->is_array()) || (b && !b->is_array())) {
            add("tolerations", {}, path, describe("tolerations", a, b), a, b);
            return;
        }
        const std::size_t before = m_changes.size();
        // Multiset difference: a toleration is a value without identity.
        std::vector<char> matched(la.size(), 0);
        for (std::size_t j = 0; j < lb.size(); ++j) {
            bool found = false;
            for (std::size_t i = 0; i < la.size() && !found; ++i) {
                if (!matched[i] && la[i] == lb[j]) {
                    matched[i] = 1;
                    found = true;
                }
            }
            if (!found)
                add("tolerations", {}, pointer(path, j), "toleration " + tolerationText(lb[j]) + " added",
                    nullptr, &lb[j]);
        }
        for (std::size_t i = 0; i < la.size(); ++i) {
            if (!matched[i])
                add("tolerations", {}, pointer(path, i), "toleration " + tolerationText(la[i]) + " removed",
                    &la[i], nullptr);
        }
        if (m_changes.size() == before)
            add("tolerations", {}, path, "tolerations order changed", a, b);
    }

    void compareContainers(const std::string &listName, const std::string &path, const Json *a, const Json *b)
    {
        const std::string noun = listName == "initContainers" ? "init container" : "container";
        if ((a && !a->is_array()) || (b && !b->is_array())) {
            add("other", {}, path, describe(listName, a, b), a, b);
            return;
        }
        const auto nameOf = [](const Json &c) { return stringField(c, "name"); };
        const auto ia = indexBy(a, nameOf);
        const auto ib = indexBy(b, nameOf);
        const std::size_t before = m_changes.size();
        if (b) {
            for (std::size_t j = 0; j < b->size(); ++j) {
                const Json &c = (*b)[j];
                const std::string name = nameOf(c);
                if (ib.at(name) != j)
                    continue;
                const auto it = ia.find(name);
                const std::string cpath = pointer(path, j);
                if (it == ia.end())
                    add("containers", name, cpath,
                        noun + " " + name + " added (image " + stringField(c, "image") + ")", nullptr, &c);
                else
                    compareContainer(name, cpath, (*a)[it->second], c);
            }
        }
        if (a) {
            for (const auto &[name, i] : ia) {
                if (!ib.count(name))
                    add("containers", name, pointer(path, i),
                        noun + " " + name + " removed (image " + stringField((*a)[i], "image") + ")",
                        &(*a)[i], nullptr);
            }
        }
        if (m_changes.size() == before && a && b && *a != *b)
            add("containers", {}, path, listName + " order changed", a, b);
    }

    void compareContainer(const std::string &name, const std::string &path, const Json &a, const Json &b)
    {
        forEachKey(&a, &b,
                   [&](const std::string &key, const Json *va, const Json *vb) {
                       const std::string p = pointer(path, key);
                       if (key == "image") {
                           add("image", name, p, describe("image", va, vb), va, vb);
                       } else if (key == "env") {
                           compareEnv(name, p, va, vb);
                       } else if (key == "envFrom") {
                           add("env", name, p, describe("envFrom", va, vb), va, vb);
                       } else if (key == "resources") {
                           compareResources(name, p, va, vb);
                       } else if (key == "ports") {
                           compareKeyedList("ports", name, "port", p, va, vb, portKey, [](const Json &port) {
                               const std::string n = stringField(port, "name");
                               return n.empty() ? std::string("unnamed") : "name " + n;
                           });
                       } else if (key == "livenessProbe" || key == "readinessProbe" ||
                                  key == "startupProbe") {
                           add("probes", name, p, describe(key, va, vb), va, vb);
                       } else if (key == "command" || key == "args") {
                           std::string summary;
                           if (!va)
                               summary = key + " added (" + showList(*vb) + ")";
                           else if (!vb)
                               summary = key + " removed (was " + showList(*va) + ")";
                           else
                               summary = key + " " + showList(*va) + " → " + showList(*vb);
                           add(key, name, p, summary, va, vb);
                       } else if (key == "volumeMounts") {
                           compareKeyedList(
                               "volumeMounts", name, "volumeMount", p, va, vb,
                               [](const Json &m) { return stringField(m, "mountPath"); },
                               [](const Json &m) {
                                   const std::string sub = stringField(m, "subPath");
                                   return "volume " + stringField(m, "name") +
                                          (sub.empty() ? "" : " subPath " + sub);
                               });
                       } else if (key != "name") {
                           add("other", name, p, describe(key, va, vb), va, vb);
                       }
                   },
                   {"image", "command", "args", "env", "envFrom", "resources", "ports", "livenessProbe",
                    "readinessProbe", "startupProbe", "volumeMounts"});
    }

    void compareEnv(const std::string &container, const std::string &path, const Json *a, const Json *b)
    {
        if ((a && !a->is_array()) || (b && !b->is_array())) {
            add("env", container, path, describe("env", a, b), a, b);
            return;
        }
        const auto nameOf = [](const Json &e) { return stringField(e, "name"); };
        const auto ia = indexBy(a, nameOf);
        const auto ib = indexBy(b, nameOf);
        const std::size_t before = m_changes.size();
        if (b) {
            for (std::size_t j = 0; j < b->size(); ++j) {
                const Json &e = (*b)[j];
                const std::string name = nameOf(e);
                if (ib.at(name) != j)
                    continue;
                const auto it = ia.find(name);
                if (it == ia.end()) {
                    add("env", container, pointer(path, j), "env " + name + " added (" + envSource(e) + ")",
                        nullptr, &e);
                } else if ((*a)[it->second] != e) {
                    const Json &old = (*a)[it->second];
                    const std::string from = envValueText(old);
                    const std::string to = envValueText(e);
                    const std::string summary = from != to ? "env " + name + " " + from + " → " + to
                                                           : describe("env " + name, &old, &e);
                    add("env", container, pointer(path, j), summary, &old, &e);
                }
            }
        }
        if (a) {
            for (const auto &[name, i] : ia) {
                if (!ib.count(name))
                    add("env", container, pointer(path, i),
                        "env " + name + " removed (was " + envValueText((*a)[i]) + ")", &(*a)[i], nullptr);
            }
        }
        // Order matters: $(VAR) references only see variables defined earlier.
        if (m_changes.size() == before)
            add("env", container, path, "env order changed", a, b);
    }

    void compareResources(const std::string &container, const std::string &path, const Json *a, const Json *b)
    {
        if ((a && !a->is_object()) || (b && !b->is_object())) {
            add("resources", container, path, describe("resources", a, b), a, b);
            return;
        }
        forEachKey(a, b, [&](const std::string &key, const Json *va, const Json *vb) {
            const std::string p = pointer(path, key);
            if ((key != "requests" && key != "limits") || (va && !va->is_object()) ||
                (vb && !vb->is_object())) {
                add("resources", container, p, describe("resources " + key, va, vb), va, vb);
                return;
            }
            forEachKey(va, vb, [&](const std::string &resource, const Json *ra, const Json *rb) {
                add("resources", container, pointer(p, resource),
                    describe("resources " + key + "." + resource, ra, rb), ra, rb);
            });
        });
    }

    std::vector<Change> m_changes;
};

// --- server noise ---------------------------------------------------------------------------

void eraseIfEquals(Json &object, const std::string &key, const Json &value)
{
    if (!object.is_object())
        return;
    const auto it = object.find(key);
    if (it != object.end() && *it == value)
        object.erase(it);
}

void eraseIfEmptyObject(Json &object, const std::string &key)
{
    eraseIfEquals(object, key, Json::object());
}

void stripProbe(Json &probe)
{
    if (!probe.is_object())
        return;
    eraseIfEquals(probe, "timeoutSeconds", 1);
    eraseIfEquals(probe, "periodSeconds", 10);
    eraseIfEquals(probe, "successThreshold", 1);
    eraseIfEquals(probe, "failureThreshold", 3);
    if (auto it = probe.find("httpGet"); it != probe.end() && it->is_object()) {
        eraseIfEquals(*it, "path", "/");
        eraseIfEquals(*it, "scheme", "HTTP");
    }
}

void stripContainer(Json &c, bool hostNetwork)
{
    if (!c.is_object())
        return;
    if (const Json *image = field(c, "image"); image && image->is_string())
        eraseIfEquals(c, "imagePullPolicy", kube::defaultPullPolicy(image->get<std::string>()));
    eraseIfEquals(c, "terminationMessagePath", "/dev/termination-log");
    eraseIfEquals(c, "terminationMessagePolicy", "File");
    eraseIfEmptyObject(c, "resources");
    if (auto it = c.find("ports"); it != c.end() && it->is_array()) {
        for (auto &p : *it) {
            if (!p.is_object())
                continue;
            eraseIfEquals(p, "protocol", "TCP");
            // With hostNetwork, servers before 1.28 copied containerPort into a template's hostPort.
            if (hostNetwork && p.contains("containerPort"))
                eraseIfEquals(p, "hostPort", p["containerPort"]);
        }
    }
    for (const char *probe : {"livenessProbe", "readinessProbe", "startupProbe"})
        if (auto it = c.find(probe); it != c.end())
            stripProbe(*it);
    if (auto it = c.find("env"); it != c.end() && it->is_array()) {
        for (auto &e : *it) {
            if (!e.is_object())
                continue;
            if (auto vf = e.find("valueFrom"); vf != e.end() && vf->is_object())
                if (auto fr = vf->find("fieldRef"); fr != vf->end())
                    eraseIfEquals(*fr, "apiVersion", "v1");
        }
    }
}

void stripVolume(Json &v)
{
    if (!v.is_object())
        return;
    for (const char *source : {"configMap", "secret", "projected", "downwardAPI"})
        if (auto it = v.find(source); it != v.end())
            eraseIfEquals(*it, "defaultMode", 420);
    if (auto it = v.find("hostPath"); it != v.end())
        eraseIfEquals(*it, "type", "");
}

} // namespace

TemplateSummary summarize(const kube::Json &before, const kube::Json &after, const SummaryOptions &options)
{
    TemplateSummary summary;
    if (options.ignoreServerNoise)
        summary.changes = Summarizer().run(stripServerNoise(before), stripServerNoise(after));
    else
        summary.changes = Summarizer().run(before, after);
    return summary;
}

kube::Json stripServerNoise(const kube::Json &podTemplate)
{
    Json t = podTemplate;
    if (!t.is_object())
        return t;
    if (auto meta = t.find("metadata"); meta != t.end() && meta->is_object()) {
        meta->erase("creationTimestamp");
        if (auto labels = meta->find("labels"); labels != meta->end() && labels->is_object()) {
            labels->erase("controller-revision-hash");
            labels->erase("pod-template-generation");
            labels->erase("pod-template-hash");
        }
        if (auto annotations = meta->find("annotations");
            annotations != meta->end() && annotations->is_object())
            annotations->erase("deprecated.daemonset.template.generation");
        eraseIfEmptyObject(*meta, "labels");
        eraseIfEmptyObject(*meta, "annotations");
        eraseIfEmptyObject(t, "metadata");
    }
    if (auto spec = t.find("spec"); spec != t.end() && spec->is_object()) {
        eraseIfEquals(*spec, "restartPolicy", "Always");
        eraseIfEquals(*spec, "dnsPolicy", "ClusterFirst");
        eraseIfEquals(*spec, "schedulerName", "default-scheduler");
        eraseIfEmptyObject(*spec, "securityContext");
        eraseIfEquals(*spec, "terminationGracePeriodSeconds", 30);
        const Json *hn = field(*spec, "hostNetwork");
        const bool hostNetwork = hn && hn->is_boolean() && hn->get<bool>();
        for (const char *list : {"containers", "initContainers"})
            if (auto it = spec->find(list); it != spec->end() && it->is_array())
                for (auto &c : *it)
                    stripContainer(c, hostNetwork);
        if (auto it = spec->find("volumes"); it != spec->end() && it->is_array())
            for (auto &v : *it)
                stripVolume(v);
    }
    return t;
}

} // namespace diff
