// Invariants I1–I6 of docs node-upgrade.md, asserted on every controller pass (and right before
// every disruptive write) over random seeds, with random admin actions (pause, resume, hold,
// release, skip, retry, force, acknowledge, node abort, manual pod deletions, cordon,
// uncordon, controller restarts) and random faults. Every check recomputes what it needs from
// the cluster, independently of the controller. After the chaos the admin cleans up and the
// rollout must finish. The controller's view kept from the watches must equal a fresh reading of
// the store at every pass (verifyIncremental).
#include "models/sim/nodeupgraderuntime.h"
#include "tests/support/replicaset.h"

#include <QTest>

#include <random>

using kube::Json;
using namespace sim;
using namespace api;

namespace {

const kube::Timestamp kStart = 1767225600000;

Json replicaSet(const std::string &name, int replicas)
{
    return testsupport::replicaSetManifest(name, "default", replicas, "c", "nginx:1.27");
}

Json barePod(const std::string &name, const std::string &node)
{
    return {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", name}, {"namespace", "default"}}},
        {"spec",
         {{"nodeName", node}, {"containers", Json::array({{{"name", "c"}, {"image", "busybox:1.36"}}})}}}};
}

Json daemonSet()
{
    return {{"apiVersion", "apps/v1"},
            {"kind", "DaemonSet"},
            {"metadata", {{"name", "agent"}, {"namespace", "kube-system"}}},
            {"spec",
             {{"selector", {{"matchLabels", {{"app", "agent"}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", "agent"}}}}},
                {"spec",
                 {{"tolerations", Json::array({{{"operator", "Exists"}}})},
                  {"containers", Json::array({{{"name", "agent"}, {"image", "agent:1"}}})}}}}}}}};
}

bool controllerExists(const Cluster &c, const kube::Pod &p)
{
    const auto *ref = p.metadata.controllerRef();
    if (!ref || ref->kind != "ReplicaSet")
        return false;
    const auto *rs = c.replicaSet(p.metadata.namespace_, ref->name);
    return rs && rs->metadata.uid == ref->uid;
}

// The invariant checker: an observer that recomputes everything from the cluster.
class Checker : public controllers::NodeUpgradeObserver
{
public:
    Checker(Cluster &c, NodeUpgradeRuntime &rt) : m_c(c), m_rt(rt) {}

    std::vector<std::string> violations;
    int passes = 0;
    int deletions = 0;
    int kamikazes = 0;

    void beforePodDelete(const std::string &rollout, const kube::Pod &pod, PodClass cls, GateVerdict verdict,
                         bool forced) override
    {
        ++deletions;
        if (qEnvironmentVariableIsSet("UPGRADE_PROPERTY_LOG"))
            qInfo("%s delete %s on %s verdict %s forced %d ready %d", formatUpgradeTime(m_c.now()).c_str(),
                  pod.metadata.name.c_str(), pod.node().c_str(), gateVerdictName(verdict), int(forced),
                  int(pod.ready));
        const auto *r = m_rt.rollouts().get(rollout);
        const kube::Node *node = m_c.node(pod.node());
        if (!r || !node)
            return fail("deletion without a rollout or node: " + pod.metadata.name);
        const auto &spec = r->spec;
        // Pause (and Halted, an automatic pause) stops disruption.
        if (spec.paused)
            fail("pod " + pod.metadata.name + " deleted while the rollout is paused");
        int failedUnacknowledged = 0;
        for (const auto *n : m_c.nodes())
            if (n->metadata.annotation(ann::kPhase) == "Failed" &&
                n->metadata.annotation(ann::kFailureAcknowledged).empty())
                ++failedUnacknowledged;
        if (!spec.abort && failedUnacknowledged >= spec.maxFailedNodes)
            fail("pod " + pod.metadata.name + " deleted while the rollout is halted");
        if (node->metadata.annotation(ann::kHold) == "true")
            fail("pod " + pod.metadata.name + " deleted on a held node");
        if (forced) {
            if (node->metadata.annotation(ann::kForce).empty())
                fail("forced deletion of " + pod.metadata.name + " without a force request");
            return;
        }
        if (cls == PodClass::DaemonSet || cls == PodClass::Ignored)
            fail("deleted a " + std::string(podClassName(cls)) + " pod " + pod.metadata.name);
        if (cls == PodClass::Unmanaged) {
            // after every managed pod is gone, and only as the policy allows
            for (const auto *p : m_c.pods())
                if (p->node() == pod.node() &&
                    classifyPod(*p, controllerExists(m_c, *p)) == PodClass::Managed)
                    fail("unmanaged pod " + pod.metadata.name + " deleted while managed pods remain");
            const auto since = parseUpgradeTime(node->metadata.annotation(ann::kIncompatibleSince));
            const bool allowed = spec.unmanagedPodPolicy == UnmanagedPodPolicy::Immediate ||
                                 (spec.unmanagedPodPolicy == UnmanagedPodPolicy::AfterTimeout && since &&
                                  m_c.now() - *since >= spec.timeouts.unmanagedTimeout);
            if (!allowed)
                fail("unmanaged pod " + pod.metadata.name + " deleted against the policy");
            return;
        }
        // I2: managed pods only through the health gate and the in-flight limit.
        const auto *ref = pod.metadata.controllerRef();
        const kube::ReplicaSet *rs = ref ? m_c.replicaSet(pod.metadata.namespace_, ref->name) : nullptr;
        if (!rs)
            return fail("managed pod " + pod.metadata.name + " without its ReplicaSet");
        const int desired = rs->replicas();
        int ready = 0;
        for (const auto *p : m_c.pods())
            if (const auto *pr = p->metadata.controllerRef(); pr && pr->uid == rs->metadata.uid)
                ready += p->ready && !p->isDeleting() ? 1 : 0;
        const bool unready = !pod.ready && spec.unreadyPodPolicy == UnreadyPodPolicy::AlwaysDelete;
        if (unready) {
            if (verdict != GateVerdict::DeleteUnready)
                fail("unready pod " + pod.metadata.name + " deleted with verdict " +
                     gateVerdictName(verdict));
            return;
        }
        if (desired == 1 && spec.singleReplicaPolicy == SingleReplicaPolicy::Block)
            fail("single replica " + pod.metadata.name + " deleted under policy Block");
        const double need = spec.controllerHealthThreshold * desired;
        const bool healthy =
            spec.healthComparison == HealthComparison::AtLeast ? ready >= need - 1e-9 : ready > need + 1e-9;
        if (!healthy)
            fail("I2: " + pod.metadata.name + " deleted at " + std::to_string(ready) + "/" +
                 std::to_string(desired) + " ready");
        auto &entries = m_inflight[rs->metadata.uid];
        entries.erase(std::remove_if(entries.begin(), entries.end(),
                                     [&](int before) { return ready >= std::min(before, desired); }),
                      entries.end());
        if (static_cast<int>(entries.size()) >= spec.maxInflightPerController) {
            std::string detail =
                " (ready " + std::to_string(ready) + "/" + std::to_string(desired) + ", before:";
            for (int b : entries)
                detail += " " + std::to_string(b);
            detail += "; controller's:";
            for (const auto &d : r->status.inflight)
                detail += " " + d.pod + "@" + std::to_string(d.readyBefore);
            fail("I2: " + pod.metadata.name + " deleted with " + std::to_string(entries.size()) +
                 " deletion(s) of its controller in flight" + detail + ")");
        }
        entries.push_back(ready);
    }

    void beforeUncordon(const std::string &, const kube::Node &node) override
    {
        // I3
        if (node.metadata.annotation(ann::kCordonedByController) != "true")
            fail("I3: uncordoned " + node.metadata.name + " which the controller had not cordoned");
    }

    void beforeKamikaze(const std::string &, const kube::Node &node) override
    {
        ++kamikazes;
        // I4: a fresh pod list shows nothing but DaemonSet and ignored pods.
        for (const auto *p : m_c.pods())
            if (p->node() == node.metadata.name) {
                const PodClass c = classifyPod(*p, controllerExists(m_c, *p));
                if (c == PodClass::Managed || c == PodClass::Unmanaged)
                    fail("I4: kamikaze to " + node.metadata.name + " with pod " + p->metadata.name +
                         " on it");
            }
        // A held node stops before the point of no return; re-sends (Restarting) and an admin's
        // retry (Failed) are past it.
        const auto phase = nodePhaseFromString(node.metadata.annotation(ann::kPhase));
        if (node.metadata.annotation(ann::kHold) == "true" && phase && isPreRestart(*phase))
            fail("kamikaze to held node " + node.metadata.name);
    }

    void afterPass(const controllers::NodeUpgradePassReport &report) override
    {
        ++passes;
        const auto *r = m_rt.rollouts().get(report.rollout);
        if (!r)
            return;
        if (qEnvironmentVariableIsSet("UPGRADE_PROPERTY_LOG")) {
            std::string inflight;
            for (const auto &d : r->status.inflight)
                inflight += " " + d.pod + "@" + std::to_string(d.readyBefore);
            qInfo("%s pass %s inflight:%s", formatUpgradeTime(m_c.now()).c_str(),
                  rolloutPhaseName(r->status.phase), inflight.c_str());
        }
        // A replacement counts as back once the controller was seen at its earlier ready count
        // on a pass (the controller observes on passes too).
        for (auto &[uid, entries] : m_inflight) {
            const kube::ReplicaSet *rs = nullptr;
            for (const auto *x : m_c.replicaSets())
                if (x->metadata.uid == uid)
                    rs = x;
            int ready = 0;
            for (const auto *p : m_c.pods())
                if (const auto *pr = p->metadata.controllerRef(); pr && pr->uid == uid)
                    ready += p->ready && !p->isDeleting() ? 1 : 0;
            const int desired = rs ? rs->replicas() : 0;
            entries.erase(
                std::remove_if(entries.begin(), entries.end(),
                               [&](int before) { return !rs || ready >= std::min(before, desired); }),
                entries.end());
        }
        // I1: nodes are selected only within the budget (computed here from the nodes).
        if (!report.selected.empty()) {
            if (r->spec.paused || r->spec.abort)
                fail("node selected while paused or aborting");
            int unavailable = 0, matched = 0;
            for (const auto *n : m_c.nodes()) {
                ++matched;
                const auto phase =
                    nodePhaseFromString(n->metadata.annotation(ann::kPhase)).value_or(NodePhase::UpToDate);
                if (isInFlight(phase) || phase == NodePhase::Failed || !n->isReady() || n->unschedulable)
                    ++unavailable;
            }
            const int budget = resolveMaxUnavailable(r->spec.maxUnavailable, matched).value;
            if (unavailable > budget)
                fail("I1: " + std::to_string(unavailable) + " unavailable > " + std::to_string(budget) +
                     " after selecting " + report.selected.front());
        }
        // I6: reporting never stops — one metrics sample per pass, a headline, counts.
        const auto *m = m_rt.metrics(report.rollout);
        if (!m)
            return fail("I6: no metrics");
        auto &last = m_samples[report.rollout];
        if (m->totalSamples() != last + 1)
            fail("I6: metrics not sampled on a pass");
        last = m->totalSamples();
        if (r->status.headline.empty())
            fail("I6: empty headline");
        if (r->status.phase != report.phase)
            fail("status not written on a pass");
    }

private:
    void fail(const std::string &what)
    {
        if (violations.size() < 20)
            violations.push_back(formatUpgradeTime(m_c.now()) + " " + what);
    }

    Cluster &m_c;
    NodeUpgradeRuntime &m_rt;
    std::map<std::string, std::vector<int>> m_inflight; // RS uid -> ready count before each deletion
    std::map<std::string, std::size_t> m_samples;
};

} // namespace

class TstUpgradeProperty : public QObject
{
    Q_OBJECT

private slots:
    void invariantsHoldUnderChaos_data();
    void invariantsHoldUnderChaos();
};

void TstUpgradeProperty::invariantsHoldUnderChaos_data()
{
    QTest::addColumn<int>("seed");
    const int seeds = qEnvironmentVariableIsSet("UPGRADE_PROPERTY_SEEDS")
                          ? qEnvironmentVariableIntValue("UPGRADE_PROPERTY_SEEDS")
                          : 16;
    const int first = qEnvironmentVariableIsSet("UPGRADE_PROPERTY_FIRST")
                          ? qEnvironmentVariableIntValue("UPGRADE_PROPERTY_FIRST")
                          : 1;
    for (int s = first; s < first + seeds; ++s)
        QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(s))) << s;
}

