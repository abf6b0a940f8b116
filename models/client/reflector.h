#pragma once
// Reflector — the list+watch loop of client-go's Reflector on its own thread, keeping a cache of
// objects keyed by namespace/name and reporting changes to a handler:
//
//  1. list (resourceVersion=0, paged), replace the cache: the handler sees Added / Modified /
//     Deleted for what differs from the previous cache, then Synced;
//  2. watch from the list's resourceVersion with bookmarks and a randomised timeoutSeconds;
//     every event updates the cache and the last seen resourceVersion (bookmarks only the RV);
//  3. when a watch ends or drops, watch again from the last RV; connection errors back off
//     exponentially (initialBackoff doubling up to maxBackoff), a clean end re-watches at once;
//  4. on 410 Gone/Expired, list again at the last RV (unpaged), and if that is gone too, with a
//     consistent read (resourceVersion unset), then go to 2;
//  5. on "Too large resource version" (504 Timeout, cause ResourceVersionTooLarge), or when a
//     watch event carries a resourceVersion lower than the last one seen, the server is not
//     the one the last RV came from (it was restarted, or another replica answers): list with
//     a consistent read, then go to 2;
//  6. a watch that delivers no byte for the idle timeout (ReflectorOptions::watchIdleTimeout)
//     is a dead stream — a frozen server or a dropped connection: it is aborted, reported
//     through onError and resumed with backoff.
//
// The handler and the error callback run on the reflector's thread. stop() (and the
// destructor) cancels the current request — a list page or a watch in transfer is woken through
// Transport::interrupt and aborted at once — and joins the thread.

#include "models/client/kubeclient.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace client {

enum class ReflectorEventType { Added, Modified, Deleted, Synced };

template <typename T> struct ReflectorEvent
{
    ReflectorEventType type = ReflectorEventType::Added;
    std::string key;                 // namespace/name (name for cluster-scoped objects); empty for Synced
    std::shared_ptr<const T> object; // the new state; the last known state for Deleted; null for Synced
    std::string resourceVersion;     // the object's, or the list's for Synced
};

struct ReflectorOptions
{
    std::string namespace_; // empty: all namespaces
    std::string labelSelector;
    std::string fieldSelector;
    int pageSize = 500;
    std::chrono::milliseconds initialBackoff = std::chrono::milliseconds(800);
    std::chrono::milliseconds maxBackoff = std::chrono::seconds(30);
    int minWatchTimeoutSeconds = 300; // timeoutSeconds is drawn from [min, max)
    int maxWatchTimeoutSeconds = 600;
    // A watch silent for this long is dead. 0: three bookmark intervals, as measured between
    // the bookmarks the server sends (at least minWatchIdleTimeout); until two bookmarks have
    // been seen, three times assumedBookmarkInterval (kube-apiserver sends one a minute; the
    // embedded server every second).
    std::chrono::milliseconds watchIdleTimeout{0};
    std::chrono::milliseconds assumedBookmarkInterval = std::chrono::seconds(60);
    std::chrono::milliseconds minWatchIdleTimeout = std::chrono::seconds(3);
    std::function<void(const kube::ApiStatus &)> onError; // list/watch failures (retried anyway)
    // After an error: called once the server answers again (a list succeeded, or a watch
    // delivered an event or a bookmark). Runs on the reflector's thread.
    std::function<void()> onRecovered;
};

template <typename T> class Reflector
{
public:
    using Handler = std::function<void(const ReflectorEvent<T> &)>;

    Reflector(std::shared_ptr<KubeClient> client, ReflectorOptions options, Handler handler);
    ~Reflector();
    Reflector(const Reflector &) = delete;
    Reflector &operator=(const Reflector &) = delete;

    void start();
    void stop();
    // stop() without the join: the request in flight is cancelled and the thread ends soon.
    // Many reflectors stop together by asking each first, then stopping (joining) each.
    void requestStop();

    std::map<std::string, std::shared_ptr<const T>> items() const;
    std::string lastResourceVersion() const;
    int listCount() const;                              // lists completed
    int watchCount() const;                             // watch requests started
    std::chrono::milliseconds watchIdleTimeout() const; // the one in force now

private:
    void run();
    enum class Relist { Any, AtLastRv, Consistent };
    bool listAndReplace(Relist how);
    void noteBookmark(); // learns the server's bookmark interval
    void apply(WatchEvent<T> &&event);
    void notify(ReflectorEventType type, const std::string &key, std::shared_ptr<const T> object,
                const std::string &rv);
    bool waitFor(std::chrono::milliseconds d); // false when stopped
    void reportError(const kube::ApiStatus &s);
    void reportRecovered();

    std::shared_ptr<KubeClient> m_client;
    ReflectorOptions m_options;
    Handler m_handler;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    bool m_failing = false; // an error was reported and nothing succeeded since (reflector thread)
    std::atomic<std::int64_t> m_idleMs{0};                  // read by the transport while a watch runs
    std::chrono::steady_clock::time_point m_lastBookmark{}; // in the current watch; reflector thread
    std::chrono::milliseconds m_bookmarkGap{0};             // shortest seen; 0: none yet
    std::mutex m_wakeMutex;
    std::condition_variable m_wake;

    mutable std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<const T>> m_items;
    std::string m_rv;
    int m_lists = 0;
    int m_watches = 0;
};

} // namespace client
