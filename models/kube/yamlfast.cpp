// The fast reader of yamlfast.h. Every rule below states what yaml-cpp 0.7's scanner and parser do
// with the construct it accepts, and anything it is not sure to read the same way declines: the
// caller then hands the whole text to yaml-cpp, so errors and odd cases keep their old handling.

#include "models/kube/yamlfast.h"

#include "models/kube/yamlscalar.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace kube::detail {

namespace {

// Well below the loader's own limits (256 levels, 10,000 documents, 16 MiB scalars), so that a
// text near them is left to the reader that words the error.
constexpr int kMaxDepth = 200;
constexpr std::size_t kMaxDocuments = 5000;
constexpr std::size_t kMaxScalarBytes = 8 * 1024 * 1024;
// yaml-cpp takes a key only when it is shorter than 1024 characters.
constexpr std::size_t kMaxKeyLength = 1000;

struct Decline
{};

[[noreturn]] void decline()
{
    throw Decline{};
}

struct Line
{
    std::size_t begin = 0; // first character
    std::size_t end = 0;   // the '\n' ending the line, or the end of the text
    int indent = 0;        // leading spaces
    bool blank = false;    // spaces only (or nothing)
    bool comment = false;  // the first other character is '#'
    bool marker = false;   // "---" or "..." at column 0: a document starts or ends
};

bool isNullText(std::string_view s)
{
    return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

// The characters a plain scalar inside [...] or {...} may hold here, and those it may start with.
bool flowOrdinary(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || u >= 0x80 ||
           std::string_view("._/=+-~$^()<>;@%").find(c) != std::string_view::npos;
}

bool flowStart(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || u >= 0x80 ||
           std::string_view("._/=+-~$^(<;").find(c) != std::string_view::npos;
}

// The length of the UTF-8 character at s[i] (not ASCII); declines malformed sequences, C1
// control characters and U+FEFF (a byte order mark yaml-cpp would skip at the start).
std::size_t utf8Character(const std::string &s, std::size_t i)
{
    const std::size_t len = detail::utf8Length(s, i);
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    if (len < 2)
        decline();
    if (b(i) == 0xC2 && b(i + 1) < 0xA0) // U+0080..U+009F are C1 controls
        decline();
    if (len == 3 && b(i) == 0xEF && b(i + 1) == 0xBB && b(i + 2) == 0xBF) // U+FEFF
        decline();
    return len;
}

class Reader
{
public:
    Reader(const std::string &text, const std::string &file, YamlPositions positions)
        : m_text(text), m_file(file), m_allPositions(positions == YamlPositions::All)
    {}

    std::vector<YamlDocument> read()
    {
        splitLines();
        std::vector<YamlDocument> docs;
        std::size_t markers = 0;
        m_line = nextContent(0);
        while (m_line < m_lines.size()) {
            const Line &line = m_lines[m_line];
            if (line.marker) {
                if (++markers > kMaxDocuments)
                    decline();
                m_line = nextContent(m_line + 1);
                continue;
            }
            YamlDocument &doc = docs.emplace_back();
            doc.file = m_file;
            m_doc = &doc;
            m_pointer.clear();
            const int col = line.indent;
            const std::size_t start = line.begin + static_cast<std::size_t>(col);
            const SourcePos pos = posAt(m_line, start);
            if (isSeqEntry(line)) {
                readSeq(doc.value, col, 1);
            } else if (auto key = keyAt(start, line.end)) {
                readMap(doc.value, col, *key, 1);
            } else {
                decline(); // a scalar or flow document, or something odd
            }
            doc.positions.emplace("", pos);
            // The root ends only at a document marker or at the end of the text.
            if (m_line < m_lines.size() && !m_lines[m_line].marker)
                decline();
        }
        return docs;
    }

private:
    struct Key
    {
        std::size_t start;      // offset of the key's first character (or its quote)
        std::size_t afterColon; // offset just past the ':'
        std::string text;       // the key as the converter names it
    };

    void splitLines()
    {
        const std::string &t = m_text;
        const std::size_t n = t.size();
        m_lines.reserve(n / 24 + 1);
        std::size_t i = 0;
        while (i < n) {
            Line line;
            line.begin = i;
            while (i < n && t[i] == ' ')
                ++i;
            line.indent = static_cast<int>(i - line.begin);
            const std::size_t first = i;
            while (i < n && t[i] != '\n') {
                const auto c = static_cast<unsigned char>(t[i]);
                if (c >= 0x20 && c < 0x7F) {
                    ++i;
                    continue;
                }
                if (c < 0x80)
                    decline(); // tabs, carriage returns, control characters
                i += utf8Character(t, i);
            }
            line.end = i;
            line.blank = first == i;
            line.comment = !line.blank && t[first] == '#';
            if (line.indent == 0 && i - first >= 3 &&
                (t.compare(first, 3, "---") == 0 || t.compare(first, 3, "...") == 0)) {
                if (i - first > 3 && t[first + 3] != ' ')
                    decline(); // "---x": a plain scalar at column 0, left to yaml-cpp
                std::size_t k = first + 3;
                while (k < i && t[k] == ' ')
                    ++k;
                if (k < i && t[k] != '#')
                    decline(); // a node on the marker's line
                if (k < i && k == first + 3)
                    decline();
                line.marker = true;
            }
            m_lines.push_back(line);
            if (i < n)
                ++i; // the '\n'
        }
    }

    // The first line at or after `from` holding a token (not blank, not a comment).
    std::size_t nextContent(std::size_t from) const
    {
        while (from < m_lines.size() && (m_lines[from].blank || m_lines[from].comment))
            ++from;
        return from;
    }

    SourcePos posAt(std::size_t lineIndex, std::size_t offset) const
    {
        return {static_cast<int>(lineIndex) + 1, static_cast<int>(offset - m_lines[lineIndex].begin) + 1};
    }

    bool blankOrEnd(std::size_t i, std::size_t end) const { return i >= end || m_text[i] == ' '; }

    bool isSeqEntry(const Line &line) const
    {
        const std::size_t i = line.begin + static_cast<std::size_t>(line.indent);
        return !line.blank && m_text[i] == '-' && blankOrEnd(i + 1, line.end);
    }

    // After a node that ends its line: nothing more on it but blanks and a comment.
    void expectLineEnd(std::size_t i, std::size_t end) const
    {
        if (i < end && m_text[i] != ' ')
            decline();
        while (i < end && m_text[i] == ' ')
            ++i;
        if (i < end && m_text[i] != '#')
            decline();
    }

    // appendPointer in place; the pointer is kept only to record positions.
    void appendKey(const std::string &key)
    {
        if (!m_allPositions)
            return;
        m_pointer += '/';
        if (key.find_first_of("~/") == std::string::npos) {
            m_pointer += key;
            return;
        }
        for (char c : key) {
            if (c == '~')
                m_pointer += "~0";
            else if (c == '/')
                m_pointer += "~1";
            else
                m_pointer += c;
        }
    }

    void appendIndex(std::size_t index)
    {
        if (!m_allPositions)
            return;
        m_pointer += '/';
        m_pointer += std::to_string(index);
    }

    // The position of the node at m_pointer, and of its key; the root's is recorded by read().
    void recordPosition(SourcePos pos)
    {
        if (m_allPositions)
            m_doc->positions.emplace(m_pointer, pos);
    }

    void recordKeyPosition(SourcePos pos)
    {
        if (m_allPositions)
            m_doc->keyPositions.emplace(m_pointer, pos);
    }

    void enter(int depth) const
    {
        if (depth > kMaxDepth)
            decline();
    }

    // A quoted scalar starting at `start` (its quote) and closed on the same line; sets `after`
    // past the closing quote.
    std::string quoted(std::size_t start, std::size_t end, std::size_t &after) const
    {
        const std::string &t = m_text;
        const char quote = t[start];
        std::string out;
        std::size_t i = start + 1;
        for (;;) {
            if (i >= end)
                decline(); // continues on the next line (or never closes)
            const char c = t[i];
            if (quote == '\'') {
                if (c == '\'') {
                    if (i + 1 < end && t[i + 1] == '\'') {
                        out += '\'';
                        i += 2;
                        continue;
                    }
                    break;
                }
            } else if (c == '"') {
                break;
            } else if (c == '\\') {
                if (i + 1 >= end)
                    decline(); // an escaped line break
                switch (t[i + 1]) {
                case 'n':
                    out += '\n';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case '"':
                case '\\':
                case '/':
                case '\'':
                    out += t[i + 1];
                    break;
                default:
                    decline(); // other escapes (\u, \x, \N, ...) are left to yaml-cpp
                }
                i += 2;
                continue;
            }
            out += c;
            ++i;
        }
        after = i + 1;
        if (out.size() > kMaxScalarBytes)
            decline();
        return out;
    }

    // The converter's key text for a plain key: sigs.k8s.io/yaml turns numbers and booleans into
    // their text; null keys (an error) and "<<" merge keys are declined.
    static std::string plainKeyText(std::string_view raw)
    {
        if (surelyPlainString(raw))
            return std::string(raw);
        if (isNullText(raw))
            decline();
        PlainScalar r = resolvePlainScalar(raw);
        switch (r.kind) {
        case PlainScalarKind::Null:
        case PlainScalarKind::Merge:
            decline();
        case PlainScalarKind::Bool:
            return r.value.get<bool>() ? "true" : "false";
        case PlainScalarKind::Int:
            return r.value.dump();
        case PlainScalarKind::Float:
            return formatGoFloat32(static_cast<float>(r.value.get<double>()));
        default:
            return std::string(raw);
        }
    }

    static Json plainValue(std::string_view raw)
    {
        if (raw.size() > kMaxScalarBytes)
            decline();
        if (surelyPlainString(raw))
            return std::string(raw);
        if (isNullText(raw))
            return nullptr;
        PlainScalar r = resolvePlainScalar(raw);
        if (r.kind == PlainScalarKind::Float && !std::isfinite(r.value.get<double>()))
            decline(); // an error: JSON cannot carry it
        return std::move(r.value);
    }

    // A block-context key at `start`: a plain or quoted scalar on this line followed by ':' and a
    // blank or the line's end. Nothing when the text there is not a key.
    std::optional<Key> keyAt(std::size_t start, std::size_t end) const
    {
        const std::string &t = m_text;
        if (start >= end)
            return std::nullopt;
        const char c = t[start];
        if (c == '"' || c == '\'') {
            std::size_t after = 0;
            std::string text = quoted(start, end, after);
            if (after < end && t[after] == ':' && blankOrEnd(after + 1, end)) {
                if (after - start > kMaxKeyLength)
                    decline();
                return Key{start, after + 1, std::move(text)};
            }
            return std::nullopt;
        }
        if (std::string_view(",[]{}#&*!|>'\"%@`").find(c) != std::string_view::npos)
            return std::nullopt;
        if ((c == '-' || c == '?' || c == ':') && blankOrEnd(start + 1, end))
            return std::nullopt;
        for (std::size_t i = start; i < end; ++i) {
            if (t[i] == ':' && blankOrEnd(i + 1, end)) {
                if (t[i - 1] == ' ')
                    return std::nullopt; // "key :" — left to yaml-cpp
                if (i - start > kMaxKeyLength)
                    decline();
                return Key{start, i + 1, plainKeyText(std::string_view(t).substr(start, i - start))};
            }
            if (t[i] == ' ' && i + 1 < end && t[i + 1] == '#')
                return std::nullopt;
        }
        return std::nullopt;
    }

    // A block map whose first key is `first` on line m_line; its keys stand at column `col`.
    // Returns with m_line at the first content line after the map.
    void readMap(Json &out, int col, Key first, int depth)
    {
        enter(depth);
        out = Json::object();
        auto &object = out.get_ref<Json::object_t &>();
        Key key = std::move(first);
        for (;;) {
            const SourcePos keyPos = posAt(m_line, key.start);
            const auto [slot, inserted] = object.emplace(std::move(key.text), Json());
            if (!inserted)
                decline(); // a duplicate key: yaml-cpp's reader words the error
            const std::size_t saved = m_pointer.size();
            appendKey(slot->first);
            recordKeyPosition(keyPos);
            const SourcePos pos = readMapValue(slot->second, key.afterColon, col, keyPos, depth + 1);
            recordPosition(pos);
            m_pointer.resize(saved);

            if (m_line >= m_lines.size())
                return;
            const Line &line = m_lines[m_line];
            if (line.marker || line.indent < col)
                return;
            if (line.indent > col || isSeqEntry(line))
                decline();
            const std::size_t start = line.begin + static_cast<std::size_t>(col);
            auto next = keyAt(start, line.end);
            if (!next)
                decline();
            key = std::move(*next);
        }
    }

    // The value after "key:" (`from` is just past the colon) of a map at column `col`; returns
    // its position.
    SourcePos readMapValue(Json &out, std::size_t from, int col, SourcePos keyPos, int depth)
    {
        const Line &line = m_lines[m_line];
        std::size_t i = from;
        while (i < line.end && m_text[i] == ' ')
            ++i;
        if (i < line.end && m_text[i] != '#')
            return readInlineValue(out, i, col, depth);

        // Nothing more on the key's line: a block node below it, or null.
        const bool lastLine = line.end >= m_text.size();
        m_line = nextContent(m_line + 1);
        if (m_line < m_lines.size() && !m_lines[m_line].marker) {
            const Line &next = m_lines[m_line];
            const std::size_t start = next.begin + static_cast<std::size_t>(next.indent);
            if (next.indent > col) {
                const SourcePos pos = posAt(m_line, start);
                if (isSeqEntry(next)) {
                    readSeq(out, next.indent, depth);
                } else if (auto key = keyAt(start, next.end)) {
                    readMap(out, next.indent, std::move(*key), depth);
                } else {
                    decline(); // a scalar on the next line
                }
                return pos;
            }
            if (next.indent == col && isSeqEntry(next)) { // a list not indented under its key
                const SourcePos pos = posAt(m_line, start);
                readSeq(out, col, depth);
                return pos;
            }
        }
        out = nullptr;
        // yaml-cpp marks an empty value where the next token starts; on a later line the
        // converter takes the key's position instead. The end of a text without a final line
        // break is marked at column 1 of the key's line.
        if (lastLine)
            return {keyPos.line, 1};
        return keyPos;
    }

    // A block list whose entries ("- ") stand at column `col`, the first on line m_line. A list
    // not indented under its key ends at the first line of that column that is not an entry.
    void readSeq(Json &out, int col, int depth)
    {
        enter(depth);
        out = Json::array();
        auto &array = out.get_ref<Json::array_t &>();
        for (;;) {
            const Line &line = m_lines[m_line];
            std::size_t i = line.begin + static_cast<std::size_t>(col) + 1;
            while (i < line.end && m_text[i] == ' ')
                ++i;
            if (i >= line.end || m_text[i] == '#')
                decline(); // a null entry, or its node on the next line
            if (m_text[i] == '-' && blankOrEnd(i + 1, line.end))
                decline(); // "- - a"
            const std::size_t saved = m_pointer.size();
            appendIndex(array.size());
            Json &slot = array.emplace_back();
            SourcePos pos = posAt(m_line, i);
            if (auto key = keyAt(i, line.end)) {
                readMap(slot, static_cast<int>(i - line.begin), std::move(*key), depth + 1);
            } else {
                pos = readInlineValue(slot, i, col, depth + 1);
            }
            recordPosition(pos);
            m_pointer.resize(saved);

            if (m_line >= m_lines.size())
                return;
            const Line &next = m_lines[m_line];
            if (next.marker || next.indent < col)
                return;
            if (next.indent > col)
                decline();
            if (!isSeqEntry(next))
                return; // the parent map decides (only a list under a key of this column gets here)
        }
    }

    // A node that starts at `i` on line m_line after "key: " or "- ", inside a block node of
    // column `top`. Returns its position; m_line moves to the next content line after it.
    SourcePos readInlineValue(Json &out, std::size_t i, int top, int depth)
    {
        const Line &line = m_lines[m_line];
        const SourcePos pos = posAt(m_line, i);
        const char c = m_text[i];
        switch (c) {
        case '"':
        case '\'': {
            std::size_t after = 0;
            out = quoted(i, line.end, after);
            expectLineEnd(after, line.end);
            m_line = nextContent(m_line + 1);
            return pos;
        }
        case '|':
        case '>':
            out = blockScalar(i, top);
            m_line = nextContent(m_line);
            return pos;
        case '[':
        case '{':
            readFlow(out, i, line.end, depth);
            m_line = nextContent(m_line + 1);
            return pos;
        case ',':
        case ']':
        case '}':
        case '#':
        case '&':
        case '*':
        case '!':
        case '%':
        case '@':
        case '`':
            decline();
        case '-':
        case '?':
        case ':':
            if (blankOrEnd(i + 1, line.end))
                decline();
            break;
        default:
            break;
        }
        // A plain scalar: to the end of the line or a comment; ": " would make it a key.
        std::size_t end = line.end;
        bool comment = false;
        for (std::size_t k = i; k < line.end; ++k) {
            if (m_text[k] == ':' && blankOrEnd(k + 1, line.end))
                decline();
            if (m_text[k] == ' ' && k + 1 < line.end && m_text[k + 1] == '#') {
                end = k;
                comment = true;
                break;
            }
        }
        while (end > i && m_text[end - 1] == ' ')
            --end;
        out = plainValue(std::string_view(m_text).substr(i, end - i));
        // yaml-cpp continues a plain scalar on the next line that is indented more than the
        // enclosing block, even a comment line; such text is left to it.
        if (!comment) {
            std::size_t k = m_line + 1;
            while (k < m_lines.size() && m_lines[k].blank)
                ++k;
            if (k < m_lines.size() && m_lines[k].indent > top)
                decline();
        }
        m_line = nextContent(m_line + 1);
        return pos;
    }

    // A flow collection written on one line ("[]", "{}", [a, "b"], {a: 1, b: [x]}) at `i`,
    // followed by nothing but a comment.
    void readFlow(Json &out, std::size_t i, std::size_t end, int depth)
    {
        std::size_t k = i;
        flowNode(out, k, end, depth);
        expectLineEnd(k, end);
    }

    void skipSpaces(std::size_t &k, std::size_t end) const
    {
        while (k < end && m_text[k] == ' ')
            ++k;
    }

    // One node inside a flow collection (or the collection itself) at `k`; `k` moves past it.
    void flowNode(Json &out, std::size_t &k, std::size_t end, int depth)
    {
        if (k >= end)
            decline();
        const char c = m_text[k];
        if (c == '"' || c == '\'') {
            std::size_t after = 0;
            out = quoted(k, end, after);
            k = after;
            return;
        }
        if (c != '[' && c != '{') {
            const std::size_t start = k;
            plainFlowScalar(k, end);
            out = plainValue(trimmed(start, k));
            return;
        }
        enter(depth);
        const bool list = c == '[';
        const char close = list ? ']' : '}';
        out = list ? Json::array() : Json::object();
        ++k;
        skipSpaces(k, end);
        if (k < end && m_text[k] == close) {
            ++k;
            return;
        }
        for (;;) {
            skipSpaces(k, end);
            if (k >= end)
                decline(); // continues on the next line
            const std::size_t saved = m_pointer.size();
            if (list) {
                auto &array = out.get_ref<Json::array_t &>();
                appendIndex(array.size());
                const SourcePos pos = posAt(m_line, k);
                Json &slot = array.emplace_back();
                flowNode(slot, k, end, depth + 1);
                recordPosition(pos);
            } else {
                const SourcePos keyPos = posAt(m_line, k);
                std::string text;
                if (m_text[k] == '"' || m_text[k] == '\'') {
                    std::size_t after = 0;
                    text = quoted(k, end, after);
                    k = after;
                } else {
                    const std::size_t start = k;
                    plainFlowScalar(k, end);
                    text = plainKeyText(trimmed(start, k));
                }
                if (k >= end || m_text[k] != ':' || !blankOrEnd(k + 1, end))
                    decline(); // "{a}", "{a:1}", "{"a":1}", a key on its own
                ++k;
                skipSpaces(k, end);
                const auto [slot, inserted] =
                    out.get_ref<Json::object_t &>().emplace(std::move(text), Json());
                if (!inserted)
                    decline();
                appendKey(slot->first);
                recordKeyPosition(keyPos);
                const SourcePos pos = posAt(m_line, k);
                flowNode(slot->second, k, end, depth + 1);
                recordPosition(pos);
            }
            m_pointer.resize(saved);
            skipSpaces(k, end);
            if (k < end && m_text[k] == ',') {
                ++k;
                skipSpaces(k, end);
                if (k < end && (m_text[k] == ',' || m_text[k] == close))
                    decline(); // an empty entry or a trailing comma
                continue;
            }
            if (k < end && m_text[k] == close) {
                ++k;
                return;
            }
            decline();
        }
    }

    std::string_view trimmed(std::size_t start, std::size_t end) const
    {
        while (end > start && m_text[end - 1] == ' ')
            --end;
        return std::string_view(m_text).substr(start, end - start);
    }

    // Moves `k` past a plain scalar inside [...] or {...}. Only ordinary characters are taken
    // (no indicator, no quote); a blank continues it when an ordinary character follows, a ':'
    // when anything but a blank, ',', ']' or '}' follows, as in yaml-cpp's flow context.
    void plainFlowScalar(std::size_t &k, std::size_t end) const
    {
        const std::size_t start = k;
        if (k >= end || !flowStart(m_text[k]))
            decline();
        if (m_text[k] == '-' && !(k + 1 < end && flowOrdinary(m_text[k + 1])))
            decline();
        for (; k < end; ++k) {
            const char c = m_text[k];
            if (flowOrdinary(c))
                continue;
            if ((c == ' ' || c == ':') && k > start && k + 1 < end && flowOrdinary(m_text[k + 1]))
                continue;
            break;
        }
    }

    // A literal or folded scalar whose indicator is at `i`; `top` is the column of the block
    // node holding it. Reads the way yaml-cpp's ScanScalar does: the indentation is the
    // indicator's digit, or the first non-empty line's, at least one more than `top`; lines are
    // kept (literal) or folded, then the chomping indicator trims the final line breaks. Leaves
    // m_line at the line that ends the scalar.
    std::string blockScalar(std::size_t i, int top)
    {
        const std::string &t = m_text;
        const std::size_t n = t.size();
        const Line &header = m_lines[m_line];
        const bool folded = t[i] == '>';
        enum class Chomp { Clip, Strip, Keep } chomp = Chomp::Clip;
        int indent = 1;
        bool detect = true;
        std::size_t k = i + 1;
        for (int seen = 0; seen < 2 && k < header.end; ++seen) {
            const char c = t[k];
            if ((c == '+' || c == '-') && chomp == Chomp::Clip) {
                chomp = c == '+' ? Chomp::Keep : Chomp::Strip;
            } else if (c >= '1' && c <= '9' && detect) {
                indent = c - '0';
                detect = false;
            } else {
                break;
            }
            ++k;
        }
        if (k < header.end && t[k] != ' ')
            decline(); // "|0", "|++", "|x", a comment without a blank before it
        expectLineEnd(k, header.end);
        if (header.end >= n)
            decline(); // the text ends on the header
        indent += top;

        std::string s;
        std::size_t p = header.end; // at the header's line break
        std::size_t lineStart = header.begin;
        std::size_t lineIndex = m_line;
        bool foundNonEmpty = false, pastOpeningBreak = false, emptyLine = false, moreIndented = false;
        bool startedMoreIndented = false;
        int foldedNewlines = 0;
        const auto column = [&] { return static_cast<int>(p - lineStart); };
        while (p < n) {
            // the rest of the line
            if (t[p] != '\n') {
                const std::size_t e = m_lines[lineIndex].end;
                s.append(t, p, e - p);
                foundNonEmpty = true;
                p = e;
                if (p >= n)
                    break;
            }
            // the line break
            ++p;
            ++lineIndex;
            lineStart = p;
            // the indentation
            while (p < n && t[p] == ' ' && (column() < indent || (detect && !foundNonEmpty)))
                ++p;
            if (detect && !foundNonEmpty)
                indent = std::max(indent, column());
            const bool nextEmpty = p < n && t[p] == '\n';
            const bool nextMoreIndented = p < n && t[p] == ' ';
            if (folded && foldedNewlines == 0 && nextEmpty)
                startedMoreIndented = moreIndented;
            if (pastOpeningBreak) {
                if (!folded) {
                    s += '\n';
                } else {
                    if (!emptyLine && !nextEmpty && !moreIndented && !nextMoreIndented && column() >= indent)
                        s += ' ';
                    else if (nextEmpty)
                        ++foldedNewlines;
                    else
                        s += '\n';
                    if (!nextEmpty && foldedNewlines > 0) {
                        s.append(static_cast<std::size_t>(foldedNewlines - 1), '\n');
                        if (startedMoreIndented || nextMoreIndented || !foundNonEmpty)
                            s += '\n';
                        foldedNewlines = 0;
                    }
                }
            }
            emptyLine = nextEmpty;
            moreIndented = nextMoreIndented;
            pastOpeningBreak = true;
            if (!emptyLine && column() < indent)
                break;
            if (s.size() > kMaxScalarBytes)
                decline();
        }
        m_line = p >= n ? m_lines.size() : lineIndex;

        if (chomp != Chomp::Keep) {
            const std::size_t last = s.find_last_not_of('\n');
            if (last == std::string::npos)
                s.clear();
            else if (chomp == Chomp::Strip)
                s.erase(last + 1);
            else if (last + 1 < s.size())
                s.erase(last + 2);
        }
        if (s.size() > kMaxScalarBytes)
            decline();
        return s;
    }

    const std::string &m_text;
    const std::string &m_file;
    bool m_allPositions = true; // else only the roots' (YamlPositions::Roots)
    std::vector<Line> m_lines;
    std::size_t m_line = 0;
    YamlDocument *m_doc = nullptr;
    std::string m_pointer;
};

} // namespace

std::optional<std::vector<YamlDocument>>
parseYamlDocumentsFast(const std::string &text, const std::string &file, YamlPositions positions)
{
    try {
        Reader reader(text, file, positions);
        return reader.read();
    } catch (const Decline &) {
        return std::nullopt;
    }
}

} // namespace kube::detail
