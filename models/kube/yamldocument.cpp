#include "models/kube/yamldocument.h"

#include "models/kube/yamlfast.h"
#include "models/kube/yamlscalar.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

namespace kube {

namespace {

// Resource limits: a small or hostile file must not make the loader run for ever or exhaust
// memory. yaml-cpp's own parser gives up at 500 levels; the limit below it keeps one message.
constexpr int kMaxDepth = 256;
constexpr std::size_t kMaxDocuments = 10'000;
constexpr std::size_t kMaxScalarBytes = 16 * 1024 * 1024;
// Aliases can make a small text expand exponentially ("billion laughs"). Without aliases every
// node is converted once, so nodes and string bytes beyond what the text holds come from
// aliases (and merge keys); a whole file may add this many through them.
constexpr std::size_t kMaxAliasNodes = 1'000'000;
constexpr std::size_t kMaxAliasBytes = 64 * 1024 * 1024;
const std::string kStrTag = "tag:yaml.org,2002:str";

// Thrown inside the converter only; parseYamlDocuments turns it into a Result.
struct LoadError
{
    SourcePos pos;
    std::string message;
    bool syntax = false; // a token out of place: JSON text gets the JSON parser's diagnosis instead
};

// What the converter may still produce for the whole file.
struct Budget
{
    std::size_t nodes = 0;
    std::size_t bytes = 0;
};

std::string located(const std::string &file, SourcePos pos, const std::string &what)
{
    if (pos.line <= 0)
        return file + ": " + what;
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + what;
}

SourcePos toPos(const YAML::Mark &m)
{
    if (m.is_null() || m.line < 0)
        return {};
    return {m.line + 1, m.column + 1};
}

// Position just past the last character: where "unexpected end" errors point.
SourcePos endOf(const std::string &text)
{
    SourcePos p{1, 1};
    for (char c : text) {
        if (c == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

std::string shortened(const std::string &s, std::size_t max = 200)
{
    if (s.size() <= max)
        return s;
    return s.substr(0, max) + "...";
}

} // namespace

std::size_t detail::utf8Length(const std::string &s, std::size_t i)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80)
        return 1;
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F; // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > s.size() || b(i + 1) < lo || b(i + 1) > hi)
        return 0;
    for (std::size_t k = 2; k < len; ++k)
        if ((b(i + k) & 0xC0) != 0x80)
            return 0;
    return len;
}

namespace {

using detail::utf8Length;

// Position of the first C0 control character other than tab, line feed and carriage return, or
// of DEL, if any. YAML's printable set excludes them, as go-yaml does; yaml-cpp instead takes NUL
// bytes for UTF-16/UTF-32 and re-reads the whole stream in that encoding.
std::optional<std::pair<SourcePos, unsigned>> controlCharacter(const std::string &text)
{
    SourcePos pos{1, 1};
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F)
            return std::make_pair(pos, static_cast<unsigned>(c));
        if (c == '\n') {
            ++pos.line;
            pos.column = 1;
        } else {
            ++pos.column;
        }
        i += std::max<std::size_t>(1, utf8Length(text, i));
    }
    return std::nullopt;
}

// Position of the first byte that is not UTF-8, if any. go-yaml refuses such input, and a Json
// string holding one could not be serialised later.
std::optional<std::pair<SourcePos, unsigned>> invalidUtf8(const std::string &text)
{
    SourcePos pos{1, 1};
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = utf8Length(text, i);
        if (len == 0)
            return std::make_pair(pos, static_cast<unsigned>(static_cast<unsigned char>(text[i])));
        if (text[i] == '\n') {
            ++pos.line;
            pos.column = 1;
        } else {
            ++pos.column;
        }
        i += len;
    }
    return std::nullopt;
}

// yaml-cpp decodes the escapes \N and \_ to the bare bytes 0x85 and 0xA0. The input has been
// checked to be UTF-8, so any stray byte in a scalar is one of those: encode it properly.
std::string repairedUtf8(const std::string &s)
{
    bool valid = true;
    for (std::size_t i = 0; i < s.size() && valid;) {
        const std::size_t len = utf8Length(s, i);
        valid = len != 0;
        i += len;
    }
    if (valid)
        return s;
    std::string out;
    out.reserve(s.size() + 8);
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = utf8Length(s, i);
        if (len == 0) {
            const auto c = static_cast<unsigned char>(s[i]);
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
            ++i;
        } else {
            out.append(s, i, len);
            i += len;
        }
    }
    return out;
}

