#pragma once
// PodListDecoder — decodes a PodList (or one page of it) with nlohmann's SAX interface: only one
// item at a time is materialised as JSON, turned into a compact kube::Pod and dropped, so a
// 50,000-pod list never exists as a DOM. Pod specs are interned: pods created from the same
// template share one immutable spec. The interning table lives as long as the decoder, so
// decoding all pages of a list with one decoder shares specs across pages.

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
    std::size_t distinctSpecs() const;

private:
    std::unordered_map<std::size_t, std::vector<std::shared_ptr<const kube::Json>>> m_specs;
    std::size_t m_specCount = 0;
};

// One-shot convenience: a fresh decoder per call.
kube::Result<PodListPage> decodePodList(std::string_view json);

} // namespace client
