#include "models/sim/kubelet.h"
#include "models/kube/defaults.h"
#include "models/kube/gojson.h"
#include "models/kube/jsonfield.h"
#include "models/kube/timeutil.h"

#include "models/sim/clusterimpl.h"

namespace sim {

using kube::Pod;

Kubelet::Kubelet(Cluster::Impl &cluster) : m_c(cluster) {}

bool Kubelet::globMatch(const std::string &p, const std::string &t)
{
    // Iterative '*' / '?' matcher with backtracking to the last star.
    std::size_t pi = 0, ti = 0, star = std::string::npos, mark = 0;
    while (ti < t.size()) {
        if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
            ++pi;
            ++ti;
        } else if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = ti;
        } else if (star != std::string::npos) {
            pi = star + 1;
            ti = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '*')
        ++pi;
    return pi == p.size();
}

bool Kubelet::nodeReachable(const std::string &node) const
{
    if (!m_c.nodes.count(node))
        return false;
    auto f = m_c.faults.find(node);
    return f == m_c.faults.end() || f->second != FaultKind::Unreachable;
}

bool Kubelet::nodeRunsPods(const std::string &node) const
{
    auto it = m_c.nodes.find(node);
    return it != m_c.nodes.end() && nodeReachable(node) && it->second.isReady();
}

bool Kubelet::failing(const Pod &pod) const
{
    if (m_c.options.kubelet.failingImages.empty() || !pod.spec || !pod.spec->contains("containers"))
        return false;
    for (const auto &c : (*pod.spec)["containers"]) {
        const std::string image = kube::stringOr(c, "image");
        for (const auto &pattern : m_c.options.kubelet.failingImages)
            if (globMatch(pattern, image))
                return true;
    }
    return false;
}

void Kubelet::at(kube::Timestamp t, const Pod &pod, std::function<void(Pod &)> fn, bool commit)
{
    const std::string key = Cluster::Impl::key(pod.metadata.namespace_, pod.metadata.name);
    const std::string uid = pod.metadata.uid;
    const std::uint64_t epoch = m_state[uid].epoch;
    m_c.loop.post(t, [this, key, uid, epoch, fn = std::move(fn), commit] {
        auto it = m_c.pods.find(key);
        if (it == m_c.pods.end() || it->second.metadata.uid != uid)
            return;
        auto st = m_state.find(uid);
        if (st == m_state.end() || st->second.epoch != epoch)
            return;
        if (commit) {
            m_c.updatePod(it, fn); // status only: edited in place
        } else {
            Pod copy = it->second;
            fn(copy);
        }
    });
}

namespace {

const kube::Json &containersOf(const Pod &pod)
{
    static const kube::Json none = kube::Json::array();
    if (!pod.spec)
        return none;
    const kube::Json *c = kube::member(*pod.spec, "containers");
    return c && c->is_array() ? *c : none;
}

// The container's pull policy, or the one the API server defaults (SetDefaults_Container).
bool alwaysPulls(const kube::Json &container)
{
    const std::string policy = kube::stringOr(container, "imagePullPolicy");
    return (policy.empty() ? kube::defaultPullPolicy(kube::stringOr(container, "image")) : policy) ==
           "Always";
}

} // namespace

void Kubelet::containerEvent(const Pod &pod, const std::string &container, const char *type,
                             const char *reason, const std::string &message)
{
    m_c.recordEvent(type, reason, message, api::Kind::Pod, pod.metadata.namespace_, pod.metadata.name,
                    pod.metadata.uid, "kubelet", "spec.containers{" + container + "}");
}

std::vector<bool> Kubelet::beginPulls(const Pod &pod)
{
    std::vector<bool> pulls;
    auto &images = m_images[pod.nodeName];
    for (const auto &c : containersOf(pod)) {
        const std::string image = kube::stringOr(c, "image");
        const bool pull = alwaysPulls(c) || !images.count(image);
        pulls.push_back(pull);
        if (pull) {
            images.insert(*m_imageNames.insert(image).first);
            containerEvent(pod, kube::stringOr(c, "name"), "Normal", "Pulling",
                           "Pulling image " + kube::goQuote(image));
        }
    }
    return pulls;
}

