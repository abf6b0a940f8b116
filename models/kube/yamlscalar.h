#pragma once
// How kubectl's YAML stack (sigs.k8s.io/yaml on go-yaml v2, YAML 1.1 flavoured) reads an
// unquoted scalar. Shared by the loader (plain scalar -> Json) and the renderer (a string must
// be quoted exactly when its plain form would read back as something else).

#include "models/kube/gojson.h"

#include <string>
#include <string_view>

namespace kube {

enum class PlainScalarKind {
    String,
    Null,      // "", ~, null, Null, NULL
    Bool,      // true/false, yes/no, on/off, y/n in their three spellings
    Int,       // Go strconv.ParseInt(s, 0, 64) after removing '_': 0x1F, 0o17, 0b101, 0777 (octal)
    Float,     // YAML-style decimal floats, .inf, .nan (non-finite ones cannot become JSON)
    Merge,     // "<<"
    Timestamp, // 2024-01-02, 2024-01-02T03:04:05Z: go-yaml hands these back as strings
    Base60,    // 1:20 — a YAML 1.1 sexagesimal number; read as a string, written quoted
};

struct PlainScalar
{
    PlainScalarKind kind = PlainScalarKind::String;
    Json value; // the converted value; the text itself for String, Merge, Timestamp and Base60
};

// go-yaml v2 resolve() for an untagged plain scalar. Integers that do not fit int64 become
// uint64 when positive and fit, otherwise a double (as go-yaml falls back to ParseFloat);
// decimal text that overflows a double stays a string, as in go-yaml.
PlainScalar resolvePlainScalar(std::string_view text);
// Whether resolvePlainScalar reads `text` as a String, without building anything. Exact for a
// text that does not start like a number (a digit, '+', '-' or '.': numbers, timestamps, base-60
// numbers and .inf all do); for one that does it is false, which means "resolve it", not "not a
// string".
bool surelyPlainString(std::string_view text);

// Go's strconv.FormatFloat(f, 'g', -1, 64) as go-yaml v2 writes floats: shortest round-trip
// digits, exponent form when the decimal exponent is below -4 or at least 6 ("1.2345675e+06",
// "1.5e-07", "0.25"); .inf, -.inf and .nan for the non-finite values.
std::string formatGoFloat(double value);
// The same for a float32, as sigs.k8s.io/yaml formats float map keys.
std::string formatGoFloat32(float value);

} // namespace kube
