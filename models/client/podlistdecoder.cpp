#include "models/client/podlistdecoder.h"

#include "models/kube/gojson.h"
#include "models/kube/jsonfield.h"
#include "models/kube/jsonlimits.h"
#include "models/kube/jsonsax.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace client {

using kube::ApiStatus;
using kube::Json;
using kube::Result;

namespace {

ApiStatus decodeError(const std::string &message)
{
    return {0, "DecodeError", message};
}

// One item as the parser's events, kept flat: strings in one buffer, each collection's start
// pointing past its end so that a member the record does not read is skipped in one step.
// Both buffers are reused from item to item, so reading an item allocates nothing once they
// have grown to the largest item.
enum class Tok : std::uint8_t { Object, Array, End, Key, String, Int, Uint, Float, True, False, Null };

struct Token
{
    Tok kind;
    std::uint32_t next = 0;  // Object, Array: the index past their End; otherwise this index + 1
    std::uint64_t value = 0; // String, Key: offset in the text buffer; numbers: their bits
    std::uint32_t size = 0;  // String, Key: length
};

class ItemTape
{
public:
    void clear()
    {
        m_tokens.clear();
        m_text.clear();
        m_open.clear();
    }
    bool empty() const { return m_tokens.empty(); }

    void open(Tok kind)
    {
        m_open.push_back(static_cast<std::uint32_t>(m_tokens.size()));
        m_tokens.push_back({kind});
    }
    // Returns true when the outermost collection closed.
    bool close()
    {
        const std::uint32_t start = m_open.back();
        m_open.pop_back();
        m_tokens.push_back({Tok::End});
        m_tokens[start].next = static_cast<std::uint32_t>(m_tokens.size());
        return m_open.empty();
    }
    void text(Tok kind, const std::string &s)
    {
        const auto index = static_cast<std::uint32_t>(m_tokens.size());
        m_tokens.push_back({kind, index + 1, m_text.size(), static_cast<std::uint32_t>(s.size())});
        m_text += s;
    }
    void number(Tok kind, std::uint64_t bits)
    {
        const auto index = static_cast<std::uint32_t>(m_tokens.size());
        m_tokens.push_back({kind, index + 1, bits, 0});
    }

    const Token &operator[](std::uint32_t i) const { return m_tokens[i]; }
    std::string_view str(std::uint32_t i) const
    {
        return {m_text.data() + m_tokens[i].value, m_tokens[i].size};
    }
    std::uint32_t next(std::uint32_t i) const { return m_tokens[i].next; }

    // The value at `i` as JSON, objects built as nlohmann's parser builds them (a repeated key
    // keeps its last value).
    Json toJson(std::uint32_t i) const
    {
        const Token &t = m_tokens[i];
        switch (t.kind) {
        case Tok::Object: {
            Json object = Json::object();
            for (std::uint32_t k = i + 1; m_tokens[k].kind != Tok::End;) {
                const std::uint32_t v = k + 1;
                object[std::string(str(k))] = toJson(v);
                k = next(v);
            }
            return object;
        }
        case Tok::Array: {
            Json array = Json::array();
            for (std::uint32_t k = i + 1; m_tokens[k].kind != Tok::End; k = next(k))
                array.push_back(toJson(k));
            return array;
        }
        case Tok::String:
        case Tok::Key:
            return std::string(str(i));
        case Tok::Int:
            return static_cast<std::int64_t>(t.value);
        case Tok::Uint:
            return t.value;
        case Tok::Float: {
            double d;
            std::memcpy(&d, &t.value, sizeof d);
            return d;
        }
        case Tok::True:
            return true;
        case Tok::False:
            return false;
        default:
            return nullptr;
        }
    }

