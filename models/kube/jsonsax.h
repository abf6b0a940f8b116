#pragma once
// parseJsonSax — a strict JSON (RFC 8259) reader that drives an nlohmann::json SAX handler with
// the same events, in the same order and with the same values as Json::sax_parse over the same
// text, for the large documents read a token at a time (pod lists of tens of thousands of pods).
// It differs from nlohmann's reader in speed only: strings are scanned a run of plain bytes at a
// time and appended whole (nlohmann's lexer appends them byte by byte), and plain ASCII needs no
// UTF-8 decoding.
//
// Accepted exactly what Json::sax_parse (strict) accepts: one value, surrounded by whitespace
// only (a UTF-8 byte order mark first is skipped, and a NUL byte after the value ends the text); strings with
// valid UTF-8 and valid escapes (surrogate pairs paired), no control characters; numbers by the JSON grammar
// (no leading zeros, digits after '.', 'e'). Numbers as nlohmann reports them: a non-negative integer that
// fits 64 bits is number_unsigned, a negative one that fits is number_integer, anything else number_float
// (strtod in the C locale) with its text, and a number beyond a double's range is invalid. Nesting is kept on
// a heap stack, not the call stack. start_object/start_array get std::size_t(-1), as from nlohmann's parser.
//
// On text that is not valid JSON the handler's parse_error is not called: the result says
// Invalid, and a caller that wants nlohmann's message runs Json::sax_parse on it (rare).

#include "models/kube/gojson.h"

#include <string_view>

namespace kube {

enum class SaxResult { Ok, Stopped /* a handler returned false */, Invalid };

SaxResult parseJsonSax(std::string_view text, nlohmann::json_sax<Json> &sax);

// The UTF-8 bytes of a code point (below U+110000) appended to `out`.
void appendUtf8(std::string &out, char32_t cp);

} // namespace kube
