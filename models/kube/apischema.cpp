#include "models/kube/apischema.h"

#include "models/kube/jsonfield.h"
#include "models/kube/quantity.h"

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <sstream>
#include <unordered_map>

namespace kube::schema {

// The table texts, generated into the build from apitypes.txt and apidescriptions.txt.
extern const char *const kApiTypes;
extern const char *const kApiDescriptions;

namespace {

struct Table
{
    std::deque<Struct> storage;
    std::deque<TypeRef> refs;
    std::unordered_map<std::string, Struct *> byDefinition;
    std::vector<const Struct *> list;
};

[[noreturn]] void tableError(const std::string &what, int line)
{
    // The table is part of the program: an error in it is a build defect that every test sees.
    std::fprintf(stderr, "apitypes.txt:%d: %s\n", line, what.c_str());
    std::abort();
}

// The table is read on the first use of any schema, which a command as short as a diff of two
// manifests pays for: its lines and words are views of the embedded texts, and only what the
// table keeps is copied.
void words(std::string_view line, std::vector<std::string_view> &out)
{
    const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }; // isspace in the C locale
    out.clear();
    std::size_t i = 0;
    for (;;) {
        while (i < line.size() && space(line[i]))
            ++i;
        if (i >= line.size())
            return;
        std::size_t end = i;
        while (end < line.size() && !space(line[end]))
            ++end;
        out.push_back(line.substr(i, end - i));
        i = end;
    }
}

std::vector<std::string_view> splitOn(std::string_view text, char sep)
{
    std::vector<std::string_view> out;
    for (std::size_t start = 0;;) {
        const std::size_t at = text.find(sep, start);
        if (at == std::string_view::npos) {
            out.push_back(text.substr(start));
            return out;
        }
        out.push_back(text.substr(start, at - start));
        start = at + 1;
    }
}

const std::pair<const char *, Scalar> kScalars[] = {
    {"string", Scalar::String},
    {"int32", Scalar::Int32},
    {"int64", Scalar::Int64},
    {"bool", Scalar::Bool},
    {"double", Scalar::Double},
    {"bytes", Scalar::Bytes},
    {"time", Scalar::Time},
    {"microtime", Scalar::MicroTime},
    {"duration", Scalar::Duration},
    {"quantity", Scalar::Quantity},
    {"intorstring", Scalar::IntOrString},
    {"object", Scalar::Object},
    {"any", Scalar::Any},
};

TypeRef parseType(Table &t, std::string_view text, int line)
{
    TypeRef ref;
    if (text.starts_with("[]") || text.starts_with("{}")) {
        ref.form = text[0] == '[' ? TypeRef::Form::List : TypeRef::Form::Map;
        t.refs.push_back(parseType(t, text.substr(2), line));
        ref.element = &t.refs.back();
        return ref;
    }
    for (const auto &[name, scalar] : kScalars)
        if (text == name) {
            ref.scalar = scalar;
            return ref;
        }
    const auto it = t.byDefinition.find(std::string(text));
    if (it == t.byDefinition.end())
        tableError("unknown type " + std::string(text), line);
    ref.form = TypeRef::Form::Struct;
    ref.type = it->second;
    return ref;
}

std::string shortName(const std::string &definition)
{
    const auto dot = definition.rfind('.');
    return dot == std::string::npos ? definition : definition.substr(dot + 1);
}

// The "T" lines: every type, so that fields can point at types defined later.
void readTypes(Table &t, const std::vector<std::string_view> &lines)
{
    std::vector<std::string_view> w;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        words(lines[i], w);
        if (w.empty() || w[0] != "T")
            continue;
        if (w.size() < 2)
            tableError("a type needs a name", static_cast<int>(i + 1));
        Struct s;
        s.definition = std::string(w[1]);
        s.name = shortName(s.definition);
        s.builtIn = s.definition.starts_with("io.k8s.");
        for (std::size_t k = 2; k < w.size(); ++k) {
            if (w[k].starts_with("gvk=")) {
                const auto parts = splitOn(w[k].substr(4), '/');
                if (parts.size() != 3)
                    tableError("gvk= needs group/version/kind", static_cast<int>(i + 1));
                s.gvk = {std::string(parts[0]), std::string(parts[1]), std::string(parts[2])};
            } else if (w[k] == "struct=atomic") {
                s.atomic = true;
            } else {
                tableError("unknown type flag " + std::string(w[k]), static_cast<int>(i + 1));
            }
        }
        t.storage.push_back(std::move(s));
        if (!t.byDefinition.emplace(t.storage.back().definition, &t.storage.back()).second)
            tableError("type defined twice: " + std::string(w[1]), static_cast<int>(i + 1));
        t.list.push_back(&t.storage.back());
    }
}

