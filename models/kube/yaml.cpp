#include "models/kube/yaml.h"

#include "models/kube/yamlscalar.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace kube {

namespace {

enum class Style { Plain, Single, Double, Literal };

constexpr std::size_t kMaxSimpleKeyLength = 128; // libyaml's yaml_emitter_check_simple_key

// Decodes one UTF-8 sequence at s[i]; returns its length. A byte that does not start a
// well-formed sequence (overlong forms, surrogates and code points above U+10FFFF included)
// comes back as U+FFFD with length 1, so that it is written as a \x escape: an escape such as
// \U00110000 or \uD800 would make the whole document unreadable.
std::size_t decodeUtf8(const std::string &s, std::size_t i, char32_t &cp)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) {
        cp = c;
        return 1;
    }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF; // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    }
    if (len == 0 || i + len > s.size() || b(i + 1) < lo || b(i + 1) > hi) {
        cp = 0xFFFD;
        return 1;
    }
    cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < len; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) {
            cp = 0xFFFD;
            return 1;
        }
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    return len;
}

// go-yaml v2's is_printable: it leaves out C0/C1 controls (tab and CR included), DEL, the BOM,
// U+FFFE/U+FFFF and everything beyond the BMP, which it therefore writes as \U escapes.
bool isPrintable(char32_t c)
{
    return c == 0x0A || (c >= 0x20 && c <= 0x7E) || (c >= 0xA0 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF);
}

bool isBreak(char32_t c)
{
    return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029;
}

bool isBlankOrEnd(const std::string &s, std::size_t i)
{
    return i >= s.size() || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r';
}

// Whether the plain form of `s` reads back as that string. Most texts are told by the first test,
// which builds nothing.
bool readsAsString(const std::string &s)
{
    return surelyPlainString(s) || resolvePlainScalar(s).kind == PlainScalarKind::String;
}

// The choice libyaml's emitter makes (yaml_emitter_analyze_scalar + select_scalar_style) for a
// string go-yaml asked to write plain (or literal when it has a '\n', or double-quoted when its
// plain form resolves to another type).
// Letters, digits and . _ / - (and ':' but last) only, not "-" nor a document marker: none
// of the analysis below finds anything in such a text, so only whether its plain form reads back
// as a string decides.
bool isSimpleWord(const std::string &s)
{
    if (s.empty() || s == "-" || s.rfind("---", 0) == 0 || s.rfind("...", 0) == 0)
        return false; // "-" alone is an indicator
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          c == '.' || c == '_' || c == '/' || c == '-' || (c == ':' && i + 1 < s.size());
        if (!word)
            return false;
    }
    return true;
}

// Whether a scalar that starts with c (followed by whitespace or not) would start a YAML
// indicator when written plain.
bool indicatorFirst(char32_t c, bool followedByWhitespace)
{
    switch (c) {
    case '#':
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
    case '&':
    case '*':
    case '!':
    case '|':
    case '>':
    case '\'':
    case '"':
    case '%':
    case '@':
    case '`':
        return true;
    case '?':
    case ':':
    case '-':
        return followedByWhitespace;
    default:
        return false;
    }
}