// One node of a document as the parser's events describe it: what yaml-cpp's own node tree
// holds, minus what the conversion below never reads (styles, a memory holder per node). An
// alias is the anchored node itself, so a map or list reached through two aliases is one node.
struct YNode
{
    YAML::NodeType::value type = YAML::NodeType::Null;
    std::string tag;
    std::string scalar;
    YAML::Mark mark = YAML::Mark::null_mark();
    // A list's items; a map's keys and values, alternating, in the order they were written.
    std::vector<const YNode *> children;

    YAML::NodeType::value Type() const { return type; }
    bool IsNull() const { return type == YAML::NodeType::Null; }
    bool IsScalar() const { return type == YAML::NodeType::Scalar; }
    bool IsMap() const { return type == YAML::NodeType::Map; }
    bool IsSequence() const { return type == YAML::NodeType::Sequence; }
    const std::string &Tag() const { return tag; }
    const std::string &Scalar() const { return scalar; }
    const YAML::Mark &Mark() const { return mark; }
    std::size_t pairs() const { return children.size() / 2; }
    const YNode &key(std::size_t i) const { return *children[2 * i]; }
    const YNode &value(std::size_t i) const { return *children[2 * i + 1]; }
};

std::string typeName(const YNode &n)
{
    switch (n.Type()) {
    case YAML::NodeType::Map:
        return "a map";
    case YAML::NodeType::Sequence:
        return "a list";
    default:
        return "a null";
    }
}

class Converter
{
public:
    Converter(YamlDocument &doc, const std::string &text, Budget &budget)
        : m_doc(doc), m_text(text), m_budget(budget)
    {}

    Json convert(const YNode &node, const std::string &pointer, SourcePos pos, int depth)
    {
        if (depth > kMaxDepth)
            throw LoadError{pos, "nesting deeper than " + std::to_string(kMaxDepth) +
                                     " levels (an alias that refers to itself?)"};
        if (m_budget.nodes == 0)
            throw LoadError{pos, "the file expands by more than " + std::to_string(kMaxAliasNodes) +
                                     " nodes through aliases"};
        --m_budget.nodes;
        m_doc.positions.emplace(pointer, pos);
        switch (node.Type()) {
        case YAML::NodeType::Map:
            return convertMap(node, pointer, depth);
        case YAML::NodeType::Sequence: {
            Json array = Json::array();
            std::size_t index = 0;
            for (const YNode *item : node.children) {
                SourcePos itemPos = toPos(item->Mark());
                if (itemPos.line == 0)
                    itemPos = pos;
                array.push_back(convert(*item, pointer + "/" + std::to_string(index++), itemPos, depth + 1));
            }
            return array;
        }
        case YAML::NodeType::Scalar:
            return convertScalar(node, pos);
        default:
            return node.Tag() == kStrTag ? Json("") : Json(nullptr);
        }
    }

private:
    struct Entry
    {
        std::string key;
        const YNode *keyNode;
        const YNode *value;
    };