    // Appends the value at `i` to `out` in a self-delimiting binary form: equal forms mean equal
    // values, so specs are compared and hashed as bytes.
    void appendCanonical(std::uint32_t i, std::string &out) const
    {
        const std::uint32_t end = next(i);
        for (std::uint32_t k = i; k < end; ++k)
            appendToken(k, out);
    }
    void appendToken(std::uint32_t k, std::string &out) const
    {
        const Token &t = m_tokens[k];
        out += static_cast<char>(t.kind);
        if (t.kind == Tok::Key || t.kind == Tok::String) {
            out.append(reinterpret_cast<const char *>(&t.size), sizeof t.size);
            out.append(m_text, t.value, t.size);
        } else if (t.kind == Tok::Int || t.kind == Tok::Uint || t.kind == Tok::Float) {
            out.append(reinterpret_cast<const char *>(&t.value), sizeof t.value);
        }
    }

private:
    std::vector<Token> m_tokens;
    std::string m_text;
    std::vector<std::uint32_t> m_open;
};

// Reads the canonical form written by ItemTape::appendCanonical back into JSON.
class CanonicalReader
{
public:
    explicit CanonicalReader(std::string_view bytes) : m_bytes(bytes) {}

    Json value()
    {
        const auto kind = static_cast<Tok>(m_bytes[m_pos++]);
        switch (kind) {
        case Tok::Object: {
            Json object = Json::object();
            while (static_cast<Tok>(m_bytes[m_pos]) != Tok::End) {
                ++m_pos; // Key
                std::string key = text();
                object[std::move(key)] = value();
            }
            ++m_pos;
            return object;
        }
        case Tok::Array: {
            Json array = Json::array();
            while (static_cast<Tok>(m_bytes[m_pos]) != Tok::End)
                array.push_back(value());
            ++m_pos;
            return array;
        }
        case Tok::String:
        case Tok::Key:
            return text();
        case Tok::Int:
            return static_cast<std::int64_t>(bits());
        case Tok::Uint:
            return bits();
        case Tok::Float: {
            const std::uint64_t b = bits();
            double d;
            std::memcpy(&d, &b, sizeof d);
            return d;
        }
        case Tok::True:
            return true;
        case Tok::False:
            return false;
        default:
            return nullptr;
        }
    }

private:
    std::string text()
    {
        std::uint32_t size;
        std::memcpy(&size, m_bytes.data() + m_pos, sizeof size);
        m_pos += sizeof size;
        std::string s(m_bytes.substr(m_pos, size));
        m_pos += size;
        return s;
    }
    std::uint64_t bits()
    {
        std::uint64_t b;
        std::memcpy(&b, m_bytes.data() + m_pos, sizeof b);
        m_pos += sizeof b;
        return b;
    }

    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

// The members of the object at `i`, or nothing when a key repeats: the fast reader below then
// declines, and the DOM reading (where the last value wins) decides.
struct Members
{
    std::vector<std::pair<std::string_view, std::uint32_t>> list; // key, index of the value
};

bool membersOf(const ItemTape &tape, std::uint32_t i, Members &out)
{
    out.list.clear();
    for (std::uint32_t k = i + 1; tape[k].kind != Tok::End;) {
        const std::string_view key = tape.str(k);
        for (const auto &m : out.list)
            if (m.first == key)
                return false;
        out.list.emplace_back(key, k + 1);
        k = tape.next(k + 1);
    }
    return true;
}

bool isNull(const ItemTape &tape, std::uint32_t i)
{
    return tape[i].kind == Tok::Null;
}

// Times already read: pods of one list share creation, start and transition times often enough
// that reading each text once is worth a lookup.
class TimeCache
{
public:
    std::optional<kube::Timestamp> parse(std::string_view text)
    {
        if (const auto it = m_known.find(text); it != m_known.end())
            return it->second;
        auto t = kube::parseRfc3339(std::string(text));
        if (!t)
            return std::nullopt;
        if (m_known.size() >= 4096)
            m_known.clear();
        m_known.emplace(std::string(text), *t);
        return *t;
    }

private:
    struct Hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, kube::Timestamp, Hash, std::equal_to<>> m_known;
};

// The record straight from the item's events, for the shapes a server sends. Returns false when
// the item holds anything the fast reader does not decide exactly as Pod::fromJson does (a
// wrong type, a repeated key, an affinity it does not recognise): the caller then reads the item
// through a DOM, so both readings always agree.
class PodReader
{
public:
    PodReader(const ItemTape &tape, TimeCache &times) : m_tape(tape), m_times(times) {}

