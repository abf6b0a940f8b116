// Fuzzes the protobuf request bodies `daemonscope serve` reads (models/server/protobufbody.h):
// the "k8s\0" envelope, runtime.Unknown, and the DeleteOptions and Eviction messages inside it,
// as kubectl 1.32+ sends them for evictions and deletions. Checked: a decoded body is a JSON
// object of one of the two kinds whose fields have the types the JSON handlers expect, and a
// refused one is a 400 or a 415 with a message; the server then prints it with goJson, which
// must not throw on whatever bytes the strings hold.

#include "models/kube/gojson.h"
#include "models/server/protobufbody.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

void checkDeleteOptions(const kube::Json &d)
{
    FUZZ_CHECK(d.is_object());
    if (d.contains("gracePeriodSeconds"))
        FUZZ_CHECK(d["gracePeriodSeconds"].is_number_integer());
    if (d.contains("orphanDependents"))
        FUZZ_CHECK(d["orphanDependents"].is_boolean());
    if (d.contains("propagationPolicy"))
        FUZZ_CHECK(d["propagationPolicy"].is_string());
    if (d.contains("dryRun")) {
        FUZZ_CHECK(d["dryRun"].is_array() && !d["dryRun"].empty());
        for (const auto &v : d["dryRun"])
            FUZZ_CHECK(v.is_string());
    }
    if (d.contains("preconditions")) {
        FUZZ_CHECK(d["preconditions"].is_object());
        for (const auto &[k, v] : d["preconditions"].items())
            FUZZ_CHECK((k == "uid" || k == "resourceVersion") && v.is_string());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string body(reinterpret_cast<const char *>(data), size);
    FUZZ_CHECK(server::isProtobufContentType("application/vnd.kubernetes.protobuf; charset=x"));
    auto decoded = server::decodeProtobufBody(body);
    if (!decoded) {
        FUZZ_CHECK(decoded.error().code == 400 || decoded.error().code == 415);
        FUZZ_CHECK(!decoded.error().message.empty());
        (void)kube::goJson(decoded.error().toJson());
        return 0;
    }
    const kube::Json &j = *decoded;
    FUZZ_CHECK(j.is_object() && j.contains("kind") && j["kind"].is_string());
    const std::string kind = j["kind"].get<std::string>();
    FUZZ_CHECK(kind == "DeleteOptions" || kind == "Eviction");
    if (kind == "DeleteOptions") {
        checkDeleteOptions(j);
    } else {
        FUZZ_CHECK(j["metadata"].is_object());
        for (const auto &[k, v] : j["metadata"].items())
            FUZZ_CHECK(v.is_string());
        if (j.contains("deleteOptions"))
            checkDeleteOptions(j["deleteOptions"]);
    }
    (void)kube::goJson(j);
    return 0;
}