Style chooseStyle(const std::string &s, bool simpleKey)
{
    if (isSimpleWord(s))
        return readsAsString(s) ? Style::Plain : Style::Double;
    bool special = false, lineBreaks = false, blockIndicators = false;
    bool spaceBreak = false, breakSpace = false;
    bool previousSpace = false, previousBreak = false;
    bool leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
    bool otherBreaks = false;

    if (s.rfind("---", 0) == 0 || s.rfind("...", 0) == 0)
        blockIndicators = true;
    bool precededByWhitespace = true;
    for (std::size_t i = 0; i < s.size();) {
        char32_t c = 0;
        const std::size_t len = decodeUtf8(s, i, c);
        const bool followedByWhitespace = isBlankOrEnd(s, i + len);
        if (i == 0) {
            if (indicatorFirst(c, followedByWhitespace))
                blockIndicators = true;
        } else {
            // Flow indicators (, ? [ ] { }) only matter inside flow collections, never written here.
            if ((c == ':' && followedByWhitespace) || (c == '#' && precededByWhitespace))
                blockIndicators = true;
        }
        if (!isPrintable(c) || (c == 0xFFFD && len == 1)) // len 1: not UTF-8
            special = true;
        if (c != '\n' && isBreak(c))
            otherBreaks = true;
        if (c == '\n')
            lineBreaks = true;

        const bool last = i + len >= s.size();
        if (c == ' ') {
            if (i == 0)
                leadingSpace = true;
            if (last)
                trailingSpace = true;
            if (previousBreak)
                breakSpace = true;
            previousSpace = true;
            previousBreak = false;
        } else if (isBreak(c)) {
            if (i == 0)
                leadingBreak = true;
            if (last)
                trailingBreak = true;
            if (previousSpace)
                spaceBreak = true;
            previousBreak = true;
            previousSpace = false;
        } else {
            previousSpace = previousBreak = false;
        }
        precededByWhitespace = c == ' ' || c == '\t' || isBreak(c);
        i += len;
    }

    // Line breaks other than '\n' are always escaped: written raw they would be normalised.
    if (special || otherBreaks)
        return Style::Double;
    const bool blockPlainAllowed = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak ||
                                     breakSpace || spaceBreak || lineBreaks || blockIndicators || s.empty());
    const bool singleAllowed = !(breakSpace || spaceBreak);
    const bool blockAllowed = !(trailingSpace || spaceBreak);

    Style style = Style::Plain;
    if (lineBreaks)
        style = Style::Literal;
    else if (!readsAsString(s))
        style = Style::Double;

    if (simpleKey && lineBreaks)
        style = Style::Double;
    if (style == Style::Plain && !blockPlainAllowed)
        style = Style::Single;
    if (style == Style::Single && !singleAllowed)
        style = Style::Double;
    if (style == Style::Literal && (!blockAllowed || simpleKey))
        style = Style::Double;
    return style;
}

void appendHex(std::string &out, char32_t c, int digits)
{
    static const char hex[] = "0123456789ABCDEF";
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
        out += hex[(c >> shift) & 0xF];
}

void writeDoubleQuoted(std::string &out, const std::string &s)
{
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        char32_t c = 0;
        const std::size_t len = decodeUtf8(s, i, c);
        const bool invalid = c == 0xFFFD && len == 1 && static_cast<unsigned char>(s[i]) >= 0x80;
        if (invalid) {
            // Not UTF-8 at all: keep the byte visible rather than inventing a character.
            out += "\\x";
            appendHex(out, static_cast<unsigned char>(s[i]), 2);
        } else if (!isPrintable(c) || isBreak(c) || c == '"' || c == '\\') {
            out += '\\';
            switch (c) {
            case 0x00:
                out += '0';
                break;
            case 0x07:
                out += 'a';
                break;
            case 0x08:
                out += 'b';
                break;
            case 0x09:
                out += 't';
                break;
            case 0x0A:
                out += 'n';
                break;
            case 0x0B:
                out += 'v';
                break;
            case 0x0C:
                out += 'f';
                break;
            case 0x0D:
                out += 'r';
                break;
            case 0x1B:
                out += 'e';
                break;
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case 0x85:
                // go-yaml writes \N; \x85 means the same and survives yaml-cpp, which decodes
                // \N to a bare byte.
                out += "x85";
                break;
            case 0xA0:
                out += '_';
                break;
            case 0x2028:
                out += 'L';
                break;
            case 0x2029:
                out += 'P';
                break;
            default:
                if (c <= 0xFF) {
                    out += 'x';
                    appendHex(out, c, 2);
                } else if (c <= 0xFFFF) {
                    out += 'u';
                    appendHex(out, c, 4);
                } else {
                    out += 'U';
                    appendHex(out, c, 8);
                }
            }
        } else {
            out.append(s, i, len);
        }
        i += len;
    }
    out += '"';
}

void writeSingleQuoted(std::string &out, const std::string &s)
{
    out += '\'';
    for (char c : s) {
        if (c == '\'')
            out += '\'';
        out += c;
    }
    out += '\'';
}

// A literal block scalar whose content lines start at column `indent` (0-based). Chomping and
// indentation indicators as libyaml's yaml_emitter_write_block_scalar_hints picks them.
void writeLiteral(std::string &out, const std::string &s, int indent)
{
    out += '|';
    if (s[0] == ' ' || s[0] == '\n')
        out += '2';
    if (s.back() != '\n')
        out += '-';
    else if (s.size() == 1 || s[s.size() - 2] == '\n')
        out += '+';
    out += '\n';
    bool atLineStart = true;
    for (char c : s) {
        if (c == '\n') {
            out += '\n';
            atLineStart = true;
            continue;
        }
        if (atLineStart) {
            out.append(static_cast<std::size_t>(indent), ' ');
            atLineStart = false;
        }
        out += c;
    }
    if (s.back() != '\n')
        out += '\n';
}