    // `spec` receives the canonical form of the shared spec (without nodeName and the node
    // pin); `hasSpec` tells whether the pod has one.
    bool read(kube::Pod &pod, std::string &spec, bool &hasSpec)
    {
        Members top;
        if (m_tape[0].kind != Tok::Object || !membersOf(m_tape, 0, top))
            return false;
        hasSpec = false;
        for (const auto &[key, v] : top.list) {
            if (key == "metadata") {
                if (!isNull(m_tape, v) && !readMeta(v, pod.metadata))
                    return false;
            } else if (key == "spec") {
                if (!isNull(m_tape, v)) {
                    if (!readSpec(v, pod, spec))
                        return false;
                    hasSpec = true;
                }
            } else if (key == "status") {
                if (m_tape[v].kind == Tok::Object && !readStatus(v, pod))
                    return false;
            }
        }
        return true;
    }

private:
    bool string(std::uint32_t v, std::string &out) const
    {
        if (m_tape[v].kind == Tok::Null)
            return true;
        if (m_tape[v].kind != Tok::String)
            return false;
        out.assign(m_tape.str(v));
        return true;
    }

    bool int64(std::uint32_t v, std::int64_t &out) const
    {
        if (m_tape[v].kind == Tok::Int) {
            out = static_cast<std::int64_t>(m_tape[v].value);
            return true;
        }
        if (m_tape[v].kind == Tok::Uint && m_tape[v].value <= std::uint64_t(INT64_MAX)) {
            out = static_cast<std::int64_t>(m_tape[v].value);
            return true;
        }
        return false;
    }

    bool time(std::uint32_t v, std::optional<kube::Timestamp> &out) const
    {
        if (m_tape[v].kind == Tok::Null)
            return true;
        if (m_tape[v].kind != Tok::String)
            return false;
        const auto t = m_times.parse(m_tape.str(v));
        if (!t)
            return false;
        out = *t;
        return true;
    }

    bool stringMap(std::uint32_t v, kube::StringMap &out) const
    {
        if (m_tape[v].kind == Tok::Null)
            return true;
        if (m_tape[v].kind != Tok::Object)
            return false;
        for (std::uint32_t k = v + 1; m_tape[k].kind != Tok::End; k = m_tape.next(k + 1)) {
            if (m_tape[k + 1].kind != Tok::String)
                return false;
            out.insert_or_assign(std::string(m_tape.str(k)), std::string(m_tape.str(k + 1)));
        }
        return true;
    }

    bool readOwner(std::uint32_t v, kube::OwnerReference &r) const
    {
        Members m;
        if (m_tape[v].kind != Tok::Object || !membersOf(m_tape, v, m))
            return false;
        for (const auto &[key, x] : m.list) {
            if (key == "apiVersion" || key == "kind" || key == "name" || key == "uid") {
                std::string &dst = key == "apiVersion" ? r.apiVersion
                                   : key == "kind"     ? r.kind
                                   : key == "name"     ? r.name
                                                       : r.uid;
                if (!string(x, dst))
                    return false;
            } else if (key == "controller" || key == "blockOwnerDeletion") {
                const Tok kind = m_tape[x].kind;
                if (kind == Tok::True || kind == Tok::False)
                    (key == "controller" ? r.controller : r.blockOwnerDeletion) = kind == Tok::True;
            }
        }
        return true;
    }

