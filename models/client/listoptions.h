#pragma once
// ListOptions / WatchOptions — the query parameters of list and watch calls.

#include <atomic>
#include <cstdint>
#include <string>

namespace client {

struct ListOptions
{
    std::string labelSelector;
    std::string fieldSelector;
    std::string resourceVersion; // "" = consistent read, "0" = any (cache), other = not older than
    std::string resourceVersionMatch;
    int limit = 500; // page size, pages followed through `continue`; 0 = one unpaged list
};

struct WatchOptions
{
    std::string resourceVersion; // start exactly after this version
    std::string labelSelector;
    std::string fieldSelector;
    bool allowWatchBookmarks = true;
    int timeoutSeconds = 0;     // server-side end of the watch; 0 = server default
    int idleTimeoutSeconds = 0; // client-side: give up a silent connection; 0 = timeoutSeconds + 30
    // Client-side, overrides idleTimeoutSeconds while set and > 0: milliseconds, read while the
    // watch runs (RequestOptions::idleTimeoutMs).
    const std::atomic<std::int64_t> *idleTimeoutMs = nullptr;
};

} // namespace client
