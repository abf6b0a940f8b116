#include "models/liveupgrade/observedupgrade.h"

#include "models/kube/timeutil.h"

#include <algorithm>

namespace models {

bool isDisruptionTaint(const std::string &key)
{
    return key == "ToBeDeletedByClusterAutoscaler" || key == "karpenter.sh/disrupted" ||
           key == "karpenter.sh/disruption";
}

int compareVersions(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            const qulonglong x = a.mid(i, ei - i).toULongLong(), y = b.mid(j, ej - j).toULongLong();
            if (x != y)
                return x < y ? -1 : 1;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j] ? -1 : 1;
        ++i;
        ++j;
    }
    return (a.size() - i) < (b.size() - j) ? -1 : (a.size() - i) > (b.size() - j) ? 1 : 0;
}

namespace {

// Warning events about a node that say a drain is held: an eviction a disruption budget
// refused, or a drain that failed (the autoscalers' wording).
bool blocksDrain(const EventInfo &e)
{
    if (e.type != QLatin1String("Warning"))
        return false;
    return e.message.contains(QLatin1String("disruption budget"), Qt::CaseInsensitive) ||
           e.reason == QLatin1String("FailedDraining") || e.reason == QLatin1String("EvictionRefused") ||
           e.reason == QLatin1String("ScaleDownFailed");
}

} // namespace

UpgradeNodeRow ObservedUpgradeTracker::rowOf(const QString &name, const Track &t)
{
    UpgradeNodeRow row;
    row.name = name;
    row.zone = t.zone;
    row.phase = t.phase;
    row.phaseSince = t.since;
    row.agentVersion = t.version;
    return row;
}

UpgradeNodePhase ObservedUpgradeTracker::infer(const NodeInfo &n, bool moved, bool targetKnown,
                                               const QString &target)
{
    const bool drainShown = n.unschedulable || !n.draining.isEmpty() || !n.disruptionTaint.isEmpty();
    if (!n.ready)
        return UpgradeNodePhase::Restarting;
    if (moved)
        return drainShown ? UpgradeNodePhase::Soaking : UpgradeNodePhase::Upgraded;
    if (n.draining == QLatin1String("Drained"))
        return UpgradeNodePhase::Restarting;
    if (n.draining == QLatin1String("DrainInProgress") || !n.disruptionTaint.isEmpty())
        return UpgradeNodePhase::DrainingManaged;
    if (n.unschedulable)
        return UpgradeNodePhase::Cordoned;
    return targetKnown && n.agentVersion == target ? UpgradeNodePhase::UpToDate : UpgradeNodePhase::Pending;
}

void ObservedUpgradeTracker::beginEpisode(qint64 now)
{
    m_seen = true;
    m_done = false;
    m_started = now;
    m_durations.clear();
    m_samples.clear();
    m_mostInFlight = 1;
    for (auto &[name, t] : m_nodes) {
        t.startVersion = t.version;
        t.left = 0;
        t.since = now;
        t.phase = UpgradeNodePhase::Pending;
        t.reboots = 0;
    }
}

