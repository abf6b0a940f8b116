#pragma once
// PodListPager — paged pod lists the way kube-apiserver serves them from etcd: every page is read
// from the engine's versioned pod store at the resourceVersion of the list's first page, from the
// key after the last one the previous page returned, and the label and field selectors are
// applied as the page fills. So a page costs what it holds, not what the cluster holds, and
// every page of a list shows one resourceVersion while the engine writes on.
//
// Between pages a list holds only its pinned resourceVersion (Cluster::pinPods): the store then
// keeps the old versions of the pods written since, nothing else. A list is let go when its last
// page has been served, after five minutes, or when more than kMaxLists are open (the oldest
// first); its tokens answer 410 Expired from then on, as kube-apiserver's do once etcd has
// compacted the revision.
//
// The continue token is kube-apiserver's (base64url of {"v":"meta.k8s.io/v1","rv":RV,
// "start":"KEY\u0000"}), plus the list it belongs to and how many pods it has served.
//
// Not thread-safe, and not meant to be: every call runs on the engine thread (inside
// EngineHost::call), so the pager's lists and the store's pins change together.

#include "models/kube/result.h"
#include "models/sim/cluster.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace server {

class PodListPager
{
public:
    static constexpr std::size_t kMaxLists = 64;
    static constexpr std::chrono::minutes kMaxAge{5};

    using Filter = std::function<bool(const kube::Pod &)>;
    struct Page
    {
        std::vector<kube::Pod> pods;
        std::uint64_t resourceVersion = 0;
        std::string continueToken; // empty on the last page
        // Pods after this page; only for lists without a selector (kube-apiserver cannot count
        // the matches of a selector without reading them either).
        std::optional<std::int64_t> remaining;
    };

    // The first page of a list of `ns` (all namespaces when empty); limit 0: every pod, one page.
    // `selective`: `keep` is a selector that may refuse pods.
    Page first(sim::Cluster &c, const std::string &ns, const Filter &keep, bool selective, std::size_t limit);
    // The page after `token`: 410 Expired when its list has been let go (or the token is not
    // one of ours), 400 when it names a pod outside `ns`.
    kube::Result<Page> next(sim::Cluster &c, const std::string &token, const std::string &ns,
                            const Filter &keep, bool selective, std::size_t limit);

    std::size_t openLists() const { return m_lists.size(); }

private:
    struct List
    {
        std::uint64_t resourceVersion = 0;
        std::size_t total = 0; // pods in the list (without a selector)
        std::chrono::steady_clock::time_point created;
    };
    void finishPage(sim::Cluster &c, Page &page, sim::Cluster::PodPage &read, std::uint64_t id,
                    std::size_t served, bool selective);
    void release(sim::Cluster &c, std::map<std::uint64_t, List>::iterator it);
    void expire(sim::Cluster &c);

    std::map<std::uint64_t, List> m_lists; // by id; ids count up
    std::uint64_t m_nextId = 0;
};

} // namespace server