void TstUpgradeProperty::invariantsHoldUnderChaos()
{
    QFETCH(int, seed);
    std::mt19937_64 rnd(static_cast<std::uint64_t>(seed) * 7919);
    auto pick = [&](int n) { return static_cast<int>(rnd() % static_cast<std::uint64_t>(n)); };

    ClusterOptions o;
    o.seed = static_cast<std::uint64_t>(seed);
    o.start = kStart;
    o.kubelet.startDelay = 2000;
    o.kubelet.readyDelay = 1000;
    o.kubelet.terminationGrace = 2000;
    Cluster c(o);
    const int nodeCount = 6 + pick(5);
    std::vector<std::string> names;
    for (int i = 0; i < nodeCount; ++i) {
        kube::Node n;
        n.metadata.name = "n" + std::to_string(i);
        n.metadata.labels["topology.kubernetes.io/zone"] = std::string("zone-") + char('a' + pick(3));
        n.kubeletVersion = pick(6) == 0 ? "v2.0.0" : "v1.0.0";
        n.setCondition({"Ready", "True", "KubeletReady", "", kStart});
        QVERIFY(c.addNode(n).ok());
        names.push_back(n.metadata.name);
    }
    QVERIFY(c.apply(daemonSet()).ok());
    QVERIFY(c.apply(replicaSet("web", 10 + pick(10))).ok());
    QVERIFY(c.apply(replicaSet("api", 4 + pick(6))).ok());
    QVERIFY(c.apply(replicaSet("db", 1)).ok());
    for (int i = 0; i < 3; ++i)
        QVERIFY(
            c.apply(barePod("tool-" + std::to_string(i), names[static_cast<std::size_t>(pick(nodeCount))]))
                .ok());
    c.advance(30000);

    // The controller also compares the view it keeps from the watches with a fresh reading of
    // the store at every pass.
    NodeUpgradeRuntimeOptions ro;
    ro.controller.verifyIncremental = true;
    NodeUpgradeRuntime rt(c, ro);
    Checker checker(c, rt);
    rt.setObserver(&checker);

    const char *unmanaged[] = {"immediate", "never"};
    const char *onTimeout[] = {"Hold", "Skip", "Force"};
    Json spec = {{"name", "agents"},
                 {"targetVersion", "v2.0.0"},
                 {"maxUnavailable", pick(3) == 0 ? Json("25%") : Json(1 + pick(2))},
                 {"singleReplicaPolicy", pick(2) ? "Allow" : "Block"},
                 {"unreadyPodPolicy", pick(3) ? "AlwaysDelete" : "CountTowardHealth"},
                 {"onDrainTimeout", onTimeout[pick(3)]},
                 {"maxFailedNodes", 1 + pick(2)},
                 {"controllerHealthThreshold", pick(2) ? 0.9 : 0.5},
                 {"maxInflightPerController", 1 + pick(2)},
                 {"healthComparison", pick(3) ? "GreaterThan" : "AtLeast"},
                 {"zoneSerial", pick(4) != 0},
                 {"soakDuration", "20s"},
                 {"timeouts",
                  {{"drainStall", "1m"},
                   {"drainTimeout", "4m"},
                   {"returnTimeout", "3m"},
                   {"ackTimeout", "20s"},
                   {"ackRetries", 1}}}};
    spec["unmanagedPodPolicy"] = pick(3) == 0 ? Json({{"afterTimeout", "3m"}}) : Json(unmanaged[pick(2)]);
    QVERIFY(rt.upgradeStep(spec).ok());

    auto control = [&](const std::string &action, const std::string &node = {}) {
        (void)rt.upgradeControlStep({{"name", "agents"}, {"action", action}, {"node", node}});
    };
    const FaultKind faults[] = {FaultKind::NotReady,      FaultKind::Ready, FaultKind::AgentUnresponsive,
                                FaultKind::NeverReturns,  FaultKind::Ready, FaultKind::ReturnsOldVersion,
                                FaultKind::FlapsNotReady, FaultKind::Ready, FaultKind::RebootsQuickly};
    bool aborted = false;
    std::set<std::string> adminCordoned;
    // Chaos: 90 minutes of random actions every 5–60 s.
    const kube::Timestamp chaosEnd = c.now() + 90 * 60 * 1000;
    while (c.now() < chaosEnd) {
        c.advance(5000 + pick(55) * 1000);
        const auto live = c.nodes();
        if (live.empty())
            break;
        const std::string node =
            live[static_cast<std::size_t>(pick(static_cast<int>(live.size())))]->metadata.name;
        switch (pick(16)) {
        case 0:
            control("pause");
            break;
        case 1:
        case 2:
            control("resume");
            break;
        case 3:
            control("hold", node);
            break;
        case 4:
            control("release", node);
            break;
        case 5:
            control(pick(2) ? "skip" : "retry", node);
            break;
        case 6:
            control("force", node);
            break;
        case 7:
            control("acknowledge");
            break;
        case 8:
            control("abort", node);
            break;
        case 9: {
            const auto pods = c.pods();
            if (!pods.empty()) {
                const auto *p = pods[static_cast<std::size_t>(pick(static_cast<int>(pods.size())))];
                (void)c.remove(Kind::Pod, p->metadata.namespace_, p->metadata.name);
            }
            break;
        }
        case 10:
            if (pick(2)) {
                (void)c.cordon(node);
                adminCordoned.insert(node);
            } else {
                (void)c.uncordon(node);
            }
            break;
        case 11:
        case 12:
            (void)c.fault(node, faults[pick(8)]);
            break;
        case 13:
            rt.restartController();
            break;
        case 14:
            if (pick(20) == 0) {
                control("abort");
                aborted = true;
            }
            break;
        default:
            break;
        }
        if (!checker.violations.empty())
            break;
    }
    // Clean-up: the admin clears faults and holds, resumes, acknowledges and retries until the
    // rollout finishes (skipped nodes are allowed: CompletedWithExceptions).
    for (int round = 0; round < 240 && checker.violations.empty(); ++round) {
        const auto *r = rt.rollouts().get("agents");
        if (r->status.phase == RolloutPhase::Completed ||
            r->status.phase == RolloutPhase::CompletedWithExceptions ||
            r->status.phase == RolloutPhase::Aborted)
            break;
        if (round % 4 == 0) {
            for (const auto *n : c.nodes()) {
                const std::string name = n->metadata.name;
                if (c.faultOf(name))
                    (void)c.fault(name, FaultKind::Ready);
                if (n->metadata.annotation(ann::kHold) == "true")
                    control("release", name);
                // a drain waiting for the admin (policy Never, Hold, single replica): force it
                if (!n->metadata.annotation(ann::kBlocked).empty() && round >= 8)
                    control("force", name);
                if (n->metadata.annotation(ann::kPhase) == "Failed") {
                    control("acknowledge");
                    control("retry", name);
                }
            }
            for (const auto &n : adminCordoned)
                if (c.node(n) && c.node(n)->metadata.annotation(ann::kPhase) != "Restarting")
                    (void)c.uncordon(n);
            adminCordoned.clear();
            control("resume");
        }
        c.advance(30000);
    }

    std::string report;
    for (const auto &v : checker.violations)
        report += v + "\n";
    if (!checker.violations.empty())
        report += rt.statusText("agents");
    QVERIFY2(checker.violations.empty(), report.c_str());
    QVERIFY(checker.passes > 100);
    const auto divergences = rt.divergences();
    QVERIFY2(divergences.empty(), divergences.empty() ? "" : divergences.front().c_str());
    const auto *r = rt.rollouts().get("agents");
    const RolloutPhase phase = r->status.phase;
    const bool finished = phase == RolloutPhase::Completed ||
                          phase == RolloutPhase::CompletedWithExceptions ||
                          (aborted && phase == RolloutPhase::Aborted);
    QVERIFY2(finished, rt.statusText("agents").c_str());
    if (phase == RolloutPhase::Completed)
        for (const auto *n : c.nodes())
            QCOMPARE(n->kubeletVersion, std::string("v2.0.0"));
}

QTEST_GUILESS_MAIN(TstUpgradeProperty)
#include "tst_upgradeproperty.moc"
