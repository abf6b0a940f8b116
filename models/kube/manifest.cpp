#include "models/kube/manifest.h"

#include "models/kube/fieldtypes.h"

#include <algorithm>

namespace kube {

namespace {

const char *jsonTypeName(const Json &v)
{
    switch (v.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::object:
        return "a map";
    case Json::value_t::array:
        return "a list";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::boolean:
        return "a boolean";
    default:
        return "a number";
    }
}

bool isListKind(const Json &object)
{
    const auto kind = object.find("kind");
    if (kind == object.end() || !kind->is_string())
        return false;
    const std::string &k = kind->get_ref<const std::string &>();
    return k.size() >= 4 && k.compare(k.size() - 4, 4, "List") == 0 && object.contains("items");
}

std::string located(const YamlDocument &doc, const std::string &pointer, const std::string &what)
{
    return doc.where(pointer) + ": " + what;
}

// Checks a string field; returns the problem, or "" when it is fine.
std::string checkString(const Json &parent, const std::string &field, const std::string &label)
{
    const auto it = parent.find(field);
    if (it == parent.end() || it->is_null())
        return label + " is missing";
    if (!it->is_string())
        return label + " must be a string, not " + jsonTypeName(*it);
    if (it->get_ref<const std::string &>().empty())
        return label + " is empty";
    return {};
}

std::string describe(const Json &object)
{
    std::string d;
    if (auto kind = object.find("kind"); kind != object.end() && kind->is_string())
        d = kind->get<std::string>();
    if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
        if (auto name = meta->find("name"); name != meta->end() && name->is_string()) {
            if (!d.empty())
                d += ' ';
            d += '"';
            d += name->get_ref<const std::string &>();
            d += '"';
        }
    }
    return d.empty() ? std::string() : " (" + d + ")";
}

// `movable`, when given, is `object` itself, which the caller no longer needs: it is moved into
// the manifest instead of copied.
Result<void> addObject(const YamlDocument &doc, int index, const Json &object, const std::string &pointer,
                       std::vector<Manifest> &out, int depth, Json *movable = nullptr)
{
    if (!object.is_object()) {
        return ApiStatus::badRequest(located(
            doc, pointer, std::string("expected a Kubernetes object (a map), got ") + jsonTypeName(object)));
    }
    // Problems with the pointer of the field at fault, so the position is the most precise one.
    std::vector<std::pair<std::string, std::string>> problems;
    if (auto p = checkString(object, "apiVersion", "apiVersion"); !p.empty())
        problems.emplace_back(object.contains("apiVersion") ? pointer + "/apiVersion" : pointer, p);
    if (auto p = checkString(object, "kind", "kind"); !p.empty())
        problems.emplace_back(object.contains("kind") ? pointer + "/kind" : pointer, p);

    if (isListKind(object)) {
        if (!problems.empty())
            return ApiStatus::badRequest(located(doc, problems.front().first, problems.front().second));
        const Json &items = object["items"];
        if (items.is_null())
            return Result<void>::success();
        if (!items.is_array())
            return ApiStatus::badRequest(located(
                doc, pointer + "/items", std::string("items must be a list, not ") + jsonTypeName(items)));
        if (depth > 16)
            return ApiStatus::badRequest(located(doc, pointer, "List kinds nest too deeply"));
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string child = pointer + "/items/" + std::to_string(i);
            if (auto r = addObject(doc, index, items[i], child, out, depth + 1); !r)
                return r;
        }
        return Result<void>::success();
    }

    const auto meta = object.find("metadata");
    if (meta == object.end() || meta->is_null()) {
        problems.emplace_back(pointer, "metadata.name is missing");
    } else if (!meta->is_object()) {
        problems.emplace_back(pointer + "/metadata",
                              std::string("metadata must be a map, not ") + jsonTypeName(*meta));
    } else {
        const std::string name = checkString(*meta, "name", "metadata.name");
        const std::string generateName = checkString(*meta, "generateName", "metadata.generateName");
        if (!name.empty() && !generateName.empty()) {
            const bool present = meta->contains("name") && !(*meta)["name"].is_null();
            problems.emplace_back(pointer + "/metadata" + (present ? "/name" : ""),
                                  present ? name : "metadata.name is missing");
        }
    }
    if (!problems.empty()) {
        std::string what;
        for (const auto &p : problems) {
            if (!what.empty())
                what += "; ";
            what += p.second;
        }
        return ApiStatus::badRequest(located(doc, problems.front().first, what + describe(object)));
    }
    // Values the API server could not decode into its types (a revision of "three", containers
    // given as a map) are refused here, at the field, rather than misread later.
    if (const auto errors = fieldTypeErrors(object); !errors.empty()) {
        std::string what = errors.front().text();
        if (errors.size() > 1)
            what += " (and " + std::to_string(errors.size() - 1) + " more)";
        return ApiStatus::badRequest(located(doc, pointer + errors.front().pointer, what + describe(object)));
    }
    if (movable)
        out.push_back({std::move(*movable), doc.file, doc.posOf(pointer), pointer, index});
    else
        out.push_back({object, doc.file, doc.posOf(pointer), pointer, index});
    return Result<void>::success();
}

// The documents of a text read here, which nobody else holds: their objects move.
Result<std::vector<Manifest>> manifestsFromOwnDocuments(std::vector<YamlDocument> &documents)
{
    std::vector<Manifest> out;
    for (std::size_t i = 0; i < documents.size(); ++i) {
        Json &value = documents[i].value;
        if (auto r = addObject(documents[i], static_cast<int>(i), value, "", out, 0, &value); !r)
            return r.error();
    }
    return out;
}

// The manifests of a text that `parse` reads. Positions other than a document's root are needed
// only to name a problem or to place an item of a List, which most manifests never ask for; it
// is read with the roots' first and, when something else is asked for, again with every
// position, so that messages and positions are those of a single reading with all of them.
template <typename Parse> Result<std::vector<Manifest>> manifestsOfText(const Parse &parse)
{
    auto docs = parse(YamlPositions::Roots);
    if (!docs)
        return docs.error();
    auto manifests = manifestsFromOwnDocuments(*docs);
    const auto atRoots = [](const std::vector<Manifest> &list) {
        return std::all_of(list.begin(), list.end(), [](const Manifest &m) { return m.pointer.empty(); });
    };
    if (manifests && atRoots(*manifests))
        return manifests;
    docs = parse(YamlPositions::All);
    if (!docs)
        return docs.error();
    return manifestsFromOwnDocuments(*docs);
}

} // namespace

Result<std::vector<Manifest>> manifestsFromDocuments(const std::vector<YamlDocument> &documents)
{
    std::vector<Manifest> out;
    for (std::size_t i = 0; i < documents.size(); ++i) {
        if (auto r = addObject(documents[i], static_cast<int>(i), documents[i].value, "", out, 0); !r)
            return r.error();
    }
    return out;
}

Result<std::vector<Manifest>> loadManifests(const std::string &text, const std::string &fileName)
{
    return manifestsOfText(
        [&](YamlPositions positions) { return parseYamlDocuments(text, fileName, positions); });
}

Result<std::vector<Manifest>> loadManifestFile(const std::string &path)
{
    const auto text = readYamlFile(path);
    if (!text)
        return text.error();
    return manifestsOfText([&](YamlPositions positions) { return parseYamlFile(*text, path, positions); });
}

} // namespace kube