std::optional<UpgradeRolloutInfo> ObservedUpgradeTracker::update(const std::vector<NodeInfo> &nodes,
                                                                 const std::vector<EventInfo> &events,
                                                                 qint64 now, bool rolloutRunning)
{
    if (rolloutRunning) {
        // A NodeUpgradeRollout's controller reports the upgrade: nothing is inferred, and what
        // it did is not taken for another tool's work afterwards.
        *this = ObservedUpgradeTracker();
        return std::nullopt;
    }
    if (nodes.empty())
        return std::nullopt;
    QString target;
    for (const auto &n : nodes)
        if (!n.agentVersion.isEmpty() && (target.isEmpty() || compareVersions(n.agentVersion, target) > 0))
            target = n.agentVersion;
    bool mixed = false;
    for (const auto &n : nodes)
        mixed = mixed || (!n.agentVersion.isEmpty() && n.agentVersion != target);
    if (!observe(nodes, target, now))
        return std::nullopt;
    m_target = target;

    UpgradeCountsInfo counts;
    std::array<int, kUpgradeNodePhaseCount> phases{};
    // The target is known once a node runs an older version or a node changed version.
    bool targetKnown = mixed;
    for (const auto &n : nodes)
        if (auto it = m_nodes.find(n.name); it != m_nodes.end() && !it->second.startVersion.isEmpty() &&
                                            it->second.startVersion != n.agentVersion)
            targetKnown = true;
    bool anyMoved = false;
    auto rows = track(nodes, drainBlockers(events), now, targetKnown, counts, phases, anyMoved);

    int inFlight = 0, pending = 0, present = 0;
    for (const auto &r : *rows) {
        if (r.phase == UpgradeNodePhase::Removed)
            continue;
        ++present;
        if (upgradeNodeInFlight(r.phase))
            ++inFlight;
        else if (r.phase == UpgradeNodePhase::Pending)
            ++pending;
        else
            ++counts.upToDate;
        if (r.phase == UpgradeNodePhase::Upgraded)
            ++counts.upgraded;
    }
    if (inFlight == 0 && !anyMoved && !mixed) {
        // A drain that changed no version (a reboot, maintenance): no upgrade after all.
        m_seen = false;
        m_samples.clear();
        return std::nullopt;
    }
    m_mostInFlight = std::max(m_mostInFlight, inFlight);
    counts.nodes = present;
    counts.inFlight = inFlight;
    counts.pending = pending;

    sample(now, phases, inFlight, counts.blocked);

    UpgradeRolloutInfo info;
    info.name = QString::fromLatin1(kObservedUpgradeName);
    info.observed = true;
    // Until a node runs an older version or changes version, the version the tool is heading for
    // is not known: the nodes all run the one they had.
    info.targetVersion = targetKnown || anyMoved ? m_target : QString();
    info.created = m_started;
    info.startedAt = m_started;
    info.counts = counts;
    info.unavailable = inFlight;
    info.maxUnavailableResolved = m_mostInFlight;
    info.maxUnavailable = QString::number(m_mostInFlight);
    info.blockedCondition = counts.blocked > 0;
    const bool done = pending == 0 && inFlight == 0;
    m_done = done;
    info.phase = done ? UpgradeRolloutPhase::Completed : UpgradeRolloutPhase::Progressing;
    if (!done && !m_durations.empty()) {
        qint64 sum = 0;
        for (qint64 d : m_durations)
            sum += d;
        const qint64 mean = sum / static_cast<qint64>(m_durations.size());
        info.eta = mean * (pending + inFlight) / std::max(1, m_mostInFlight);
    }
    info.headline = headlineOf(info, done, present, inFlight);
    info.nodes = std::move(rows);
    info.samples = std::make_shared<const std::vector<UpgradeSample>>(m_samples);
    info.events = std::make_shared<const std::vector<UpgradeEventInfo>>();
    return info;
}

// Whether there is an upgrade to show: one starts with a drain another tool shows, a cordoned
// node on an older version, or a node seen changing version — versions that merely differ do not
// (nodes waiting for an upgrade nobody runs yet). Until one starts, the nodes' versions, boot IDs
// and zones are remembered.
bool ObservedUpgradeTracker::observe(const std::vector<NodeInfo> &nodes, const QString &target, qint64 now)
{
    bool started = false;
    for (const auto &n : nodes) {
        const bool old = !n.agentVersion.isEmpty() && n.agentVersion != target;
        started =
            started || !n.draining.isEmpty() || !n.disruptionTaint.isEmpty() || (old && n.unschedulable);
        if (auto it = m_nodes.find(n.name);
            it != m_nodes.end() && !it->second.version.isEmpty() && it->second.version != n.agentVersion)
            started = true;
    }
    if (!m_seen || m_done) {
        if (!started) {
            for (const auto &n : nodes) {
                Track &t = m_nodes[n.name];
                t.version = n.agentVersion;
                t.bootID = n.bootID;
                t.zone = n.zone;
            }
            if (!m_seen)
                return false;
        } else {
            beginEpisode(now);
        }
    }
    return true;
}

// The messages of the newest events that hold a node's drain, at most three a node.
std::map<QString, QStringList> ObservedUpgradeTracker::drainBlockers(const std::vector<EventInfo> &events)
{
    std::map<QString, QStringList> blockers;
    for (const auto &e : events)
        if (e.object.startsWith(QLatin1String("node/")) && blocksDrain(e)) {
            QStringList &list = blockers[e.object.mid(5)];
            if (list.size() < 3 && !list.contains(e.message))
                list.append(e.message);
        }
    return blockers;
}