void Kubelet::containersStarted(const Pod &pod, const std::vector<bool> &pulled, kube::Duration pull)
{
    std::size_t i = 0;
    for (const auto &c : containersOf(pod)) {
        const std::string name = kube::stringOr(c, "name");
        const std::string image = kube::goQuote(kube::stringOr(c, "image"));
        if (i < pulled.size() && pulled[i]) {
            const std::string took = kube::formatDuration(pull);
            containerEvent(pod, name, "Normal", "Pulled",
                           "Successfully pulled image " + image + " in " + took + " (" + took +
                               " including waiting)");
        } else {
            containerEvent(pod, name, "Normal", "Pulled",
                           "Container image " + image + " already present on machine");
        }
        containerEvent(pod, name, "Normal", "Created", "Created container: " + name);
        containerEvent(pod, name, "Normal", "Started", "Started container " + name);
        ++i;
    }
}

void Kubelet::postStart(const Pod &pod)
{
    m_state[pod.metadata.uid].started = true;
    const auto &k = m_c.options.kubelet;
    const kube::Duration delay = m_c.rng.jittered(k.startDelay, k.jitter);
    std::vector<bool> pulls = beginPulls(pod);
    at(m_c.now + delay, pod, [this, pulls = std::move(pulls), delay](Pod &p) {
        containersStarted(p, pulls, delay);
        p.phase = "Running";
        p.startTime = m_c.now;
        if (failing(p)) {
            p.waitingReason = "CrashLoopBackOff";
            p.restartCount = 1;
            m_state[p.metadata.uid].crashes = 1;
            postCrash(p, 10000);
        } else {
            p.waitingReason.clear();
            postReady(p);
        }
    });
}

void Kubelet::postReady(const Pod &pod)
{
    const auto &k = m_c.options.kubelet;
    at(m_c.now + m_c.rng.jittered(k.readyDelay, k.jitter), pod, [this](Pod &p) {
        p.ready = true;
        p.readyTransitionTime = m_c.now;
    });
}

void Kubelet::postCrash(const Pod &pod, kube::Duration after)
{
    at(m_c.now + after, pod, [this](Pod &p) {
        auto &st = m_state[p.metadata.uid];
        ++st.crashes;
        ++p.restartCount;
        // kuberuntime's doBackOff: one aggregated Warning per container (count grows).
        for (const auto &container : containersOf(p)) {
            const std::string name = kube::stringOr(container, "name");
            containerEvent(p, name, "Warning", "BackOff",
                           "Back-off restarting failed container " + name + " in pod " + p.metadata.name +
                               "_" + p.metadata.namespace_ + "(" + p.metadata.uid + ")");
        }
        postCrash(p, crashBackoff(st.crashes));
    });
}

void Kubelet::postRemoval(const Pod &pod)
{
    auto &st = m_state[pod.metadata.uid];
    st.terminating = true;
    ++st.epoch; // nothing else happens to a terminating pod
    if (pod.phase == "Running")
        for (const auto &c : containersOf(pod)) {
            const std::string name = kube::stringOr(c, "name");
            containerEvent(pod, name, "Normal", "Killing", "Stopping container " + name);
        }
    const auto &k = m_c.options.kubelet;
    kube::Duration grace = m_c.rng.jittered(k.terminationGrace, k.jitter);
    if (pod.metadata.deletionGracePeriodSeconds)
        grace = std::min(grace, *pod.metadata.deletionGracePeriodSeconds * 1000);
    at(
        m_c.now + grace, pod,
        [this](Pod &p) {
            m_state.erase(p.metadata.uid);
            m_c.erasePod(Cluster::Impl::key(p.metadata.namespace_, p.metadata.name));
        },
        false);
}

void Kubelet::onPod(const WatchEvent &ev)
{
    const Pod &pod = *ev.pod;
    if (ev.type == WatchEvent::Type::Deleted) {
        m_state.erase(pod.metadata.uid);
        return;
    }
    if (pod.nodeName.empty())
        return;
    auto &st = m_state[pod.metadata.uid];
    if (pod.isDeleting()) {
        if (!st.terminating && nodeReachable(pod.nodeName))
            postRemoval(pod);
        return;
    }
    if (!st.started && pod.phase == "Pending" && nodeRunsPods(pod.nodeName))
        postStart(pod);
}

void Kubelet::markNotReady(const Pod &pod)
{
    if (!pod.ready)
        return;
    Pod copy = pod;
    copy.ready = false;
    copy.readyTransitionTime = m_c.now;
    const std::string ns = pod.metadata.namespace_, name = pod.metadata.name, uid = pod.metadata.uid;
    m_c.commitPod(std::move(copy), false);
    m_c.recordEvent("Warning", "NodeNotReady", "Node is not ready", api::Kind::Pod, ns, name, uid,
                    "node-controller");
}