    bool readMeta(std::uint32_t v, kube::ObjectMeta &meta) const
    {
        Members m;
        if (m_tape[v].kind != Tok::Object || !membersOf(m_tape, v, m))
            return false;
        for (const auto &[key, x] : m.list) {
            bool ok = true;
            if (key == "name")
                ok = string(x, meta.name);
            else if (key == "generateName")
                ok = string(x, meta.generateName);
            else if (key == "namespace")
                ok = string(x, meta.namespace_);
            else if (key == "uid")
                ok = string(x, meta.uid);
            else if (key == "resourceVersion")
                ok = string(x, meta.resourceVersion);
            else if (key == "generation")
                ok = int64(x, meta.generation);
            else if (key == "creationTimestamp")
                ok = time(x, meta.creationTimestamp);
            else if (key == "deletionTimestamp")
                ok = time(x, meta.deletionTimestamp);
            else if (key == "deletionGracePeriodSeconds") {
                std::int64_t seconds = 0;
                if (!isNull(m_tape, x)) {
                    ok = int64(x, seconds);
                    meta.deletionGracePeriodSeconds = seconds;
                }
            } else if (key == "labels")
                ok = stringMap(x, meta.labels);
            else if (key == "annotations")
                ok = stringMap(x, meta.annotations);
            else if (key == "ownerReferences") {
                if (!isNull(m_tape, x)) {
                    ok = m_tape[x].kind == Tok::Array;
                    for (std::uint32_t k = x + 1; ok && m_tape[k].kind != Tok::End; k = m_tape.next(k))
                        ok = readOwner(k, meta.ownerReferences.emplace_back());
                }
            } else if (key == "finalizers") {
                if (!isNull(m_tape, x)) {
                    ok = m_tape[x].kind == Tok::Array;
                    for (std::uint32_t k = x + 1; ok && m_tape[k].kind != Tok::End; k = m_tape.next(k)) {
                        ok = m_tape[k].kind == Tok::String;
                        if (ok)
                            meta.finalizers.emplace_back(m_tape.str(k));
                    }
                }
            } else {
                meta.extra[std::string(key)] = m_tape.toJson(x);
            }
            if (!ok)
                return false;
        }
        return true;
    }

    // The one pin a DaemonSet pod carries, written as the API server's encoder writes it:
    // affinity {nodeAffinity {requiredDuringSchedulingIgnoredDuringExecution {nodeSelectorTerms
    // [{matchFields [{key: metadata.name, operator: In, values: [NODE]}]}]}}} and nothing else.
    // Sets `node` and returns true for exactly that shape.
    bool nodePin(std::uint32_t v, std::string &node) const
    {
        const auto only = [&](std::uint32_t at, std::string_view key) -> std::uint32_t {
            if (m_tape[at].kind != Tok::Object || m_tape[at + 1].kind != Tok::Key ||
                m_tape.str(at + 1) != key)
                return 0;
            const std::uint32_t value = at + 2;
            return m_tape[m_tape.next(value)].kind == Tok::End ? value : 0;
        };
        const auto single = [&](std::uint32_t at) -> std::uint32_t {
            if (at == 0 || m_tape[at].kind != Tok::Array || m_tape[at + 1].kind == Tok::End)
                return 0;
            return m_tape[m_tape.next(at + 1)].kind == Tok::End ? at + 1 : 0;
        };
        std::uint32_t at = only(v, "nodeAffinity");
        at = at ? only(at, "requiredDuringSchedulingIgnoredDuringExecution") : 0;
        at = at ? single(only(at, "nodeSelectorTerms")) : 0;
        at = at ? single(only(at, "matchFields")) : 0;
        Members m;
        if (!at || m_tape[at].kind != Tok::Object || !membersOf(m_tape, at, m) || m.list.size() != 3)
            return false;
        std::uint32_t values = 0;
        bool key = false, op = false;
        for (const auto &[k, x] : m.list) {
            if (k == "key")
                key = m_tape[x].kind == Tok::String && m_tape.str(x) == "metadata.name";
            else if (k == "operator")
                op = m_tape[x].kind == Tok::String && m_tape.str(x) == "In";
            else if (k == "values")
                values = single(x);
        }
        if (!key || !op || !values || m_tape[values].kind != Tok::String)
            return false;
        node.assign(m_tape.str(values));
        return true;
    }

