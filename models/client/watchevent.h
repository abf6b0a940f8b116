#pragma once
// WatchEvent — one decoded line of a watch stream. BOOKMARK events carry only a
// resourceVersion; ERROR events end the stream and are returned by KubeClient::watch as the
// error instead.

#include <string>

namespace client {

enum class WatchEventType { Added, Modified, Deleted, Bookmark };

template <typename T> struct WatchEvent
{
    WatchEventType type = WatchEventType::Added;
    T object;                    // default-constructed for bookmarks
    std::string resourceVersion; // the object's (or bookmark's) metadata.resourceVersion
};

} // namespace client
