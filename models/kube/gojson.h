#pragma once
// Go-compatible canonical JSON: what Go's encoding/json prints for a value that went through
// a generic map — compact, object keys sorted by byte order at every depth, Go's string
// escaping (<, >, & as \u003c \u003e \u0026; U+2028/U+2029 escaped; other non-ASCII raw).
// ControllerRevision data and revision hashes are built from these bytes.

#include <nlohmann/json.hpp>

#include <string>

namespace kube {

using Json = nlohmann::json; // std::map-backed: keys are always sorted

// Compact, sorted, Go-escaped serialisation.
std::string goJson(const Json &value);
// The same, appended to out.
void appendGoJson(std::string &out, const Json &value);
// Appends the Go-escaped, quoted form of a UTF-8 string to out.
void appendGoString(std::string &out, const std::string &s);
// A string as Go's %q prints it in error messages ("spec.type: Unsupported value: \"x\""):
// quotes and backslashes escaped, \n \t \r and other control bytes escaped, UTF-8 kept.
std::string goQuote(const std::string &s);

} // namespace kube