    bool readSpec(std::uint32_t v, kube::Pod &pod, std::string &spec) const
    {
        Members m;
        if (m_tape[v].kind != Tok::Object || !membersOf(m_tape, v, m))
            return false;
        spec.clear();
        spec += static_cast<char>(Tok::Object);
        for (const auto &[key, x] : m.list) {
            if (key == "nodeName") {
                if (m_tape[x].kind == Tok::String)
                    pod.nodeName.assign(m_tape.str(x));
                continue;
            }
            if (key == "affinity" && !isNull(m_tape, x)) {
                if (!nodePin(x, pod.targetNode))
                    return false;
                continue;
            }
            m_tape.appendToken(x - 1, spec);
            m_tape.appendCanonical(x, spec);
        }
        spec += static_cast<char>(Tok::End);
        return true;
    }

    bool readStatus(std::uint32_t v, kube::Pod &pod) const
    {
        Members m;
        if (!membersOf(m_tape, v, m))
            return false;
        Members inner;
        for (const auto &[key, x] : m.list) {
            if (key == "phase") {
                if (m_tape[x].kind == Tok::String)
                    pod.phase.assign(m_tape.str(x));
            } else if (key == "conditions" && m_tape[x].kind == Tok::Array) {
                for (std::uint32_t c = x + 1; m_tape[c].kind != Tok::End; c = m_tape.next(c)) {
                    if (m_tape[c].kind != Tok::Object)
                        continue;
                    if (!membersOf(m_tape, c, inner))
                        return false;
                    const auto field = [&](std::string_view name) -> std::uint32_t {
                        for (const auto &[k, y] : inner.list)
                            if (k == name)
                                return y;
                        return 0;
                    };
                    const std::uint32_t type = field("type");
                    if (!type || m_tape[type].kind != Tok::String || m_tape.str(type) != "Ready")
                        continue;
                    const std::uint32_t status = field("status");
                    pod.ready = status && m_tape[status].kind == Tok::String && m_tape.str(status) == "True";
                    if (const std::uint32_t lt = field("lastTransitionTime");
                        lt && m_tape[lt].kind == Tok::String) {
                        if (const auto t = m_times.parse(m_tape.str(lt)))
                            pod.readyTransitionTime = *t;
                    }
                }
            } else if (key == "startTime" && m_tape[x].kind == Tok::String) {
                if (const auto t = m_times.parse(m_tape.str(x)))
                    pod.startTime = *t;
            } else if (key == "containerStatuses" && m_tape[x].kind == Tok::Array) {
                for (std::uint32_t c = x + 1; m_tape[c].kind != Tok::End; c = m_tape.next(c)) {
                    if (m_tape[c].kind != Tok::Object)
                        continue;
                    if (!readContainerStatus(c, pod))
                        return false;
                }
            }
        }
        return true;
    }

    bool readContainerStatus(std::uint32_t c, kube::Pod &pod) const
    {
        Members m;
        if (!membersOf(m_tape, c, m))
            return false;
        std::int64_t restarts = 0;
        for (const auto &[key, x] : m.list) {
            if (key == "restartCount") {
                std::int64_t n = 0;
                if (int64(x, n) && n >= INT_MIN && n <= INT_MAX)
                    restarts = std::max<std::int64_t>(0, n);
            } else if (key == "state" && !isNull(m_tape, x) && pod.waitingReason.empty()) {
                Members state;
                if (m_tape[x].kind != Tok::Object)
                    continue;
                if (!membersOf(m_tape, x, state))
                    return false;
                for (const auto &[k, w] : state.list) {
                    if (k != "waiting" || isNull(m_tape, w) || m_tape[w].kind != Tok::Object)
                        continue;
                    Members waiting;
                    if (!membersOf(m_tape, w, waiting))
                        return false;
                    for (const auto &[r, reason] : waiting.list)
                        if (r == "reason" && m_tape[reason].kind == Tok::String)
                            pod.waitingReason.assign(m_tape.str(reason));
                }
            }
        }
        pod.restartCount = static_cast<int>(std::min<std::int64_t>(pod.restartCount + restarts, INT_MAX));
        return true;
    }

    const ItemTape &m_tape;
    TimeCache &m_times;
};

class PodListSax : public nlohmann::json_sax<Json>
{
public:
    PodListSax(PodListDecoder &decoder, PodListPage &page) : m_decoder(decoder), m_page(page) {}

    std::string error;

