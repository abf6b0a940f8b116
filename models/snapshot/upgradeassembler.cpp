#include "models/snapshot/upgradeassembler.h"

#include "models/planners/upgradephrases.h"
#include "models/snapshot/snapshot.h"

#include "models/api/kubectldrain.h"
#include "models/controllers/nodeupgradecontroller.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "models/kube/timeutil.h"

#include <QCoreApplication>

#include <algorithm>
#include <cctype>

namespace models {

namespace {

static_assert(int(api::NodePhase::Removed) == int(UpgradeNodePhase::Removed) &&
                  int(api::NodePhase::Soaking) == int(UpgradeNodePhase::Soaking) &&
                  controllers::kNodePhaseCount == kUpgradeNodePhaseCount,
              "UpgradeNodePhase mirrors api::NodePhase");
static_assert(int(api::RolloutPhase::Pending) == int(UpgradeRolloutPhase::Pending) &&
                  int(api::RolloutPhase::Halted) == int(UpgradeRolloutPhase::Halted) &&
                  int(api::RolloutPhase::CompletedWithExceptions) ==
                      int(UpgradeRolloutPhase::CompletedWithExceptions),
              "UpgradeRolloutPhase mirrors api::RolloutPhase");

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

QStringList qList(const std::vector<std::string> &v)
{
    QStringList out;
    out.reserve(qsizetype(v.size()));
    for (const auto &s : v)
        out.append(q(s));
    return out;
}

QString policyText(const api::NodeUpgradeRolloutSpec &spec)
{
    QString text = QLatin1String(api::unmanagedPodPolicyName(spec.unmanagedPodPolicy));
    if (spec.unmanagedPodPolicy == api::UnmanagedPodPolicy::AfterTimeout)
        text += QLatin1Char('(') + q(kube::formatDuration(spec.timeouts.unmanagedTimeout)) + QLatin1Char(')');
    return text;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

template <typename T> void share(std::shared_ptr<const T> &next, const std::shared_ptr<const T> &previous)
{
    if (previous && next && *previous == *next)
        next = previous;
}

} // namespace

namespace {

// Per-node rows. The time in phase is kept as a start time so that rows of a quiet node do
// not change with the clock.
// `members` gets the objects the rows name ("node/NAME"), whose events the page shows.
std::shared_ptr<const std::vector<UpgradeNodeRow>>
nodeRows(const UpgradeInfoSource &source, const std::string &name, std::set<std::string> &members)
{
    const qint64 now = source.cluster.now();
    auto rows = std::make_shared<std::vector<UpgradeNodeRow>>();
    for (auto &row : source.controller ? source.controller->table(name)
                                       : controllers::nodeUpgradeTable(source.cluster, name, nullptr)) {
        members.insert("node/" + row.name);
        UpgradeNodeRow out;
        out.name = q(row.name);
        out.zone = q(row.zone);
        out.queuePosition = row.queuePosition;
        out.phase = static_cast<UpgradeNodePhase>(static_cast<int>(row.phase));
        out.phaseSince = row.timeInPhase > 0 ? now - row.timeInPhase : 0;
        out.nextDeadline = phraseText(row.nextDeadline);
        out.reason = phraseText(row.reason);
        out.blockers = phraseTexts(row.blockers);
        out.attempt = row.attempt;
        out.cordonOwner = static_cast<UpgradeCordonOwner>(static_cast<int>(row.cordonOwner));
        out.held = row.held;
        out.blocked = row.blocked;
        out.agentVersion = q(row.agentVersion);
        rows->push_back(std::move(out));
    }
    std::sort(rows->begin(), rows->end(),
              [](const UpgradeNodeRow &a, const UpgradeNodeRow &b) { return a.name < b.name; });
    return rows;
}

// Metrics samples: only re-read when the controller made another pass.
std::shared_ptr<const std::vector<UpgradeSample>>
samplesOf(const UpgradeInfoSource &source, const std::string &name, const UpgradeRolloutInfo *previous,
          std::map<std::string, std::size_t> &sampleTotals, int maxSamples)
{
    const controllers::NodeUpgradeMetrics *metrics = source.metrics;
    const std::size_t total = metrics ? metrics->totalSamples() : 0;
    const auto lastTotal = sampleTotals.find(name);
    const bool samplesUnchanged = lastTotal != sampleTotals.end() && lastTotal->second == total;
    sampleTotals[name] = total;
    if (previous && previous->samples && samplesUnchanged) {
        return previous->samples;
    }
    auto samples = std::make_shared<std::vector<UpgradeSample>>();
    if (metrics) {
        const auto all = metrics->samples();
        const std::size_t first =
            all.size() > std::size_t(maxSamples) ? all.size() - std::size_t(maxSamples) : 0;
        samples->reserve(all.size() - first);
        for (std::size_t i = first; i < all.size(); ++i) {
            const auto &s = all[i];
            UpgradeSample out;
            out.time = s.time;
            std::copy(s.phases.begin(), s.phases.end(), out.phases.begin());
            out.unavailable = s.unavailable;
            out.maxUnavailable = s.maxUnavailable;
            out.blocked = s.blocked;
            out.minReadyRatio = s.minControllerReadyRatio ? *s.minControllerReadyRatio : -1.0;
            samples->push_back(out);
        }
    }
    return samples;
}

// Events about this rollout or its nodes, most recently emitted first.
std::shared_ptr<const std::vector<UpgradeEventInfo>> eventsOf(const UpgradeInfoSource &source,
                                                              const std::string &name,
                                                              const std::set<std::string> &members,
                                                              int maxEvents)
{
    static const api::NodeUpgradeEvents noEvents;
    const api::NodeUpgradeEvents &log = source.events ? *source.events : noEvents;
    const auto &entries = log.entries();
    const auto &emissions = log.emissions();
    const std::string self = "nodeupgraderollout/" + name;
    auto events = std::make_shared<std::vector<UpgradeEventInfo>>();
    std::set<std::size_t> seen;
    for (auto it = emissions.rbegin(); it != emissions.rend() && int(events->size()) < maxEvents; ++it) {
        const std::size_t index = it->second;
        if (index >= entries.size() || !seen.insert(index).second)
            continue;
        const auto &e = entries[index];
        if (e.object != self && !members.count(e.object))
            continue;
        events->push_back(UpgradeEventInfo{q(e.object), q(e.type), q(e.reason),
                                           phraseText(api::upgradeEventPhrase(e.code, e.params)), e.count,
                                           e.firstTime, e.lastTime});
    }
    return events;
}

// The resume preview is a dry run of a pass: only while paused or halted.
std::shared_ptr<const UpgradePreviewInfo> previewOf(const UpgradeInfoSource &source, const std::string &name,
                                                    api::RolloutPhase phase)
{
    auto preview = std::make_shared<UpgradePreviewInfo>();
    if (source.controller && (phase == api::RolloutPhase::Paused || phase == api::RolloutPhase::Halted)) {
        const controllers::NodeUpgradePreview p = source.controller->preview(name);
        preview->nextNodes = qList(p.nextNodes);
        for (const auto &d : p.deletions)
            preview->deletions << QCoreApplication::translate("models::UpgradeSnapshotBuilder",
                                                              "%1 on %2: %3")
                                      .arg(q(d.pod), q(d.node), phraseText(d.why));
        preview->kamikazes = qList(p.kamikazes);
        preview->summary = phraseText(p.summaryPhrase());
    }
    return preview;
}

} // namespace

UpgradeRolloutInfo buildUpgradeRolloutInfo(const UpgradeInfoSource &source, const std::string &name,
                                           const UpgradeRolloutInfo *previous,
                                           std::map<std::string, std::size_t> &sampleTotals, int maxSamples,
                                           int maxEvents)
{
    const api::NodeUpgradeRollout &r = *source.cluster.rollout(name);
    const auto &spec = r.spec;
    const auto &st = r.status;
    UpgradeRolloutInfo info;
    info.name = q(name);
    info.generation = r.metadata.generation;
    info.observedGeneration = st.observedGeneration;
    info.created = r.metadata.creationTimestamp.value_or(0);
    info.targetVersion = q(spec.targetVersion);
    QStringList selector;
    for (const auto &[k, v] : spec.nodeSelector)
        selector << q(k) + QLatin1Char('=') + q(v);
    info.nodeSelector = selector.join(QStringLiteral(", "));
    info.maxUnavailable = q(spec.maxUnavailable.toString());
    info.unmanagedPodPolicy = policyText(spec);
    info.onDrainTimeout = QLatin1String(api::drainTimeoutPolicyName(spec.onDrainTimeout));
    info.singleReplicaPolicy = QLatin1String(api::singleReplicaPolicyName(spec.singleReplicaPolicy));
    info.healthThreshold = spec.controllerHealthThreshold;
    info.maxFailedNodes = spec.maxFailedNodes;
    info.zoneSerial = spec.zoneSerial;
    info.paused = spec.paused;
    info.pauseReason = q(spec.pauseReason);
    info.abort = spec.abort;

    info.phase = static_cast<UpgradeRolloutPhase>(static_cast<int>(st.phase));
    // The headline as the driving controller phrased it, in this console's language — whichever
    // process drives; the English text only from a writer that sends no phrase this version
    // reads.
    info.headline = st.headlinePhrase.empty() ? q(st.headline) : phraseText(st.headlinePhrase);
    const auto &c = st.counts;
    info.counts = UpgradeCountsInfo{c.nodes, c.upToDate, c.upgraded, c.inFlight, c.pending,
                                    c.held,  c.blocked,  c.failed,   c.skipped};
    info.unavailable = st.unavailable;
    info.maxUnavailableResolved = st.maxUnavailableResolved;
    info.maxUnavailableClamped = st.maxUnavailableClamped;
    info.eta = st.eta ? *st.eta : -1;
    info.queue = qList(st.queue);
    info.refusal = q(st.refusal);
    info.startedAt = st.startedAt.value_or(0);
    info.pausedAt = st.pausedAt.value_or(0);
    for (const auto &cond : st.conditions) {
        if (cond.type == "Blocked" && cond.status == "True")
            info.blockedCondition = true;
        if (cond.status == "True")
            info.conditions << q(cond.type) + QStringLiteral("=True (") + q(cond.reason) + QLatin1Char(')');
    }

    std::set<std::string> members;
    info.nodes = nodeRows(source, name, members);
    info.samples = samplesOf(source, name, previous, sampleTotals, maxSamples);
    info.events = eventsOf(source, name, members, maxEvents);
    info.preview = previewOf(source, name, st.phase);
    if (previous) {
        share(info.nodes, previous->nodes);
        share(info.events, previous->events);
        share(info.preview, previous->preview);
    }
    return info;
}

UpgradeInventoryCounter::UpgradeInventoryCounter(const std::vector<const kube::Node *> &nodes)
{
    for (const kube::Node *n : nodes) {
        UpgradeNodeWorkload &w = m_byNode[n->metadata.name];
        w.node = q(n->metadata.name);
        if (auto since = api::parseUpgradeTime(n->metadata.annotation(api::ann::kIncompatibleSince)))
            w.incompatibleSince = *since;
        w.controllerHost = n->metadata.labels.count(api::kControllerHostLabel) > 0;
    }
}

void UpgradeInventoryCounter::countPod(const std::string &key, const std::string &node, api::PodClass cls,
                                       const std::string &owner, int replicas, bool localData)
{
    auto it = m_byNode.find(node);
    if (it == m_byNode.end())
        return;
    UpgradeNodeWorkload &w = it->second;
    if (localData && cls != api::PodClass::DaemonSet)
        w.localDataPods << q(key);
    switch (cls) {
    case api::PodClass::DaemonSet:
        ++w.daemonSetPods;
        break;
    case api::PodClass::Managed:
        ++w.managedPods;
        if (replicas == 1 && !w.singleReplicaOwners.contains(q(owner)))
            w.singleReplicaOwners << q(owner);
        break;
    case api::PodClass::Unmanaged:
        w.unmanagedPods << q(key);
        break;
    case api::PodClass::Ignored:
        break;
    }
}

std::shared_ptr<const UpgradeInventory> UpgradeInventoryCounter::finish()
{
    auto out = std::make_shared<UpgradeInventory>();
    out->reserve(m_byNode.size());
    for (auto &[name, w] : m_byNode)
        out->push_back(std::move(w));
    m_byNode.clear();
    return out;
}

std::string UpgradeInventoryCounter::ownerKey(const kube::Pod &p, api::PodClass cls)
{
    if (const auto *ref = p.metadata.controllerRef(); ref && cls == api::PodClass::Managed)
        return lower(ref->kind) + "/" + p.metadata.namespace_ + "/" + ref->name;
    return {};
}

std::shared_ptr<const UpgradeInventory> buildUpgradeInventory(const controllers::UpgradeCluster &cluster)
{
    UpgradeInventoryCounter counter(cluster.nodes());
    for (const kube::Pod *p : cluster.pods()) {
        const auto cls = api::classifyPod(*p, true);
        if (cls == api::PodClass::Ignored)
            continue;
        const std::string owner = UpgradeInventoryCounter::ownerKey(*p, cls);
        int replicas = -1;
        if (const auto *ref = p->metadata.controllerRef(); !owner.empty() && ref->kind == "ReplicaSet")
            if (const kube::ReplicaSet *rs = cluster.replicaSet(p->metadata.namespace_, ref->name))
                replicas = rs->replicas();
        counter.countPod(p->metadata.key(), p->node(), cls, owner, replicas, api::hasLocalStorage(*p));
    }
    return counter.finish();
}

} // namespace models