    // yaml-cpp accepts a quoted scalar that runs into the end of the input (it folds the rest
    // of the file into it); go-yaml refuses it, and so do we. Each source scalar is checked once.
    void checkClosingQuote(const YNode &node)
    {
        const YAML::Mark mark = node.Mark();
        if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= m_text.size())
            return;
        const auto start = static_cast<std::size_t>(mark.pos);
        const char quote = m_text[start];
        if ((quote != '"' && quote != '\'') || !m_checkedQuotes.insert(start).second)
            return;
        for (std::size_t i = start + 1; i < m_text.size(); ++i) {
            if (quote == '"' && m_text[i] == '\\') {
                ++i;
            } else if (m_text[i] == quote) {
                if (quote == '\'' && i + 1 < m_text.size() && m_text[i + 1] == '\'')
                    ++i;
                else
                    return;
            }
        }
        throw LoadError{toPos(mark),
                        std::string("unterminated quoted string: the closing ") + quote + " is missing"};
    }

    // Strings are counted too: one long scalar behind many aliases is as big as many nodes.
    void charge(std::size_t bytes, SourcePos pos)
    {
        if (bytes > m_budget.bytes)
            throw LoadError{pos, "the file expands by more than " + std::to_string(kMaxAliasBytes) +
                                     " bytes of text through aliases"};
        m_budget.bytes -= bytes;
    }

    std::string charged(std::string s, SourcePos pos)
    {
        charge(s.size(), pos);
        return s;
    }

    Json convertScalar(const YNode &node, SourcePos pos)
    {
        const std::string &tag = node.Tag();
        if (tag == "!")
            checkClosingQuote(node);
        const std::string &text = node.Scalar();
        if (tag == "?" || tag.empty()) {
            PlainScalar r = resolvePlainScalar(text);
            if (r.kind == PlainScalarKind::Float && !std::isfinite(r.value.get<double>()))
                throw LoadError{pos, "\"" + text + "\" (infinity or NaN) cannot be represented in JSON"};
            if (r.value.is_string())
                charge(r.value.get_ref<const std::string &>().size(), pos);
            return std::move(r.value);
        }
        static const std::string prefix = "tag:yaml.org,2002:";
        if (tag.rfind(prefix, 0) != 0 || tag == kStrTag)
            return charged(repairedUtf8(text), pos); // quoted, block, !!str, !!binary and application tags
        const std::string type = tag.substr(prefix.size());
        PlainScalar r = resolvePlainScalar(text);
        const bool fits =
            (type == "int" && r.kind == PlainScalarKind::Int) ||
            (type == "float" && (r.kind == PlainScalarKind::Int || r.kind == PlainScalarKind::Float)) ||
            (type == "bool" && r.kind == PlainScalarKind::Bool) ||
            (type == "null" && r.kind == PlainScalarKind::Null);
        if (type != "int" && type != "float" && type != "bool" && type != "null")
            return charged(text, pos);
        if (!fits)
            throw LoadError{pos, "cannot read \"" + shortened(text) + "\" as !!" + type};
        if (type == "float") {
            const double d = r.value.get<double>();
            if (!std::isfinite(d))
                throw LoadError{pos, "\"" + text + "\" (infinity or NaN) cannot be represented in JSON"};
            return d;
        }
        return std::move(r.value);
    }

    // sigs.k8s.io/yaml turns int, bool and float keys into their text.
    std::string keyText(const YNode &key)
    {
        const SourcePos pos = toPos(key.Mark());
        if (key.IsNull())
            throw LoadError{pos, "map key is null; only scalar keys are supported"};
        if (!key.IsScalar())
            throw LoadError{pos, "map key is " + typeName(key) + "; only scalar keys are supported"};
        const std::string &tag = key.Tag();
        if (tag == "!")
            checkClosingQuote(key);
        if (tag != "?" && !tag.empty())
            return repairedUtf8(key.Scalar());
        const PlainScalar r = resolvePlainScalar(key.Scalar());
        switch (r.kind) {
        case PlainScalarKind::Null:
            throw LoadError{pos, "map key is null; only scalar keys are supported"};
        case PlainScalarKind::Bool:
            return r.value.get<bool>() ? "true" : "false";
        case PlainScalarKind::Int:
            return r.value.dump();
        case PlainScalarKind::Float:
            return formatGoFloat32(static_cast<float>(r.value.get<double>()));
        default:
            return key.Scalar();
        }
    }

    static bool isMergeKey(const YNode &key)
    {
        return key.IsScalar() && key.Tag() == "?" && key.Scalar() == "<<";
    }

    // The effective entries of a mapping: explicit keys (duplicates are errors) and then keys
    // brought in by "<<" merges that are not explicit; among several merged maps the first wins.
    std::vector<Entry> collectEntries(const YNode &map, int depth)
    {
        if (depth > kMaxDepth)
            throw LoadError{toPos(map.Mark()), "merge keys nest deeper than " + std::to_string(kMaxDepth) +
                                                   " levels (an alias that refers to itself?)"};
        std::vector<Entry> entries;
        std::map<std::string, SourcePos> seen;
        std::vector<const YNode *> merges;
        for (std::size_t i = 0; i < map.pairs(); ++i) {
            const YNode &key = map.key(i);
            if (isMergeKey(key)) {
                merges.push_back(&map.value(i));
                continue;
            }
            std::string text = keyText(key);
            const SourcePos pos = toPos(key.Mark());
            charge(text.size(), pos);
            const auto [where, inserted] = seen.emplace(text, pos);
            if (!inserted) {
                throw LoadError{pos, "duplicate key \"" + shortened(text) + "\" (first defined at line " +
                                         std::to_string(where->second.line) + ", column " +
                                         std::to_string(where->second.column) + ")"};
            }
            entries.push_back({std::move(text), &key, &map.value(i)});
        }
        for (const YNode *merge : merges) {
            std::vector<const YNode *> sources;
            if (merge->IsMap())
                sources.push_back(merge);
            else if (merge->IsSequence())
                sources = merge->children;
            if (sources.empty() && !merge->IsSequence())
                throw LoadError{toPos(merge->Mark()),
                                "the value of a \"<<\" merge key must be a map or a list of maps"};
            for (const YNode *source : sources) {
                if (!source->IsMap())
                    throw LoadError{toPos(source->Mark()),
                                    "the value of a \"<<\" merge key must be a map or a list of maps"};
                for (Entry &e : collectEntries(*source, depth + 1)) {
                    if (seen.emplace(e.key, toPos(e.keyNode->Mark())).second)
                        entries.push_back(std::move(e));
                }
            }
        }
        return entries;
    }

    Json convertMap(const YNode &node, const std::string &pointer, int depth)
    {
        Json object = Json::object();
        for (const Entry &e : collectEntries(node, depth)) {
            const std::string child = appendPointer(pointer, e.key);
            const SourcePos keyPos = toPos(e.keyNode->Mark());
            SourcePos valuePos = toPos(e.value->Mark());
            // An empty value ("key:" and nothing else) is marked where the next token starts.
            if (valuePos.line == 0 || (e.value->IsNull() && valuePos.line > keyPos.line))
                valuePos = keyPos;
            m_doc.keyPositions.emplace(child, keyPos);
            object[e.key] = convert(*e.value, child, valuePos, depth + 1);
        }
        return object;
    }

    YamlDocument &m_doc;
    const std::string &m_text;
    std::set<std::size_t> m_checkedQuotes;
    Budget &m_budget;
};