    bool null() override { return scalar(Tok::Null, 0); }
    bool boolean(bool v) override { return scalar(v ? Tok::True : Tok::False, 0); }
    bool number_integer(number_integer_t v) override
    {
        if (m_inItem) {
            m_item.number(Tok::Int, static_cast<std::uint64_t>(v));
            return true;
        }
        if (m_depth == 2 && m_inMetadata && m_metaKey == "remainingItemCount")
            m_page.remainingItemCount = v;
        return outside();
    }
    bool number_unsigned(number_unsigned_t v) override
    {
        if (m_inItem) {
            m_item.number(Tok::Uint, v);
            return true;
        }
        if (m_depth == 2 && m_inMetadata && m_metaKey == "remainingItemCount")
            m_page.remainingItemCount = static_cast<std::int64_t>(v); // as Json::get<std::int64_t> reads it
        return outside();
    }
    bool number_float(number_float_t v, const string_t &) override
    {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return scalar(Tok::Float, bits);
    }
    bool string(string_t &v) override
    {
        if (m_inItem) {
            m_item.text(Tok::String, v);
            return true;
        }
        if (m_depth == 2 && m_inMetadata) {
            if (m_metaKey == "resourceVersion")
                m_page.resourceVersion = std::move(v);
            else if (m_metaKey == "continue")
                m_page.continueToken = std::move(v);
        }
        return outside();
    }
    bool binary(binary_t &) override { return true; }

