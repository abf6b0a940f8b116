// Property test of the DaemonSet controller over many seeds: random template and strategy
// changes, rollbacks, pause/resume, node faults, readiness flips and pod deletions, in stepped
// and continuous mode, with invariants (daemonset-semantics.md §6.1) checked after every sync:
//
// A. History (after every processed sync): exactly one owned ControllerRevision matches the
//    current template and its revision is strictly the highest; a revision number never
//    decreases, and the highest number never decreases.
// B. Cleanup (whenever a revision is deleted): it is not current and no pod of the DaemonSet
//    carries its hash.
// C. maxSurge = 0 (stepped, per sync, item 6): if the sync deleted an available old pod that
//    was alone on its node, afterwards U <= maxUnavailable, where U counts the nodes that are
//    desired or hold pods, minus those holding exactly one non-deleting pod that is available.
// D. maxSurge > 0 (stepped, per sync, item 7): if the sync created a pod next to an available
//    old pod, afterwards S - A <= maxSurge, where S counts nodes with excess pods or with an old
//    pod plus an unavailable new pod, and A is the number of creates next to unavailable old
//    pods in that sync (created regardless of the budget).
// E. Unavailable old pods are always replaced (stepped, RollingUpdate, per sync): afterwards no
//    node holds only an old pod that is unavailable.
// F. Without surge (stepped: after every sync; continuous: at every moment for a DaemonSet that
//    never allowed surge) no node holds two non-deleting pods of the DaemonSet.
#include "models/api/daemonsetlogic.h"
#include "models/sim/cluster.h"
#include "models/store/rng.h"

#include <QTest>

using kube::Json;
using namespace sim;
using store::Rng;
using namespace api;

namespace {

struct Checker
{
    Cluster &c;
    std::map<std::string, std::int64_t> maxRevisionOf; // CR name -> highest number seen
    std::int64_t maxRevision = 0;
    QStringList failures;
    static inline int checksC = 0, checksD = 0, checksA = 0;

    void fail(const QString &what)
    {
        if (failures.size() < 5)
            failures << what;
    }

    const kube::DaemonSet *ds() const { return c.daemonSet("default", "web"); }

    void history()
    {
        ++checksA;
        const auto *d = ds();
        if (!d)
            return;
        const std::string patch = daemonSetPatch(d->podTemplate());
        int current = 0;
        std::int64_t currentRev = -1, otherMax = 0;
        for (const auto *cr : c.controllerRevisionsOf("default", "web")) {
            if (cr->data == patch) {
                ++current;
                currentRev = cr->revision;
            } else {
                otherMax = std::max(otherMax, cr->revision);
            }
            auto &seen = maxRevisionOf[cr->metadata.name];
            if (cr->revision < seen)
                fail(QStringLiteral("A: revision of %1 went down")
                         .arg(QString::fromStdString(cr->metadata.name)));
            seen = std::max(seen, cr->revision);
            if (cr->revision > maxRevision)
                maxRevision = cr->revision;
        }
        if (current != 1)
            fail(QStringLiteral("A: %1 current revisions").arg(current));
        else if (currentRev <= otherMax)
            fail(QStringLiteral("A: current revision %1 is not above %2").arg(currentRev).arg(otherMax));
        if (currentRev >= 0 && currentRev < maxRevision)
            fail(QStringLiteral("A: highest revision went down"));
    }

    void onRevisionDeleted(const kube::ControllerRevision &cr)
    {
        const auto *d = ds();
        if (!d)
            return;
        if (cr.data == daemonSetPatch(d->podTemplate()))
            fail(QStringLiteral("B: deleted the current revision"));
        const std::string h = cr.metadata.label(kube::kRevisionHashLabel);
        for (const auto *p : c.podsOf("default", "web"))
            if (p->metadata.label(kube::kRevisionHashLabel) == h)
                fail(QStringLiteral("B: deleted live revision %1").arg(QString::fromStdString(h)));
    }

    struct NodeState
    {
        std::vector<const kube::Pod *> pods; // non-deleting
        bool shouldRun = false;
    };