// One "F" line's words: the field's name, type and flags.
Field readField(Table &t, const std::vector<std::string_view> &w, int line)
{
    Field f;
    f.name = std::string(w[1]);
    f.type = parseType(t, w[2], line);
    for (std::size_t k = 3; k < w.size(); ++k) {
        const std::string_view flag = w[k];
        const auto eq = flag.find('=');
        const std::string_view key = flag.substr(0, eq);
        const std::string_view value =
            eq == std::string_view::npos ? std::string_view() : flag.substr(eq + 1);
        if (flag == "req")
            f.required = true;
        else if (flag == "omit")
            f.omitEmpty = true;
        else if (key == "merge")
            f.patchMergeKey = std::string(value);
        else if (key == "strategy")
            f.patchStrategy = std::string(value);
        else if (key == "list")
            f.listType = std::string(value);
        else if (key == "keys")
            for (const std::string_view k : splitOn(value, ','))
                f.listMapKeys.emplace_back(k);
        else if (key == "map")
            f.mapType = std::string(value);
        else
            tableError("unknown field flag " + std::string(flag), line);
    }
    return f;
}

// The "F" lines: the fields of the type above them (readTypes has made every type, in the
// order of their lines).
void readFields(Table &t, const std::vector<std::string_view> &lines)
{
    std::vector<std::string_view> w;
    Struct *current = nullptr;
    std::size_t types = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int line = static_cast<int>(i + 1);
        words(lines[i], w);
        if (w.empty() || w[0].front() == '#')
            continue;
        if (w[0] == "T") {
            current = &t.storage[types++];
            continue;
        }
        if (w[0] != "F" || w.size() < 3 || !current)
            tableError("expected T or F", line);
        current->fields.push_back(readField(t, w, line));
    }
}

// Descriptions: "Type<TAB>text" or "Type.field<TAB>text"; Type is the short name or, where
// two types share one, the definition.
void readDescriptions(Table &t)
{
    std::unordered_map<std::string, std::vector<Struct *>> byShort;
    for (auto &s : t.storage)
        byShort[s.name].push_back(&s);
    for (const std::string_view line : splitOn(kApiDescriptions, '\n')) {
        const auto tab = line.find('\t');
        if (tab == std::string_view::npos || line.empty() || line.front() == '#')
            continue;
        const std::string key(line.substr(0, tab));
        const std::string_view text = line.substr(tab + 1);
        std::vector<Struct *> owners;
        std::string fieldName;
        if (const auto it = t.byDefinition.find(key); it != t.byDefinition.end()) {
            owners = {it->second};
        } else {
            const auto dot = key.rfind('.');
            const std::string head = dot == std::string::npos ? key : key.substr(0, dot);
            if (const auto d = t.byDefinition.find(head); d != t.byDefinition.end()) {
                owners = {d->second};
                fieldName = key.substr(dot + 1);
            } else if (const auto sh = byShort.find(key); sh != byShort.end()) {
                owners = sh->second;
            } else if (const auto sf = byShort.find(head); dot != std::string::npos && sf != byShort.end()) {
                owners = sf->second;
                fieldName = key.substr(dot + 1);
            }
        }
        for (Struct *s : owners) {
            if (fieldName.empty()) {
                s->description = text;
                continue;
            }
            for (auto &f : s->fields)
                if (f.name == fieldName)
                    f.description = text;
        }
    }
}