// The one pass of the parser over the text: it builds each document's nodes from the parser's
// events (as yaml-cpp's LoadAll does, one anchor table per document) and, on the same events,
// counts the nodes the text holds (the alias budget comes on top), enforces the limits above
// with the position of the offending node, and stops what yaml-cpp 0.7 cannot stop itself. Its
// LoadAll() loops for ever, adding an empty document each round, when a token cannot start a
// node at document level — a ',' outside any flow collection, as in "," or "[a], b": the
// document parser consumes nothing and the next document starts at the same token. Later
// yaml-cpp releases detect it the same way: a document that starts where the previous one
// started made no progress. Nothing is converted until the whole text has parsed, so a syntax
// error anywhere is reported before any problem a conversion would find.
class SourceReader final : public YAML::EventHandler
{
public:
    explicit SourceReader(const std::string &text) : m_text(text) {}

    std::size_t nodes() const { return m_nodes; }
    // The root of every document, in order.
    const std::vector<const YNode *> &documents() const { return m_roots; }

    void OnDocumentStart(const YAML::Mark &mark) override
    {
        if (m_documents > 0 && mark.pos == m_lastStart)
            throw LoadError{toPos(mark),
                            "unexpected " + tokenAt(mark) + " outside a flow collection ([...] or {...})",
                            true};
        if (++m_documents > kMaxDocuments)
            throw LoadError{toPos(mark),
                            "more than " + std::to_string(kMaxDocuments) + " documents in one file"};
        m_lastStart = mark.pos;
        m_anchors.assign(1, nullptr); // anchors start at 1, afresh in every document
        m_root = nullptr;
    }
    void OnDocumentEnd() override
    {
        if (!m_root) { // LoadAll's root of a document without a node: a null without a mark
            m_root = &m_arena.emplace_back();
        }
        m_roots.push_back(m_root);
    }
    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        ++m_nodes;
        attach(create(mark, anchor, YAML::NodeType::Null));
    }
    void OnAlias(const YAML::Mark &, YAML::anchor_t anchor) override
    {
        ++m_nodes;
        attach(anchor < m_anchors.size() ? m_anchors[anchor] : nullptr);
    }
    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override
    {
        ++m_nodes;
        if (value.size() > kMaxScalarBytes)
            throw LoadError{toPos(mark), "a scalar of " + std::to_string(value.size()) +
                                             " bytes is longer than the " + std::to_string(kMaxScalarBytes) +
                                             " bytes supported"};
        YNode *node = create(mark, anchor, YAML::NodeType::Scalar);
        node->tag = tag;
        node->scalar = value;
        attach(node);
    }
    void OnSequenceStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        enter(mark, tag, anchor, YAML::NodeType::Sequence);
    }
    void OnSequenceEnd() override { leave(); }
    void OnMapStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        enter(mark, tag, anchor, YAML::NodeType::Map);
    }
    void OnMapEnd() override { leave(); }

