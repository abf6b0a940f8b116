// Fuzzes the object model's decoders (models/kube: Pod, Node, DaemonSet, ControllerRevision,
// ReplicaSet, ObjectMeta, OwnerReference, Event) with one JSON value given to each of them. What
// a decoder accepts must round-trip: toJson() decodes again, and encodes to the same JSON, so an
// object read, written back and read again does not drift.

#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/jsonlimits.h"
#include "models/kube/node.h"
#include "models/kube/objectmeta.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace {

template <typename T> void roundTrip(const kube::Json &input, const char *type)
{
    auto first = T::fromJson(input);
    if (!first)
        return;
    const kube::Json once = first->toJson();
    auto second = T::fromJson(once);
    if (!second) {
        std::fprintf(stderr, "%s: toJson() %s is rejected: %s\n", type, fuzzDump(once).c_str(),
                     second.error().message.c_str());
        FUZZ_CHECK(!"toJson() output decodes again");
    }
    const kube::Json twice = second->toJson();
    if (twice != once) {
        std::fprintf(stderr, "%s:\nonce:  %s\ntwice: %s\n", type, fuzzDump(once).c_str(),
                     fuzzDump(twice).c_str());
        FUZZ_CHECK(!"decode and encode is stable");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    // Parsed the way JSON from outside the process is: nesting deeper than JsonLimits::maxDepth is
    // refused before any recursive pass (copy, compare, merge) can overflow the stack.
    auto parsed = kube::JsonLimits::parse(std::string_view(reinterpret_cast<const char *>(data), size));
    if (!parsed)
        return 0;
    const kube::Json &input = *parsed;
    roundTrip<kube::ObjectMeta>(input, "ObjectMeta");
    roundTrip<kube::OwnerReference>(input, "OwnerReference");
    roundTrip<kube::Pod>(input, "Pod");
    roundTrip<kube::Node>(input, "Node");
    roundTrip<kube::DaemonSet>(input, "DaemonSet");
    roundTrip<kube::DaemonSetStatus>(input, "DaemonSetStatus");
    roundTrip<kube::ControllerRevision>(input, "ControllerRevision");
    roundTrip<kube::ReplicaSet>(input, "ReplicaSet");
    roundTrip<kube::Event>(input, "Event");
    return 0;
}