    std::map<std::string, NodeState> nodeStates(const std::string &hash)
    {
        (void)hash;
        std::map<std::string, NodeState> out;
        const auto *d = ds();
        for (const auto *n : c.nodes())
            out[n->metadata.name].shouldRun = nodeShouldRunDaemonPod(*n, *d).shouldRun;
        for (const auto *p : c.podsOf("default", "web"))
            if (!p->isDeleting())
                out[p->node()].pods.push_back(p);
        return out;
    }

    void noTwoPods(const char *when)
    {
        for (const auto &[node, st] : nodeStates({}))
            if (st.pods.size() > 1)
                fail(QStringLiteral("F: %1 holds %2 pods (%3)")
                         .arg(QString::fromStdString(node))
                         .arg(st.pods.size())
                         .arg(QLatin1String(when)));
    }
};

Json dsManifest(Rng &rng, const Json &strategy)
{
    Json ds = {{"apiVersion", "apps/v1"},
               {"kind", "DaemonSet"},
               {"metadata", {{"name", "web"}, {"namespace", "default"}}},
               {"spec",
                {{"selector", {{"matchLabels", {{"app", "web"}}}}},
                 {"revisionHistoryLimit", static_cast<int>(rng.below(4))},
                 {"updateStrategy", strategy},
                 {"template",
                  {{"metadata", {{"labels", {{"app", "web"}}}}},
                   {"spec", {{"containers", Json::array({{{"name", "agent"}, {"image", "agent:1"}}})}}}}}}}};
    return ds;
}

Json randomStrategy(Rng &rng)
{
    switch (rng.below(6)) {
    case 0:
        return {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", 1}, {"maxSurge", 0}}}};
    case 1:
        return {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", 2}, {"maxSurge", 0}}}};
    case 2:
        return {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", "50%"}, {"maxSurge", 0}}}};
    case 3:
        return {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", 0}, {"maxSurge", 1}}}};
    case 4:
        return {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", 0}, {"maxSurge", "50%"}}}};
    default:
        return {{"type", "OnDelete"}, {"rollingUpdate", nullptr}};
    }
}

bool strategySurges(const Json &s)
{
    return s["type"] == "RollingUpdate" && s["rollingUpdate"]["maxSurge"] != 0;
}

bool updatedPod(const kube::Pod &p, const std::string &hash, std::optional<std::int64_t> gen)
{
    return isPodUpdated(p, hash, gen);
}

void syncWithChecks(Cluster &c, Checker &check)
{
    std::map<std::string, kube::Pod> before;
    for (const auto *p : c.podsOf("default", "web"))
        before[p->metadata.name] = *p;
    std::map<std::string, ShouldRun> should;
    for (const auto *n : c.nodes())
        should[n->metadata.name] = nodeShouldRunDaemonPod(*n, *check.ds());
    const SyncResult r = c.syncDaemonSet("default", "web");
    if (!r.ok)
        return;
    check.history();
    const kube::DaemonSet &ds = *check.ds();
    const std::string crName = c.currentRevisionName("default", "web");
    std::string hash;
    for (const auto *cr : c.controllerRevisionsOf("default", "web"))
        if (cr->metadata.name == crName)
            hash = cr->metadata.label(kube::kRevisionHashLabel);
    const auto gen = ds.templateGeneration();
    const kube::Timestamp now = c.now();
    const bool surge = allowsSurge(ds);
    if (!surge)
        check.noTwoPods("stepped");
    if (ds.updateStrategyType() != "RollingUpdate")
        return;

    // Post-sync node map: desired nodes and nodes holding any pod of the DaemonSet.
    struct After
    {
        int pods = 0; // any, deleting included
        std::vector<const kube::Pod *> live;
    };
    std::map<std::string, After> after;
    int desired = 0;
    for (const auto &[node, s] : should)
        if (s.shouldRun) {
            after[node];
            ++desired;
        }
    for (const auto *p : c.podsOf("default", "web")) {
        auto &a = after[p->node()];
        ++a.pods;
        if (!p->isDeleting())
            a.live.push_back(p);
    }
    auto budget = updatedDesiredNodeCounts(ds, desired);
    if (!budget)
        return;
    // E: no node is left holding only an unavailable old pod.
    for (const auto &[node, a] : after)
        if (a.live.size() == 1 && !updatedPod(*a.live[0], hash, gen) && !a.live[0]->isAvailable(0, now))
            check.fail(
                QStringLiteral("E: %1 keeps an unavailable old pod").arg(QString::fromStdString(node)));

    // Pre-sync facts about the nodes the sync touched.
    auto liveBefore = [&](const std::string &node) {
        std::vector<const kube::Pod *> out;
        for (const auto &[name, p] : before)
            if (p.node() == node && !p.isDeleting())
                out.push_back(&p);
        return out;
    };
    if (!surge) {
        bool deletedAvailableOld = false;
        for (const auto &d : r.deletes) {
            auto it = before.find(d.pod);
            if (it == before.end() || it->second.isDeleting())
                continue;
            const auto live = liveBefore(it->second.node());
            const bool cont =
                should.count(it->second.node()) && should[it->second.node()].shouldContinueRunning;
            if (cont && live.size() == 1 && !updatedPod(it->second, hash, gen) &&
                it->second.isAvailable(0, now))
                deletedAvailableOld = true;
        }
        if (deletedAvailableOld) {
            ++Checker::checksC;
            int u = 0;
            for (const auto &[node, a] : after)
                if (!(a.live.size() == 1 && a.live[0]->isAvailable(0, now)))
                    ++u;
            if (u > budget->maxUnavailable)
                check.fail(QStringLiteral("C: %1 unavailable after deleting available old pods, budget %2")
                               .arg(u)
                               .arg(budget->maxUnavailable));
        }
    } else {
        bool nextToAvailableOld = false;
        int allowed = 0;
        for (const auto &cr : r.creates) {
            for (const auto *p : liveBefore(cr.node)) {
                if (updatedPod(*p, hash, gen))
                    continue;
                if (p->isAvailable(0, now))
                    nextToAvailableOld = true;
                else
                    ++allowed;
            }
        }
        if (nextToAvailableOld) {
            ++Checker::checksD;
            int s = 0;
            for (const auto &[node, a] : after) {
                int nNew = 0, nOld = 0;
                const kube::Pod *newPod = nullptr;
                for (const auto *p : a.live) {
                    if (updatedPod(*p, hash, gen)) {
                        ++nNew;
                        newPod = p;
                    } else {
                        ++nOld;
                    }
                }
                if (nNew > 1 || nOld > 1 || (nNew == 1 && nOld == 1 && !newPod->isAvailable(0, now)))
                    ++s;
            }
            if (s - allowed > budget->maxSurge)
                check.fail(QStringLiteral("D: surge %1 (allowed %2) over budget %3")
                               .arg(s)
                               .arg(allowed)
                               .arg(budget->maxSurge));
        }
    }
}

QStringList runSeed(std::uint64_t seed)
{
    Rng rng(seed * 7919 + 13);
    ClusterOptions o;
    o.seed = seed;
    o.mode = seed % 4 == 0 ? Mode::Continuous : Mode::Stepped;
    o.start = 1767225600000;
    if (rng.below(3) == 0)
        o.kubelet.failingImages = {"*:broken"};
    Cluster c(o);
    Checker check{c, {}, 0, {}};
    const int nodes = 2 + static_cast<int>(rng.below(4));
    for (int i = 0; i < nodes; ++i)
        (void)c.create(
            Json{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n" + std::to_string(i)}}}});
    Json strategy = randomStrategy(rng);
    bool everSurged = strategySurges(strategy);
    if (!c.create(dsManifest(rng, strategy)).ok())
        return {QStringLiteral("create failed")};
    const bool continuousMode = o.mode == Mode::Continuous;

    int watchId = c.watchAll([&](const WatchEvent &ev) {
        if (ev.kind == Kind::ControllerRevision && ev.type == WatchEvent::Type::Deleted)
            check.onRevisionDeleted(*ev.controllerRevision);
        if (continuousMode && ev.kind == Kind::DaemonSet && ev.type == WatchEvent::Type::Modified &&
            ev.daemonSet->status.observedGeneration == ev.daemonSet->metadata.generation)
            check.history();
        if (continuousMode && !everSurged && ev.kind == Kind::Pod)
            check.noTwoPods("continuous");
    });

    const char *images[] = {"agent:1", "agent:2", "agent:3", "agent:broken"};
    auto podKeys = [&](bool onlyNotReady) {
        std::vector<std::string> out;
        for (const auto *p : c.podsOf("default", "web"))
            if (!onlyNotReady || !p->ready)
                out.push_back("default/" + p->metadata.name);
        return out;
    };
    for (int step = 0; step < 40 && check.failures.isEmpty(); ++step) {
        const auto action = rng.below(16);
        if (action <= 1) {
            Json p = {{"spec",
                       {{"template",
                         {{"spec",
                           {{"containers",
                             Json::array({{{"name", "agent"}, {"image", images[rng.below(4)]}}})}}}}}}}};
            (void)c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, p);
        } else if (action == 2) {
            const Json s = randomStrategy(rng);
            everSurged = everSurged || strategySurges(s);
            (void)c.patch(Kind::DaemonSet, "default", "web", PatchType::Merge,
                          {{"spec", {{"updateStrategy", s}}}});
        } else if (action == 3) {
            const auto revs = c.controllerRevisionsOf("default", "web");
            const std::int64_t top = revs.empty() ? 1 : revs.back()->revision;
            (void)c.rollback(
                "default", "web",
                rng.below(2) ? 0 : static_cast<std::int64_t>(1 + rng.below(static_cast<std::uint64_t>(top))));
        } else if (action == 4) {
            if (rng.below(2))
                (void)c.pause("default", "web");
            else
                (void)c.resume("default", "web");
        } else if (action == 5) {
            const std::string node = "n" + std::to_string(rng.below(static_cast<std::uint64_t>(nodes)));
            const FaultKind kinds[] = {FaultKind::NotReady, FaultKind::Ready, FaultKind::Unreachable,
                                       FaultKind::Ready};
            FaultKind k = kinds[rng.below(continuousMode ? 4 : 2)];
            (void)c.fault(node, k);
        } else if (action == 6) {
            auto all = podKeys(false);
            std::vector<std::string> some;
            for (const auto &k : all)
                if (rng.below(3) == 0)
                    some.push_back(k);
            (void)c.markReady(some, rng.below(3) != 0);
        } else if (action == 7) {
            auto all = podKeys(false);
            if (!all.empty()) {
                const std::string k = all[rng.below(all.size())];
                (void)c.remove(Kind::Pod, "default", k.substr(8));
            }
        } else if (continuousMode) {
            c.advance(500 + static_cast<kube::Duration>(rng.below(15000)));
            if (!everSurged)
                check.noTwoPods("continuous");
        } else {
            if (action >= 14)
                (void)c.markReady(podKeys(true), true);
            syncWithChecks(c, check);
        }
    }
    c.unwatch(watchId);
    return check.failures;
}

} // namespace

class TestEngineProperty : public QObject
{
    Q_OBJECT
private slots:
    void invariantsHoldForManySeeds();
};

void TestEngineProperty::invariantsHoldForManySeeds()
{
    const int seeds = qEnvironmentVariableIntValue("DAEMONSCOPE_PROPERTY_SEEDS") > 0
                          ? qEnvironmentVariableIntValue("DAEMONSCOPE_PROPERTY_SEEDS")
                          : 1000;
    for (int s = 1; s <= seeds; ++s) {
        const QStringList failures = runSeed(static_cast<std::uint64_t>(s));
        if (!failures.isEmpty())
            QFAIL(qPrintable(QStringLiteral("seed %1: %2").arg(s).arg(failures.join(QStringLiteral("; ")))));
    }
    qInfo("history checks %d, budget checks without surge %d, with surge %d", Checker::checksA,
          Checker::checksC, Checker::checksD);
    QVERIFY(Checker::checksC > 0 && Checker::checksD > 0);
}

QTEST_GUILESS_MAIN(TestEngineProperty)
#include "tst_engineproperty.moc"