Table build()
{
    Table t;
    const std::vector<std::string_view> lines = splitOn(kApiTypes, '\n');
    readTypes(t, lines);
    readFields(t, lines);
    readDescriptions(t);
    return t;
}

const Table &table()
{
    static const Table t = build();
    return t;
}

bool looksInto(const TypeRef &t)
{
    return t.form != TypeRef::Form::Scalar;
}

template <typename Visit> void walk(const Json &v, const TypeRef &t, std::string &path, Visit &visit)
{
    switch (t.form) {
    case TypeRef::Form::Scalar:
        return;
    case TypeRef::Form::Struct: {
        if (!v.is_object())
            return;
        for (auto it = v.begin(); it != v.end(); ++it) {
            const std::size_t size = path.size();
            if (!path.empty())
                path += '.';
            path += it.key();
            if (const Field *f = t.type->field(it.key())) {
                if (looksInto(f->type))
                    walk(it.value(), f->type, path, visit);
            } else {
                visit(path);
            }
            path.resize(size);
        }
        return;
    }
    case TypeRef::Form::List:
        if (!v.is_array() || !looksInto(*t.element))
            return;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::size_t size = path.size();
            path += "[" + std::to_string(i) + "]";
            walk(v[i], *t.element, path, visit);
            path.resize(size);
        }
        return;
    case TypeRef::Form::Map:
        if (!v.is_object() || !looksInto(*t.element))
            return;
        for (auto it = v.begin(); it != v.end(); ++it) {
            const std::size_t size = path.size();
            path += '.';
            path += it.key();
            walk(it.value(), *t.element, path, visit);
            path.resize(size);
        }
        return;
    }
}

// Calls fn(element, elementType) for each element of a list or value of a map.
template <typename Fn> void forEachElement(Json &v, const TypeRef &t, Fn &&fn)
{
    if (t.form == TypeRef::Form::List && v.is_array())
        for (auto &e : v)
            fn(e, *t.element);
    else if (t.form == TypeRef::Form::Map && v.is_object())
        for (auto it = v.begin(); it != v.end(); ++it)
            fn(it.value(), *t.element);
}

void prune(Json &v, const TypeRef &t)
{
    switch (t.form) {
    case TypeRef::Form::Scalar:
        return;
    case TypeRef::Form::Struct: {
        if (!v.is_object())
            return;
        for (auto it = v.begin(); it != v.end();) {
            const Field *f = t.type->field(it.key());
            if (!f) {
                it = v.erase(it);
                continue;
            }
            prune(it.value(), f->type);
            ++it;
        }
        return;
    }
    case TypeRef::Form::List:
    case TypeRef::Form::Map:
        forEachElement(v, t, [](Json &e, const TypeRef &et) { prune(e, et); });
        return;
    }
}

bool emptyValue(const Json &v)
{
    switch (v.type()) {
    case Json::value_t::null:
        return true;
    case Json::value_t::string:
        return v.get_ref<const std::string &>().empty();
    case Json::value_t::boolean:
        return !v.get<bool>();
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return v.get<std::int64_t>() == 0;
    case Json::value_t::number_float:
        return v.get<double>() == 0.0;
    case Json::value_t::array:
    case Json::value_t::object:
        return v.empty();
    default:
        return false;
    }
}

void normalizeValue(Json &v, const TypeRef &t)
{
    switch (t.form) {
    case TypeRef::Form::Scalar:
        if (t.scalar == Scalar::Quantity && (v.is_string() || v.is_number())) {
            const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
            if (auto canonical = canonicalQuantity(text))
                v = *canonical;
        }
        return;
    case TypeRef::Form::Struct:
        if (!v.is_object())
            return;
        for (auto it = v.begin(); it != v.end();) {
            const Field *f = t.type->field(it.key());
            if (!f) {
                ++it;
                continue;
            }
            normalizeValue(it.value(), f->type);
            if ((f->omitEmpty && emptyValue(*it)) || (it->is_null() && f->type.form != TypeRef::Form::Scalar))
                it = v.erase(it);
            else
                ++it;
        }
        return;
    case TypeRef::Form::List:
    case TypeRef::Form::Map:
        forEachElement(v, t, [](Json &e, const TypeRef &et) { normalizeValue(e, et); });
        return;
    }
}

} // namespace