void Kubelet::nodeChanged(const std::string &node)
{
    auto idx = m_c.podsByNode.find(node);
    if (idx == m_c.podsByNode.end())
        return;
    std::vector<std::string> keys;
    for (const auto &[key, pod] : idx->second)
        if (!pod->nodeName.empty())
            keys.emplace_back(key);
    const bool runs = nodeRunsPods(node);
    const bool reachable = nodeReachable(node);
    for (const auto &key : keys) {
        auto it = m_c.pods.find(key);
        if (it == m_c.pods.end())
            continue;
        const Pod &pod = it->second;
        auto &st = m_state[pod.metadata.uid];
        if (!reachable) {
            // Unreachable: the kubelet reports nothing; pending timers die with the epoch. The
            // node lifecycle controller marks the pods not ready (MarkPodsNotReady).
            ++st.epoch;
            st.started = pod.phase != "Pending";
            st.terminating = false;
            markNotReady(pod);
            continue;
        }
        if (pod.isDeleting()) {
            if (!st.terminating)
                postRemoval(pod);
            continue;
        }
        if (!runs) {
            ++st.epoch;
            st.started = pod.phase != "Pending";
            markNotReady(pod);
            continue;
        }
        // Node (back) in service: resume whatever the pod was waiting for.
        ++st.epoch;
        if (pod.phase == "Pending") {
            postStart(pod);
        } else if (pod.phase == "Running" && !pod.ready) {
            if (failing(pod))
                postCrash(pod, 10000);
            else
                postReady(pod);
        }
    }
}

void Kubelet::startNodeLeases()
{
    if (m_nodeLeases)
        return;
    m_nodeLeases = true;
    renewNodeLeases();
}

void Kubelet::renewNodeLeases()
{
    static const std::string kNamespace = "kube-node-lease";
    constexpr kube::Duration kRenewInterval = 10'000;
    constexpr int kLeaseDurationSeconds = 40;
    m_c.ensureNamespace(kNamespace);
    const std::string renewTime = kube::formatMicroTime(m_c.now);
    for (const auto &[name, node] : m_c.nodes) {
        if (!nodeReachable(name))
            continue;
        const std::string key = kNamespace + "/" + name;
        const kube::Json *old = m_c.jsonObject(api::Kind::Lease, key);
        kube::Json lease;
        if (old) {
            lease = *old;
        } else {
            kube::ObjectMeta meta;
            meta.name = name;
            meta.namespace_ = kNamespace;
            meta.uid = m_c.rng.uuid();
            meta.creationTimestamp = m_c.now;
            kube::OwnerReference owner;
            owner.apiVersion = "v1";
            owner.kind = "Node";
            owner.name = name;
            owner.uid = node.metadata.uid;
            meta.ownerReferences.push_back(owner);
            lease = {{"apiVersion", "coordination.k8s.io/v1"},
                     {"kind", "Lease"},
                     {"metadata", meta.toJson()},
                     {"spec", {{"holderIdentity", name}, {"leaseDurationSeconds", kLeaseDurationSeconds}}}};
        }
        lease["spec"]["renewTime"] = renewTime;
        m_c.commitJson(api::Kind::Lease, std::move(lease), old == nullptr);
    }
    if (auto leases = m_c.jsonObjects.find(api::Kind::Lease); leases != m_c.jsonObjects.end()) {
        std::vector<std::string> orphaned;
        const std::string prefix = kNamespace + "/";
        for (auto it = leases->second.lower_bound(prefix);
             it != leases->second.end() && it->first.rfind(prefix, 0) == 0; ++it) {
            const kube::Json *refs = kube::member(it->second["metadata"], "ownerReferences");
            if (!refs || !refs->is_array() || refs->empty() || kube::stringOr((*refs)[0], "kind") != "Node")
                continue;
            const std::string owner = kube::stringOr((*refs)[0], "name");
            auto n = m_c.nodes.find(owner);
            if (n == m_c.nodes.end() || n->second.metadata.uid != kube::stringOr((*refs)[0], "uid"))
                orphaned.push_back(it->first);
        }
        for (const auto &k : orphaned)
            m_c.eraseJson(api::Kind::Lease, k);
    }
    m_c.loop.post(m_c.now + kRenewInterval, [this] { renewNodeLeases(); });
}

} // namespace sim