// Every node's track moved on to what it shows now, its row, and the nodes gone since the last
// look; counts the blocked nodes and the nodes per phase.
std::shared_ptr<std::vector<UpgradeNodeRow>>
ObservedUpgradeTracker::track(const std::vector<NodeInfo> &nodes,
                              const std::map<QString, QStringList> &blockers, qint64 now, bool targetKnown,
                              UpgradeCountsInfo &counts, std::array<int, kUpgradeNodePhaseCount> &phases,
                              bool &anyMoved)
{
    auto rows = std::make_shared<std::vector<UpgradeNodeRow>>();
    std::map<QString, Track> next;
    for (const auto &n : nodes) {
        Track t;
        if (auto it = m_nodes.find(n.name); it != m_nodes.end()) {
            t = it->second;
        } else {
            t.since = now; // a node that joins starts where it is
            t.startVersion = n.agentVersion;
        }
        if (!t.bootID.isEmpty() && !n.bootID.isEmpty() && n.bootID != t.bootID)
            ++t.reboots;
        t.bootID = n.bootID;
        t.version = n.agentVersion;
        t.zone = n.zone;
        const bool moved = !t.startVersion.isEmpty() && n.agentVersion != t.startVersion;
        anyMoved = anyMoved || moved;
        const UpgradeNodePhase phase = infer(n, moved, targetKnown, m_target);
        if (phase != t.phase) {
            if (t.phase == UpgradeNodePhase::Pending && phase != UpgradeNodePhase::UpToDate && t.left == 0)
                t.left = now;
            if (phase == UpgradeNodePhase::Upgraded && t.left > 0)
                m_durations.push_back(now - t.left);
            t.phase = phase;
            t.since = now;
        }
        UpgradeNodeRow row = rowOf(n.name, t);
        row.cordonOwner = n.unschedulable ? UpgradeCordonOwner::SomeoneElse : UpgradeCordonOwner::None;
        if (auto b = blockers.find(n.name); b != blockers.end() && upgradeNodePreRestart(t.phase)) {
            row.blockers = b->second;
            row.blocked = true;
            ++counts.blocked;
        }
        if (!n.draining.isEmpty())
            row.reason = n.draining;
        else if (!n.disruptionTaint.isEmpty())
            row.reason = n.disruptionTaint;
        if (t.reboots > 0)
            row.nextDeadline = tr("%n reboot(s) seen", nullptr, t.reboots);
        rows->push_back(std::move(row));
        ++phases[static_cast<int>(t.phase)];
        next[n.name] = t;
    }
    // Nodes gone since the last look (a pool that replaces its nodes removes the old ones).
    for (auto &[name, t] : m_nodes) {
        if (next.count(name))
            continue;
        if (t.phase != UpgradeNodePhase::Removed) {
            t.phase = UpgradeNodePhase::Removed;
            t.since = now;
        }
        rows->push_back(rowOf(name, t));
        next[name] = t;
    }
    m_nodes = std::move(next);
    std::sort(rows->begin(), rows->end(), [](const auto &a, const auto &b) { return a.name < b.name; });
    return rows;
}

// The chart's sample: kept when a phase count changed or kSampleInterval has passed.
void ObservedUpgradeTracker::sample(qint64 now, const std::array<int, kUpgradeNodePhaseCount> &phases,
                                    int inFlight, int blocked)
{
    UpgradeSample sample;
    sample.time = now;
    sample.phases = phases;
    sample.unavailable = inFlight;
    sample.maxUnavailable = m_mostInFlight;
    sample.blocked = blocked;
    if (m_samples.empty() || now - m_samples.back().time >= kSampleInterval ||
        m_samples.back().phases != sample.phases) {
        m_samples.push_back(sample);
        if (static_cast<int>(m_samples.size()) > kMaxSamples)
            m_samples.erase(m_samples.begin());
    }
}

QString ObservedUpgradeTracker::headlineOf(const UpgradeRolloutInfo &info, bool done, int present,
                                           int inFlight) const
{
    QString headline =
        done ? tr("Observed: all %1 nodes run %2").arg(present).arg(m_target)
        : info.targetVersion.isEmpty()
            ? tr("Observed: %1 in flight of %2 nodes · target version not known yet (no node has "
                 "changed version)")
                  .arg(inFlight)
                  .arg(present)
            : tr("Observed: %1/%2 nodes on %3 · %4 in flight")
                  .arg(info.counts.upToDate)
                  .arg(present)
                  .arg(m_target)
                  .arg(inFlight);
    if (info.eta >= 0)
        headline += tr(" · ETA %1").arg(QString::fromStdString(kube::humanAge(info.eta)));
    if (info.counts.blocked > 0)
        headline += tr(" · %n drain(s) held", nullptr, info.counts.blocked);
    return headline;
}

void addObservedUpgrade(ClusterSnapshot &snap, ObservedUpgradeTracker &tracker)
{
    bool running = false;
    for (const auto &r : *snap.upgrades)
        running = running || (r.running() && !r.observed);
    static const std::vector<EventInfo> noEvents;
    auto observed = tracker.update(snap.nodes ? *snap.nodes : std::vector<NodeInfo>(),
                                   snap.events ? *snap.events : noEvents, snap.clock.now, running);
    if (!observed)
        return;
    auto list = std::make_shared<UpgradeRolloutList>(*snap.upgrades);
    list->push_back(std::move(*observed));
    std::sort(list->begin(), list->end(), [](const auto &a, const auto &b) { return a.name < b.name; });
    snap.upgrades = std::move(list);
}

} // namespace models