TypeRef refTo(const Struct &type)
{
    TypeRef r;
    r.form = TypeRef::Form::Struct;
    r.type = &type;
    return r;
}

const Field *Struct::field(std::string_view fieldName) const
{
    for (const auto &f : fields)
        if (f.name == fieldName)
            return &f;
    return nullptr;
}

const std::vector<const Struct *> &structs()
{
    return table().list;
}

const Struct *structNamed(std::string_view definition)
{
    const auto &t = table();
    const auto it = t.byDefinition.find(std::string(definition));
    return it == t.byDefinition.end() ? nullptr : it->second;
}

const Struct *structForKind(std::string_view group, std::string_view version, std::string_view kind)
{
    for (const Struct *s : structs())
        if (s->gvk.kind == kind && s->gvk.group == group && s->gvk.version == version)
            return s;
    return nullptr;
}

const Struct *structForObject(const Json &object)
{
    if (!object.is_object())
        return nullptr;
    const std::string apiVersion = stringOr(object, "apiVersion");
    const auto slash = apiVersion.find('/');
    const std::string group = slash == std::string::npos ? std::string() : apiVersion.substr(0, slash);
    const std::string version = slash == std::string::npos ? apiVersion : apiVersion.substr(slash + 1);
    return structForKind(group, version, stringOr(object, "kind"));
}

std::vector<UnknownField> unknownFields(const Json &object, const Struct &type)
{
    std::vector<UnknownField> out;
    std::string path;
    auto visit = [&](const std::string &p) { out.push_back({p}); };
    walk(object, refTo(type), path, visit);
    return out;
}

void pruneUnknownFields(Json &object, const Struct &type)
{
    prune(object, refTo(type));
}

void normalize(Json &object, const Struct &type)
{
    normalizeValue(object, refTo(type));
}

namespace {

// Follows the path through a SAX parse and notes every key an object has seen before.
class DuplicateKeys
{
public:
    std::vector<UnknownField> found;

    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(Json::number_integer_t) { return value(); }
    bool number_unsigned(Json::number_unsigned_t) { return value(); }
    bool number_float(Json::number_float_t, const Json::string_t &) { return value(); }
    bool string(Json::string_t &) { return value(); }
    bool binary(Json::binary_t &) { return value(); }
    bool start_object(std::size_t)
    {
        value();
        m_frames.push_back({false, 0, {}, {}});
        return true;
    }
    bool key(Json::string_t &k)
    {
        Frame &f = m_frames.back();
        f.key = k;
        if (!f.keys.insert(k).second)
            found.push_back({path()});
        return true;
    }
    bool end_object() { return pop(); }
    bool start_array(std::size_t)
    {
        value();
        m_frames.push_back({true, 0, {}, {}});
        return true;
    }
    bool end_array() { return pop(); }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &)
    {
        found.clear();
        return false;
    }

private:
    struct Frame
    {
        bool array;
        std::size_t next; // the index the next element of an array gets
        std::set<std::string> keys;
        std::string key; // the key of an object's current member
    };
    // A value starts: in an array, it is the next element.
    bool value()
    {
        if (!m_frames.empty() && m_frames.back().array)
            ++m_frames.back().next;
        return true;
    }
    bool pop()
    {
        m_frames.pop_back();
        return true;
    }
    std::string path() const
    {
        std::string out;
        for (const Frame &f : m_frames) {
            if (f.array) {
                out += "[" + std::to_string(f.next - 1) + "]";
            } else {
                if (!out.empty())
                    out += '.';
                out += f.key;
            }
        }
        return out;
    }
    std::vector<Frame> m_frames;
};

} // namespace

std::vector<UnknownField> duplicateFields(std::string_view jsonText)
{
    DuplicateKeys keys;
    if (!Json::sax_parse(jsonText.begin(), jsonText.end(), &keys))
        return {};
    return std::move(keys.found);
}

} // namespace kube::schema
