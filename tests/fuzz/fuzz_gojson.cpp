// Fuzzes Go-compatible JSON (models/kube/gojson.h): goJson() of any parsed value is valid JSON
// that reads back to an equal value and is canonical (printing the value read back gives the same
// bytes from the second print on); appendGoString() of any valid UTF-8 text is a JSON string holding that text.

#include "models/kube/gojson.h"
#include "models/kube/jsonlimits.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace {

bool isValidUtf8(const std::string &s)
{
    try {
        (void)kube::Json(s).dump(); // nlohmann's strict encoder rejects invalid UTF-8
        return true;
    } catch (const kube::Json::exception &) {
        return false;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);

    std::string quoted;
    kube::appendGoString(quoted, text);
    if (isValidUtf8(text)) {
        const kube::Json s = kube::Json::parse(quoted, nullptr, false);
        FUZZ_CHECK(s.is_string() && s.get<std::string>() == text);
    }

    // Bounded as every JSON from outside the process is (printing recurses per level).
    auto parsed = kube::JsonLimits::parse(text);
    if (!parsed)
        return 0;
    const kube::Json &value = *parsed;
    const std::string printed = kube::goJson(value);
    const kube::Json back = kube::Json::parse(printed, nullptr, false);
    if (back.is_discarded() || back != value) {
        std::fprintf(stderr, "input: %s\ngoJson: %s\n", fuzzDump(value).c_str(), printed.c_str());
        FUZZ_CHECK(!"goJson() reads back to the same value");
    }
    // Canonical: printing what was read back gives the same bytes from there on. (Not always
    // at the first step: a float -0.0 prints as "-0", as Go prints it, and "-0" reads back as
    // the integer 0 — as Kubernetes' unstructured decoding reads it, json.Number into int64.)
    const std::string again = kube::goJson(back);
    const kube::Json third = kube::Json::parse(again, nullptr, false);
    FUZZ_CHECK(!third.is_discarded() && third == value && kube::goJson(third) == again);
    return 0;
}
