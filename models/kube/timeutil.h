#pragma once
// Time values: milliseconds since the Unix epoch (UTC). Kubernetes serialises metav1.Time as
// RFC 3339 with second precision; durations in scenario files look like "90s", "5m", "1h30m".

#include "models/kube/result.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace kube {

using Timestamp = std::int64_t; // ms since epoch
using Duration = std::int64_t;  // ms

// The longest duration parseDuration accepts: 100 years of 365 days.
inline constexpr Duration kMaxDuration = Duration{100} * 365 * 86'400'000;

std::string formatRfc3339(Timestamp t);   // 2026-01-01T00:00:00Z
std::string formatMicroTime(Timestamp t); // metav1.MicroTime: 2026-01-01T00:00:00.250000Z
// The same from whole seconds since the epoch and the microseconds within that second (0-999999).
std::string formatMicroTime(std::int64_t unixSeconds, std::int64_t micros);
Result<Timestamp> parseRfc3339(const std::string &text); // accepts fractional seconds and offsets
// Go-style: 500ms, 30s, 5m, 1h30m, 2h, 1.5d. Malformed text is a BadRequest; a well-formed
// duration longer than kMaxDuration is Invalid (422), so callers can say which it is.
Result<Duration> parseDuration(const std::string &text);
std::string formatDuration(Duration d); // 1h2m3s, 45s, 250ms; defined for every value
std::string humanAge(Duration d);       // kubectl-style age: 5s, 3m, 2h, 4d
// An exponential back-off: `base` doubled `doublings` times (0: base), at most `max` — what
// client-go's rate limiters and the kubelet's restart back-off wait.
inline Duration doubledDelay(Duration base, Duration max, int doublings)
{
    return doublings <= 0 ? std::min(base, max) : std::min(base << std::min(doublings, 30), max);
}

} // namespace kube
