#pragma once
// PodListDecoder — decodes a PodList (or one page of it) with nlohmann's SAX interface straight
// into compact kube::Pod records: each item's events are kept in a flat buffer reused from item
// to item, and the record's fields are read from it; no item becomes a JSON DOM. Pod specs are
// interned by their events, less the fields that differ from pod to pod (nodeName and the
// DaemonSet node pin, which the record keeps apart): pods created from the same template share
// one immutable spec, and the spec is built as JSON only the first time its events are seen.
// An item the fast reading does not decide exactly as kube::Pod::fromJson does (a field of an
// unexpected type, a repeated key, an unusual affinity) is read through Pod::fromJson instead,
// so both readings always give the same records. The interning table lives as long as the
// decoder, so decoding all pages of a list with one decoder shares specs across pages.

#include "models/kube/pod.h"
#include "models/kube/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace client {

struct PodListPage
{
    std::vector<kube::Pod> items;
    std::string resourceVersion;
    std::string continueToken;
    std::optional<std::int64_t> remainingItemCount;
};

class PodListDecoder
{
public:
    kube::Result<PodListPage> decode(std::string_view json);
    // The same result through a full DOM (for comparison and benchmarks).
    kube::Result<PodListPage> decodeWithDom(std::string_view json);

    // Replaces a pod's spec by an equal one seen before, if any.
    void intern(kube::Pod &pod);
    // The spec whose events (in the decoder's own binary form) are `events`: the one seen
    // before, or a new one built from them and interned.
    std::shared_ptr<const kube::Json> internCanonical(const std::string &events);
    std::size_t distinctSpecs() const;

private:
    static constexpr std::size_t kMaxSpecs = 4096; // many distinct templates: the tables start over

    std::unordered_map<std::size_t, std::vector<std::shared_ptr<const kube::Json>>> m_specs;
    std::unordered_map<std::string, std::shared_ptr<const kube::Json>> m_specsByEvents;
    std::size_t m_specCount = 0;
};

// One-shot convenience: a fresh decoder per call.
kube::Result<PodListPage> decodePodList(std::string_view json);

} // namespace client