// Writes a string scalar after "key: " or "- "; literal blocks end with their own newline, all
// other styles leave the line open. Returns true when the newline has been written.
bool writeString(std::string &out, const std::string &s, int blockIndent, bool simpleKey)
{
    switch (chooseStyle(s, simpleKey)) {
    case Style::Plain:
        out += s;
        return false;
    case Style::Single:
        writeSingleQuoted(out, s);
        return false;
    case Style::Double:
        writeDoubleQuoted(out, s);
        return false;
    case Style::Literal:
        writeLiteral(out, s, blockIndent);
        return true;
    }
    return false;
}

void writeNumber(std::string &out, const Json &v)
{
    if (v.is_number_unsigned()) {
        out += std::to_string(v.get<std::uint64_t>());
        return;
    }
    if (v.is_number_integer()) {
        out += std::to_string(v.get<std::int64_t>());
        return;
    }
    // kubectl goes through JSON text: an integral float below 1e21 is printed by encoding/json
    // without a fraction and read back by go-yaml as an integer when it fits 64 bits.
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e21) {
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
            out += std::to_string(static_cast<std::int64_t>(d));
            return;
        }
        if (d >= 0 && d < 18446744073709551616.0) {
            out += std::to_string(static_cast<std::uint64_t>(d));
            return;
        }
    }
    out += formatGoFloat(d);
}

bool isEmptyCollection(const Json &v)
{
    return (v.is_object() || v.is_array()) && v.empty();
}

// Writes a non-collection (or empty collection) value on the current line and ends the line.
void writeInline(std::string &out, const Json &v, int blockIndent)
{
    switch (v.type()) {
    case Json::value_t::null:
        out += "null";
        break;
    case Json::value_t::boolean:
        out += v.get<bool>() ? "true" : "false";
        break;
    case Json::value_t::string:
        if (writeString(out, v.get_ref<const std::string &>(), blockIndent, false))
            return;
        break;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        writeNumber(out, v);
        break;
    case Json::value_t::object:
        out += "{}";
        break;
    case Json::value_t::array:
        out += "[]";
        break;
    default:
        out += "null"; // binary and discarded values have no JSON form
        break;
    }
    out += '\n';
}

void writeNode(std::string &out, const Json &v, int indent, bool continueLine);

// A block mapping whose keys start at column `indent`. With continueLine the first key goes on
// the current line (right after "- ").
void writeMap(std::string &out, const Json &v, int indent, bool continueLine)
{
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (!(first && continueLine))
            out.append(static_cast<std::size_t>(indent), ' ');
        first = false;
        const std::string &key = it.key();
        if (key.size() > kMaxSimpleKeyLength) {
            // libyaml writes long keys as explicit "? key" entries; yaml-cpp also refuses implicit
            // keys longer than 1024 characters.
            out += "? ";
            writeString(out, key, indent + 2, true);
            out += '\n';
            out.append(static_cast<std::size_t>(indent), ' ');
        } else {
            writeString(out, key, indent, true);
        }
        out += ':';
        const Json &child = it.value();
        if (child.is_object() && !child.empty()) {
            out += '\n';
            writeMap(out, child, indent + 2, false);
        } else if (child.is_array() && !child.empty()) {
            out += '\n';
            writeNode(out, child, indent, false); // go-yaml does not indent a list under its key
        } else {
            out += ' ';
            writeInline(out, child, indent + 2);
        }
    }
}

void writeSequence(std::string &out, const Json &v, int indent, bool continueLine)
{
    bool first = true;
    for (const Json &item : v) {
        if (!(first && continueLine))
            out.append(static_cast<std::size_t>(indent), ' ');
        first = false;
        out += "- ";
        if (isEmptyCollection(item) || !(item.is_object() || item.is_array()))
            writeInline(out, item, indent + 2);
        else
            writeNode(out, item, indent + 2, true);
    }
}

void writeNode(std::string &out, const Json &v, int indent, bool continueLine)
{
    if (v.is_object() && !v.empty())
        writeMap(out, v, indent, continueLine);
    else if (v.is_array() && !v.empty())
        writeSequence(out, v, indent, continueLine);
    else
        writeInline(out, v, indent + 2);
}

} // namespace

std::string toYaml(const Json &value)
{
    std::string out;
    if (value.is_string()) {
        // A top-level literal block is indented by two columns, like go-yaml's.
        writeInline(out, value, 2);
        return out;
    }
    writeNode(out, value, 0, false);
    return out;
}

} // namespace kube