private:
    struct Open
    {
        YNode *node;
        const YNode *pendingKey = nullptr; // a map's key waiting for its value
    };

    YNode *create(const YAML::Mark &mark, YAML::anchor_t anchor, YAML::NodeType::value type)
    {
        YNode &node = m_arena.emplace_back();
        node.type = type;
        node.mark = mark;
        if (anchor != YAML::NullAnchor) {
            if (anchor >= m_anchors.size())
                m_anchors.resize(anchor + 1, nullptr);
            m_anchors[anchor] = &node;
        }
        return &node;
    }

    // A complete node joins the collection that is open (a map takes a key, then its value).
    void attach(const YNode *node)
    {
        if (!node)
            return;
        if (m_open.empty()) {
            m_root = node;
            return;
        }
        Open &parent = m_open.back();
        if (parent.node->type == YAML::NodeType::Sequence) {
            parent.node->children.push_back(node);
        } else if (!parent.pendingKey) {
            parent.pendingKey = node;
        } else {
            parent.node->children.push_back(parent.pendingKey);
            parent.node->children.push_back(node);
            parent.pendingKey = nullptr;
        }
    }

    void enter(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
               YAML::NodeType::value type)
    {
        ++m_nodes;
        if (static_cast<int>(m_open.size()) + 1 > kMaxDepth)
            throw LoadError{toPos(mark),
                            "nesting deeper than " + std::to_string(kMaxDepth) + " levels is not supported"};
        YNode *node = create(mark, anchor, type);
        node->tag = tag;
        m_open.push_back({node});
    }

    void leave()
    {
        if (m_open.empty())
            return;
        const YNode *node = m_open.back().node;
        m_open.pop_back();
        attach(node);
    }

    std::string tokenAt(const YAML::Mark &mark) const
    {
        if (mark.pos >= 0 && static_cast<std::size_t>(mark.pos) < m_text.size()) {
            const char c = m_text[static_cast<std::size_t>(mark.pos)];
            if (std::ispunct(static_cast<unsigned char>(c)))
                return std::string("'") + c + "'";
        }
        return "token";
    }

    const std::string &m_text;
    std::size_t m_nodes = 0;
    std::size_t m_documents = 0;
    int m_lastStart = -1;
    std::deque<YNode> m_arena; // stable addresses: nodes point at each other
    std::vector<Open> m_open;
    std::vector<YNode *> m_anchors;
    const YNode *m_root = nullptr;
    std::vector<const YNode *> m_roots;
};

// Counts the nodes the documents expand to before any is converted, so that a billion laughs is
// refused at once instead of after a million conversions. A collection reached again through
// an alias is measured once (by where it starts: distinct collections start at distinct
// places); an alias inside its own anchor is left to the converter, which names the cycle.
class ExpansionCheck
{
public:
    explicit ExpansionCheck(std::size_t budget) : m_left(budget) {}

    void visit(const YNode &node, int depth)
    {
        if (depth > kMaxDepth)
            return;
        take(1, node);
        if (!node.IsMap() && !node.IsSequence())
            return;
        const int start = node.Mark().pos;
        if (const auto it = m_sizes.find(start); it != m_sizes.end()) {
            if (it->second != kInProgress)
                take(it->second - 1, node);
            return;
        }
        m_sizes[start] = kInProgress;
        const std::size_t before = m_left;
        // A map's children are its keys and values in turn, visited in the order written.
        for (const YNode *child : node.children)
            visit(*child, depth + 1);
        m_sizes[start] = before - m_left + 1;
    }

private:
    static constexpr std::size_t kInProgress = 0;