    bool start_object(std::size_t) override { return open(Tok::Object); }
    bool start_array(std::size_t) override { return open(Tok::Array); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t &k) override
    {
        if (m_inItem) {
            m_item.text(Tok::Key, k);
        } else if (m_depth == 1) {
            m_topKey = std::move(k);
        } else if (m_depth == 2 && m_inMetadata) {
            m_metaKey = std::move(k);
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string &,
                     const nlohmann::detail::exception &ex) override
    {
        error = "pod list is not valid JSON at byte " + std::to_string(position) + ": " + ex.what();
        return false;
    }

private:
    bool scalar(Tok kind, std::uint64_t bits)
    {
        if (m_inItem) {
            m_item.number(kind, bits);
            return true;
        }
        return outside();
    }

    // A scalar outside the items: only its place can be wrong.
    bool outside()
    {
        if (m_depth == 2 && m_inItems) {
            error = "pod list item " + std::to_string(m_page.items.size()) + " is not an object";
            return false;
        }
        if (m_depth == 0) {
            error = "pod list is not a JSON object";
            return false;
        }
        return true;
    }

    bool open(Tok kind)
    {
        // nlohmann's SAX parser does not recurse, but specs and unknown metadata built from the
        // item are copied, compared and hashed recursively later on.
        if (m_depth >= kube::JsonLimits::maxDepth) {
            error = "pod list is refused: " + kube::JsonLimits::tooDeepMessage();
            return false;
        }
        ++m_depth;
        if (m_inItem) {
            m_item.open(kind);
            return true;
        }
        if (m_depth == 1 && kind != Tok::Object) {
            error = "pod list is not a JSON object";
            return false;
        }
        if (m_depth == 2 && m_topKey == "items" && kind == Tok::Array)
            m_inItems = true;
        else if (m_depth == 2 && m_topKey == "metadata" && kind == Tok::Object)
            m_inMetadata = true;
        else if (m_depth == 3 && m_inItems) {
            if (kind != Tok::Object) {
                error = "pod list item " + std::to_string(m_page.items.size()) + " is not an object";
                return false;
            }
            m_item.clear();
            m_item.open(kind);
            m_inItem = true;
        }
        return true;
    }

    bool close()
    {
        --m_depth;
        if (m_inItem) {
            if (!m_item.close())
                return true;
            m_inItem = false;
            return finishItem();
        }
        if (m_depth == 1) {
            m_inItems = false;
            m_inMetadata = false;
        }
        return true;
    }

    bool finishItem()
    {
        kube::Pod pod;
        bool hasSpec = false;
        if (PodReader(m_item, m_times).read(pod, m_spec, hasSpec)) {
            if (hasSpec)
                pod.spec = m_decoder.internCanonical(m_spec);
            m_page.items.push_back(std::move(pod));
            return true;
        }
        // Something the fast reader leaves to the DOM reading (and its messages).
        auto read = kube::Pod::fromJson(m_item.toJson(0));
        if (!read) {
            error = "pod list item " + std::to_string(m_page.items.size()) + ": " + read.error().message;
            return false;
        }
        m_decoder.intern(*read);
        m_page.items.push_back(std::move(*read));
        return true;
    }

    PodListDecoder &m_decoder;
    PodListPage &m_page;
    ItemTape m_item;
    TimeCache m_times;
    std::string m_spec;
    bool m_inItem = false;
    int m_depth = 0;
    bool m_inItems = false;
    bool m_inMetadata = false;
    std::string m_topKey;
    std::string m_metaKey;
};

} // namespace

Result<PodListPage> PodListDecoder::decode(std::string_view json)
{
    PodListPage page;
    PodListSax sax(*this, page);
    bool ok = kube::parseJsonSax(json, sax) == kube::SaxResult::Ok;
    std::string error = std::move(sax.error);
    if (!ok && error.empty()) {
        // Not JSON: nlohmann's reader says where and why (it agrees that the text is invalid).
        page = PodListPage();
        PodListSax again(*this, page);
        ok = Json::sax_parse(json.begin(), json.end(), &again);
        error = std::move(again.error);
    }
    if (!ok || !error.empty())
        return decodeError(error.empty() ? std::string("pod list could not be decoded") : error);
    return page;
}

Result<PodListPage> PodListDecoder::decodeWithDom(std::string_view json)
{
    auto parsed = kube::JsonLimits::parse(json);
    if (!parsed)
        return decodeError("pod list is refused: " + parsed.error().message);
    const Json &j = *parsed;
    if (!j.is_object())
        return decodeError("pod list is not a JSON object");
    PodListPage page;
    if (auto m = j.find("metadata"); m != j.end() && m->is_object()) {
        page.resourceVersion = kube::stringOr(*m, "resourceVersion");
        page.continueToken = kube::stringOr(*m, "continue");
        if (auto r = m->find("remainingItemCount"); r != m->end() && r->is_number_integer())
            page.remainingItemCount = r->get<std::int64_t>();
    }
    if (auto items = j.find("items"); items != j.end() && items->is_array()) {
        page.items.reserve(items->size());
        for (const auto &item : *items) {
            auto pod = kube::Pod::fromJson(item);
            if (!pod)
                return decodeError("pod list item " + std::to_string(page.items.size()) + ": " +
                                   pod.error().message);
            intern(*pod);
            page.items.push_back(std::move(*pod));
        }
    }
    return page;
}

void PodListDecoder::intern(kube::Pod &pod)
{
    if (!pod.spec)
        return;
    if (m_specCount > kMaxSpecs) { // many distinct templates: stop growing, start over
        m_specs.clear();
        m_specsByEvents.clear();
        m_specCount = 0;
    }
    auto &bucket = m_specs[std::hash<Json>{}(*pod.spec)];
    for (const auto &known : bucket) {
        if (*known == *pod.spec) {
            pod.spec = known;
            return;
        }
    }
    bucket.push_back(pod.spec);
    ++m_specCount;
}

std::shared_ptr<const kube::Json> PodListDecoder::internCanonical(const std::string &events)
{
    if (const auto it = m_specsByEvents.find(events); it != m_specsByEvents.end())
        return it->second;
    kube::Pod pod;
    pod.spec = std::make_shared<const Json>(CanonicalReader(events).value());
    intern(pod); // the same spec written another way (keys in another order) is still shared
    if (m_specsByEvents.size() > kMaxSpecs)
        m_specsByEvents.clear();
    m_specsByEvents.emplace(events, pod.spec);
    return pod.spec;
}

std::size_t PodListDecoder::distinctSpecs() const
{
    return m_specCount;
}

Result<PodListPage> decodePodList(std::string_view json)
{
    PodListDecoder decoder;
    return decoder.decode(json);
}

} // namespace client
