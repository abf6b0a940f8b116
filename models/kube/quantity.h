#pragma once
// resource.Quantity's canonical text, as the API server stores a quantity after decoding it:
// "1000m" -> "1", "1024Mi" -> "1Gi", "0.5" -> "500m", "1.5Gi" -> "1536Mi", "2000" -> "2k",
// "1e3" -> "1e3", "0.1Ki" -> "102400m". The suffix family of the input is kept (binary, decimal SI
// or decimal exponent); a binary value below 1024 or with a fraction is written in decimal SI;
// values are rounded up to nano precision (k8s.io/apimachinery ParseQuantity and
// CanonicalizeBytes).

#include <optional>
#include <string>
#include <string_view>

namespace kube {

// Null when `text` is not a quantity (or too large for 38 digits, which is left as it is).
std::optional<std::string> canonicalQuantity(std::string_view text);
// The quantity in thousandths of its unit, rounded up (Quantity.MilliValue: "500m" -> 500,
// "1Gi" -> 1073741824000); null when `text` is not a quantity or the value overflows.
std::optional<long long> quantityMilli(std::string_view text);

} // namespace kube