    void take(std::size_t n, const YNode &node)
    {
        if (n > m_left)
            throw LoadError{toPos(node.Mark()), "the file expands by more than " +
                                                    std::to_string(kMaxAliasNodes) +
                                                    " nodes through aliases"};
        m_left -= n;
    }

    std::size_t m_left;
    std::map<int, std::size_t> m_sizes; // subtree size by start position
};

std::size_t firstContent(const std::string &text)
{
    std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
    return i;
}

bool looksLikeJson(const std::string &text)
{
    const std::size_t i = firstContent(text);
    return i < text.size() && (text[i] == '{' || text[i] == '[');
}

// nlohmann's diagnosis of malformed JSON: "at line L, column C: <what>".
std::optional<std::pair<SourcePos, std::string>> jsonError(const std::string &text)
{
    if (Json::accept(text))
        return std::nullopt;
    try {
        const Json ignored = Json::parse(text);
    } catch (const Json::parse_error &e) {
        const std::string what = e.what();
        SourcePos pos;
        std::string message = what;
        const std::size_t at = what.find(" at line ");
        if (at != std::string::npos &&
            std::sscanf(what.c_str() + at, " at line %d, column %d", &pos.line, &pos.column) == 2) {
            const std::size_t colon = what.find(": ", at);
            if (colon != std::string::npos)
                message = what.substr(colon + 2);
        }
        return std::make_pair(pos, shortened(message, 300));
    } catch (const std::exception &e) {
        return std::make_pair(SourcePos{}, std::string(e.what()));
    }
    return std::nullopt;
}

// yaml-cpp reports tab indentation with various messages ("illegal map value", "illegal tab
// when looking for indentation"). Name the tab instead: the nearest tab-indented line at or
// before the failure.
std::optional<SourcePos> tabIndentation(const std::string &text, int errorLine)
{
    std::optional<SourcePos> found;
    int line = 1;
    std::size_t i = 0;
    while (i < text.size() && (errorLine <= 0 || line <= errorLine)) {
        std::size_t end = text.find('\n', i);
        if (end == std::string::npos)
            end = text.size();
        std::size_t k = i;
        std::optional<int> tabColumn;
        while (k < end && (text[k] == ' ' || text[k] == '\t')) {
            if (text[k] == '\t' && !tabColumn)
                tabColumn = static_cast<int>(k - i) + 1;
            ++k;
        }
        if (tabColumn && k < end && text[k] != '\r')
            found = SourcePos{line, *tabColumn};
        i = end + 1;
        ++line;
    }
    return found;
}

ApiStatus parseError(const std::string &file, SourcePos pos, const std::string &what)
{
    return ApiStatus::badRequest(located(file, pos, what));
}

// yaml-cpp's wording for the usual indentation mistakes is terse; say what to look at.
std::string explainYamlCppMessage(const std::string &msg)
{
    if (msg == "end of map not found" || msg == "end of sequence not found")
        return "wrong indentation: " + msg;
    if (msg == "illegal map value")
        return "illegal map value (a \": \" where a value was expected, or wrong indentation)";
    return msg;
}

} // namespace

std::string appendPointer(const std::string &pointer, const std::string &key)
{
    std::string out = pointer;
    out.reserve(pointer.size() + key.size() + 1);
    out += '/';
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

SourcePos YamlDocument::posOf(const std::string &pointer) const
{
    std::string p = pointer;
    for (;;) {
        if (auto it = positions.find(p); it != positions.end())
            return it->second;
        if (p.empty())
            return {};
        const std::size_t slash = p.rfind('/');
        p.resize(slash == std::string::npos ? 0 : slash);
    }
}

std::string YamlDocument::where(const std::string &pointer) const
{
    const SourcePos pos = posOf(pointer);
    if (pos.line <= 0)
        return file;
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

Result<std::vector<YamlDocument>> parseYamlDocuments(const std::string &text, const std::string &fileName,
                                                     YamlPositions positions)
{
    const std::string file = fileName.empty() ? std::string("<input>") : fileName;
    if (auto docs = detail::parseYamlDocumentsFast(text, file, positions))
        return std::move(*docs);
    return detail::parseYamlDocumentsSlow(text, fileName);
}

Result<std::vector<YamlDocument>> detail::parseYamlDocumentsSlow(const std::string &text,
                                                                 const std::string &fileName)
{
    const std::string file = fileName.empty() ? std::string("<input>") : fileName;
    const bool json = looksLikeJson(text);
    if (auto bad = invalidUtf8(text)) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", bad->second);
        return parseError(file, bad->first, std::string("invalid UTF-8 (byte ") + hex + ")");
    }
    if (auto bad = controlCharacter(text)) {
        char code[12];
        std::snprintf(code, sizeof code, "U+%04X", bad->second);
        return parseError(file, bad->first, std::string("control character ") + code + " is not allowed");
    }

    SourceReader reader(text);
    Budget budget;
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(reader)) {
        }
        budget.nodes = reader.nodes() + kMaxAliasNodes;
        budget.bytes = text.size() + kMaxAliasBytes;
    } catch (const LoadError &e) {
        if (json && e.syntax) {
            if (auto err = jsonError(text))
                return parseError(file, err->first, err->second);
        }
        return parseError(file, e.pos, e.message);
    } catch (const YAML::DeepRecursion &e) {
        return parseError(file, toPos(e.mark),
                          "nesting deeper than " + std::to_string(e.depth()) + " levels is not supported");
    } catch (const YAML::Exception &e) {
        if (json) {
            if (auto err = jsonError(text))
                return parseError(file, err->first, err->second);
        }
        SourcePos pos = toPos(e.mark);
        if (pos.line == 0)
            pos = endOf(text);
        if (!json) {
            if (auto tab = tabIndentation(text, pos.line))
                return parseError(file, *tab, "tabs are not allowed for indentation");
        }
        return parseError(file, pos, explainYamlCppMessage(e.msg));
    } catch (const std::exception &e) {
        return parseError(file, {}, e.what());
    }
    if (json) {
        // yaml-cpp accepts some truncated flow text; nlohmann does not.
        if (auto err = jsonError(text);
            err && err->second.find("unexpected end of input") != std::string::npos)
            return parseError(file, err->first, err->second);
    }

    std::vector<YamlDocument> docs;
    try {
        ExpansionCheck expansion(budget.nodes);
        for (const YNode *node : reader.documents())
            expansion.visit(*node, 0);
    } catch (const LoadError &e) {
        return parseError(file, e.pos, e.message);
    }
    for (const YNode *document : reader.documents()) {
        const YNode &node = *document;
        if (node.IsNull() && node.Tag() != kStrTag)
            continue;
        YamlDocument doc;
        doc.file = file;
        SourcePos root = toPos(node.Mark());
        if (root.line == 0)
            root = {1, 1};
        try {
            Converter converter(doc, text, budget);
            doc.value = converter.convert(node, "", root, 0);
        } catch (const LoadError &e) {
            return parseError(file, e.pos, e.message);
        } catch (const YAML::Exception &e) {
            return parseError(file, toPos(e.mark), e.msg);
        }
        docs.push_back(std::move(doc));
    }
    return docs;
}

Result<std::string> readYamlFile(const std::string &path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        return ApiStatus{404, "NotFound", path + ": file not found"};
    if (std::filesystem::is_directory(status))
        return ApiStatus::badRequest(path + ": is a directory, not a file");
    // In blocks through stdio: a stream iterator copied the text a character at a time.
    std::FILE *in = std::fopen(path.c_str(), "rb");
    if (!in)
        return ApiStatus::badRequest(path + ": cannot open file: " + std::strerror(errno));
    std::string text;
    char buffer[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, in)) > 0)
        text.append(buffer, n);
    const bool failed = std::ferror(in) != 0;
    const int error = errno;
    std::fclose(in);
    if (failed)
        return ApiStatus::badRequest(path + ": cannot read file: " + std::strerror(error));
    if (text.empty())
        return ApiStatus::badRequest(path + ": file is empty");
    return text;
}

Result<std::vector<YamlDocument>> parseYamlFile(const std::string &text, const std::string &path,
                                                YamlPositions positions)
{
    auto docs = parseYamlDocuments(text, path, positions);
    if (docs.ok() && docs->empty())
        return ApiStatus::badRequest(path +
                                     ": file contains no YAML document (only blank lines or comments)");
    return docs;
}

Result<std::vector<YamlDocument>> loadYamlFile(const std::string &path)
{
    auto text = readYamlFile(path);
    if (!text)
        return text.error();
    return parseYamlFile(*text, path);
}

} // namespace kube
