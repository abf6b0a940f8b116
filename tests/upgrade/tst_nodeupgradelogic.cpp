// The node-upgrade controller's pure decision functions, from tables: the budget, the
// per-controller health gate, the unmanaged-pod policies, pod classification, the selection
// order, ETA and the headline's priorities; plus the rollout object's JSON round trip.
#include "models/api/nodeupgradeevents.h"
#include "models/api/nodeupgradelogic.h"

#include <QTest>

using kube::Json;
using namespace api;

Q_DECLARE_METATYPE(GateVerdict)
Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {
using S = std::string;
using SL = std::vector<std::string>;
} // namespace

class TstNodeUpgradeLogic : public QObject
{
    Q_OBJECT

private slots:
    void budget_data();
    void budget();
    void gate_data();
    void gate();
    void unmanaged_data();
    void unmanaged();
    void classification_data();
    void classification();
    void restartJobPinnedToItsNode();
    void ordering_data();
    void ordering();
    void eta();
    void headlinePriorities_data();
    void headlinePriorities();
    void specRoundTrip();
    void specRejectsBadValues_data();
    void specRejectsBadValues();
    void specErrorsNameTheirField_data();
    void specErrorsNameTheirField();
    void eventMessagesFillParameters();
    void eventLogDeduplicates();
};

void TstNodeUpgradeLogic::budget_data()
{
    QTest::addColumn<S>("value");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("resolved");
    QTest::addColumn<bool>("clamped");
    QTest::newRow("an integer is taken as it is") << S("2") << 10 << 2 << false;
    QTest::newRow("ten percent of five rounds down to zero and is clamped to one")
        << S("10%") << 5 << 1 << true;
    QTest::newRow("five percent of five thousand is two hundred fifty") << S("5%") << 5000 << 250 << false;
    QTest::newRow("percentages round down") << S("30%") << 9 << 2 << false;
    QTest::newRow("zero is clamped to one") << S("0") << 10 << 1 << true;
}

void TstNodeUpgradeLogic::budget()
{
    QFETCH(S, value);
    QFETCH(int, nodes);
    QFETCH(int, resolved);
    QFETCH(bool, clamped);
    const auto v = value.back() == '%' ? kube::IntOrString::fromString(value)
                                       : kube::IntOrString::fromInt(std::stoi(value));
    const auto r = resolveMaxUnavailable(v, nodes);
    QCOMPARE(r.value, resolved);
    QCOMPARE(r.clamped, clamped);
}

void TstNodeUpgradeLogic::gate_data()
{
    QTest::addColumn<int>("desired");
    QTest::addColumn<int>("ready");
    QTest::addColumn<int>("inflight");
    QTest::addColumn<bool>("podReady");
    QTest::addColumn<S>("options");
    QTest::addColumn<GateVerdict>("verdict");
    QTest::newRow("10 of 10 ready may lose one") << 10 << 10 << 0 << true << S("") << GateVerdict::Delete;
    QTest::newRow("exactly 9 of 10 is not more than 90 percent")
        << 10 << 9 << 0 << true << S("") << GateVerdict::DeferHealth;
    QTest::newRow("exactly 9 of 10 passes with AtLeast")
        << 10 << 9 << 0 << true << S("atleast") << GateVerdict::Delete;
    QTest::newRow("a deletion in flight defers the next one")
        << 10 << 10 << 1 << true << S("") << GateVerdict::DeferInflight;
    QTest::newRow("an unready pod is deleted without the gate")
        << 10 << 5 << 1 << false << S("") << GateVerdict::DeleteUnready;
    QTest::newRow("an unready pod counts toward health when asked")
        << 10 << 5 << 0 << false << S("count") << GateVerdict::DeferHealth;
    QTest::newRow("a single healthy replica is deleted with a warning")
        << 1 << 1 << 0 << true << S("") << GateVerdict::DeleteSingleReplica;
    QTest::newRow("a single replica waits with policy Block")
        << 1 << 1 << 0 << true << S("block") << GateVerdict::DeferSingleReplica;
    QTest::newRow("two in flight allowed by maxInflightPerController 2")
        << 100 << 99 << 1 << true << S("inflight2") << GateVerdict::Delete;
}

void TstNodeUpgradeLogic::gate()
{
    QFETCH(int, desired);
    QFETCH(int, ready);
    QFETCH(int, inflight);
    QFETCH(bool, podReady);
    QFETCH(S, options);
    QFETCH(GateVerdict, verdict);
    NodeUpgradeRolloutSpec spec;
    if (options == "atleast")
        spec.healthComparison = HealthComparison::AtLeast;
    if (options == "count")
        spec.unreadyPodPolicy = UnreadyPodPolicy::CountTowardHealth;
    if (options == "block")
        spec.singleReplicaPolicy = SingleReplicaPolicy::Block;
    if (options == "inflight2")
        spec.maxInflightPerController = 2;
    QCOMPARE(controllerGate({desired, ready, inflight}, podReady, spec), verdict);
}

void TstNodeUpgradeLogic::unmanaged_data()
{
    QTest::addColumn<int>("policy");
    QTest::addColumn<qint64>("elapsedSeconds");
    QTest::addColumn<bool>("deleteNow");
    QTest::addColumn<bool>("never");
    QTest::addColumn<qint64>("remainingSeconds");
    QTest::newRow("Immediate deletes at once")
        << int(UnmanagedPodPolicy::Immediate) << qint64(0) << true << false << qint64(0);
    QTest::newRow("Never waits for the admin")
        << int(UnmanagedPodPolicy::Never) << qint64(99999) << false << true << qint64(0);
    QTest::newRow("AfterTimeout counts down from incompatible-since")
        << int(UnmanagedPodPolicy::AfterTimeout) << qint64(420) << false << false << qint64(180);
    QTest::newRow("AfterTimeout already elapsed deletes at once")
        << int(UnmanagedPodPolicy::AfterTimeout) << qint64(4000) << true << false << qint64(0);
    QTest::newRow("AfterTimeout exactly at the limit deletes")
        << int(UnmanagedPodPolicy::AfterTimeout) << qint64(600) << true << false << qint64(0);
}

void TstNodeUpgradeLogic::unmanaged()
{
    QFETCH(int, policy);
    QFETCH(qint64, elapsedSeconds);
    QFETCH(bool, deleteNow);
    QFETCH(bool, never);
    QFETCH(qint64, remainingSeconds);
    const kube::Timestamp since = 1000000;
    const auto d = unmanagedDecision(static_cast<UnmanagedPodPolicy>(policy), 600000, since,
                                     since + elapsedSeconds * 1000);
    QCOMPARE(d.deleteNow, deleteNow);
    QCOMPARE(d.never, never);
    QCOMPARE(d.remaining, remainingSeconds * 1000);
}

void TstNodeUpgradeLogic::classification_data()
{
    QTest::addColumn<S>("ownerKind");
    QTest::addColumn<bool>("controllerExists");
    QTest::addColumn<S>("phase");
    QTest::addColumn<bool>("mirror");
    QTest::addColumn<S>("cls");
    QTest::newRow("a ReplicaSet pod is managed")
        << S("ReplicaSet") << true << S("Running") << false << S("managed");
    QTest::newRow("a pod whose controller is gone is unmanaged")
        << S("ReplicaSet") << false << S("Running") << false << S("unmanaged");
    QTest::newRow("a bare pod is unmanaged") << S("") << false << S("Running") << false << S("unmanaged");
    QTest::newRow("a DaemonSet pod is never managed")
        << S("DaemonSet") << true << S("Running") << false << S("daemonset");
    QTest::newRow("a mirror pod is ignored") << S("") << false << S("Running") << true << S("ignored");
    QTest::newRow("a finished pod is ignored") << S("Job") << true << S("Succeeded") << false << S("ignored");
    QTest::newRow("a StatefulSet pod is managed")
        << S("StatefulSet") << true << S("Running") << false << S("managed");
}

void TstNodeUpgradeLogic::classification()
{
    QFETCH(S, ownerKind);
    QFETCH(bool, controllerExists);
    QFETCH(S, phase);
    QFETCH(bool, mirror);
    QFETCH(S, cls);
    kube::Pod p;
    p.metadata.name = "p";
    p.phase = phase;
    if (!ownerKind.empty())
        p.metadata.ownerReferences.push_back({"apps/v1", ownerKind, "owner", "uid-1", true, true});
    if (mirror)
        p.metadata.annotations["kubernetes.io/config.mirror"] = "x";
    QCOMPARE(S(podClassName(classifyPod(p, controllerExists))), cls);
}

void TstNodeUpgradeLogic::ordering_data()
{
    // candidates: name:zone:managed:unmanaged:since:host
    QTest::addColumn<SL>("candidates");
    QTest::addColumn<S>("inFlightZone");
    QTest::addColumn<bool>("zoneSerial");
    QTest::addColumn<SL>("queue");
    QTest::newRow("the alphabetically first zone goes first, empty nodes first")
        << SL{"b1:zb:0:0:1:0", "a1:za:2:0:1:0", "a2:za:0:0:5:0"} << S("") << true << SL{"a2", "a1", "b1"};
    QTest::newRow("the zone already in flight stays active")
        << SL{"b1:zb:0:0:1:0", "a1:za:0:0:1:0"} << S("zb") << true << SL{"b1", "a1"};
    QTest::newRow("fewest managed pods, then oldest incompatible-since, then name")
        << SL{"n3:z:2:0:5:0", "n1:z:1:0:9:0", "n2:z:1:0:3:0", "n0:z:1:0:3:0"} << S("") << true
        << SL{"n0", "n2", "n1", "n3"};
    QTest::newRow("the controller's own node goes last of all")
        << SL{"a0:za:0:0:1:1", "a1:za:3:0:1:0", "b0:zb:5:0:1:0"} << S("") << true << SL{"a1", "b0", "a0"};
    QTest::newRow("without zoneSerial zones do not matter")
        << SL{"b1:zb:0:0:1:0", "a1:za:2:0:1:0"} << S("") << false << SL{"b1", "a1"};
}

void TstNodeUpgradeLogic::ordering()
{
    QFETCH(SL, candidates);
    QFETCH(S, inFlightZone);
    QFETCH(bool, zoneSerial);
    QFETCH(SL, queue);
    std::vector<SelectionCandidate> cs;
    for (const auto &c : candidates) {
        SL f;
        std::size_t start = 0;
        for (std::size_t colon; (colon = c.find(':', start)) != std::string::npos; start = colon + 1)
            f.push_back(c.substr(start, colon - start));
        f.push_back(c.substr(start));
        cs.push_back({f[0], f[1], std::stoi(f[2]), std::stoi(f[3]), std::stoll(f[4]), f[5] == "1"});
    }
    std::set<std::string> inFlight;
    if (!inFlightZone.empty())
        inFlight.insert(inFlightZone);
    const std::string zone = activeZone(inFlight, cs, zoneSerial);
    SL got;
    for (const auto &c : orderCandidates(cs, zoneSerial, zone))
        got.push_back(c.name);
    QCOMPARE(got, queue);
}

void TstNodeUpgradeLogic::eta()
{
    QCOMPARE(estimateEta({}, 0, 1), std::optional<kube::Duration>(0));
    QCOMPARE(estimateEta({}, 3, 1), std::optional<kube::Duration>());
    // median 60 s, 5 nodes left, 2 at a time: 3 waves
    QCOMPARE(estimateEta({50000, 60000, 90000}, 5, 2), std::optional<kube::Duration>(180000));
    QCOMPARE(startsAllowed(2, 1, 1), 1);
    QCOMPARE(startsAllowed(2, 2, 1), 0);
    QCOMPARE(startsAllowed(2, 5, 1), 0);
    QCOMPARE(startsAllowed(10, 0, 3), 3);
}

void TstNodeUpgradeLogic::headlinePriorities_data()
{
    QTest::addColumn<S>("situation");
    QTest::addColumn<S>("headline");
    QTest::newRow("halted beats everything")
        << S("halted") << S("Halted: 1 node failed (n4 NodeDidNotReturn); acknowledge to resume");
    QTest::newRow("paused names who and what is still in flight")
        << S("paused") << S("Paused by alice 10:02 — n7 still restarting (3m0s/10m0s)");
    QTest::newRow("a foreign slot holder is named when the budget is used up")
        << S("budget") << S("Waiting: budget 1/1 used by n3 (NotReady, not part of this rollout)");
    QTest::newRow("a blocked node is named") << S("blocked") << S("n9 blocked 12m0s: rs/web 8/10 ready");
    QTest::newRow("otherwise progress and ETA")
        << S("progress") << S("14/40 upgraded · 2 in flight · ETA 52m0s");
}

void TstNodeUpgradeLogic::headlinePriorities()
{
    QFETCH(S, situation);
    QFETCH(S, headline);
    HeadlineInput in;
    in.phase = RolloutPhase::Progressing;
    in.counts.nodes = 40;
    in.counts.upToDate = 14;
    in.counts.inFlight = 2;
    in.counts.pending = 24;
    in.eta = 52 * 60 * 1000;
    in.blockedNode =
        situation == "progress" ? api::Phrase() : api::Phrase("n9 blocked 12m0s: rs/web 8/10 ready");
    if (situation != "progress" && situation != "blocked") {
        in.budgetUsed = 1;
        in.budgetMax = 1;
        in.foreignHolders = {"n3 (NotReady, not part of this rollout)"};
    }
    if (situation == "paused" || situation == "halted") {
        in.phase = RolloutPhase::Paused;
        in.pausedBy = "alice";
        in.pausedAt = 1767261720000; // 2026-01-01T10:02:00Z
        in.stillInFlight = {"n7 still restarting (3m0s/10m0s)"};
    }
    if (situation == "halted") {
        in.phase = RolloutPhase::Halted;
        in.failed = {"n4 NodeDidNotReturn"};
    }
    QCOMPARE(api::english(api::headline(in)), headline);
}

void TstNodeUpgradeLogic::specRoundTrip()
{
    const Json step = Json::parse(
        R"({"targetVersion":"v2.0.0","maxUnavailable":"5%","unmanagedPodPolicy":{"afterTimeout":"10m"},
        "onDrainTimeout":"Skip","singleReplicaPolicy":"Block","nodeSelector":{"pool":"a"},"soakDuration":"30s",
        "timeouts":{"drainStall":"1m","ackRetries":2},"paused":true,"pauseReason":"freeze"})");
    auto spec = NodeUpgradeRolloutSpec::fromJson(step);
    QVERIFY(spec.ok());
    QCOMPARE(spec->unmanagedPodPolicy, UnmanagedPodPolicy::AfterTimeout);
    QCOMPARE(spec->timeouts.unmanagedTimeout, kube::Duration(600000));
    QCOMPARE(spec->onDrainTimeout, DrainTimeoutPolicy::Skip);
    QCOMPARE(spec->timeouts.drainStall, kube::Duration(60000));
    QCOMPARE(spec->timeouts.ackRetries, 2);
    auto again = NodeUpgradeRolloutSpec::fromJson(spec->toJson());
    QVERIFY(again.ok());
    QVERIFY(*again == *spec);

    NodeUpgradeRollout r;
    r.metadata.name = "agents";
    r.spec = *spec;
    r.status.phase = RolloutPhase::Halted;
    r.status.pausedAt = 1767225600500;
    r.status.inflight.push_back(
        {"replicaset/default/web", "uid", "default/web-1", "n1", 1767225601250, 9, true});
    r.status.setCondition("Halted", true, "FailureThresholdReached", "n4", 1767225600000);
    auto back = NodeUpgradeRollout::fromJson(r.toJson());
    QVERIFY(back.ok());
    QVERIFY(back->status == r.status);
    QCOMPARE(back->metadata.name, std::string("agents"));
}

void TstNodeUpgradeLogic::specRejectsBadValues_data()
{
    QTest::addColumn<S>("json");
    QTest::newRow("a missing targetVersion") << S(R"({"maxUnavailable":1})");
    QTest::newRow("an unknown drain timeout policy")
        << S(R"({"targetVersion":"v2","onDrainTimeout":"Wait"})");
    QTest::newRow("a bad duration") << S(R"({"targetVersion":"v2","soakDuration":"soon"})");
    QTest::newRow("a threshold above one") << S(R"({"targetVersion":"v2","controllerHealthThreshold":1.5})");
    QTest::newRow("an unknown unmanaged policy")
        << S(R"({"targetVersion":"v2","unmanagedPodPolicy":"later"})");
    QTest::newRow("a pause reason that is not a string") << S(R"({"targetVersion":"v2","pauseReason":5})");
    QTest::newRow("a maintenance window that is not a map")
        << S(R"({"targetVersion":"v2","maintenanceWindow":"nights"})");
}

void TstNodeUpgradeLogic::specErrorsNameTheirField_data()
{
    QTest::addColumn<S>("message");
    QTest::addColumn<S>("field");
    QTest::addColumn<S>("rest");
    QTest::newRow("a field and its complaint")
        << S("zoneSerial must be true or false") << S("zoneSerial") << S("must be true or false");
    QTest::newRow("a path before a colon")
        << S("restart.mechanism: must be one of Annotation, External, Job") << S("restart.mechanism")
        << S("must be one of Annotation, External, Job");
    QTest::newRow("kube's field readers name the field after the word field")
        << S("field spec.nodeSelector.zone: expected a string") << S("spec.nodeSelector.zone")
        << S("expected a string");
    QTest::newRow("the API server's Invalid prefix is skipped")
        << S(R"(NodeUpgradeRollout "a" is invalid: spec.targetVersion: Required value)")
        << S("spec.targetVersion") << S("Required value");
    QTest::newRow("a sentence without a field") << S("spec must be a map") << S("spec") << S("must be a map");
}

void TstNodeUpgradeLogic::specErrorsNameTheirField()
{
    QFETCH(S, message);
    QFETCH(S, field);
    QFETCH(S, rest);
    const SpecError e = splitSpecError(message);
    QCOMPARE(e.field, field);
    QCOMPARE(e.message, rest);
}

void TstNodeUpgradeLogic::specRejectsBadValues()
{
    QFETCH(S, json);
    QVERIFY(!NodeUpgradeRolloutSpec::fromJson(Json::parse(json)).ok());
}

void TstNodeUpgradeLogic::eventMessagesFillParameters()
{
    QCOMPARE(
        upgradeEventMessage(UpgradeReason::NodeSelected, {{"position", "3"}, {"slot", "2"}, {"slots", "4"}}),
        S("Selected: queue position 3, slot 2/4"));
    QVERIFY(isWarning(UpgradeReason::DrainStalled));
    QVERIFY(!isWarning(UpgradeReason::NodeUpgraded));
    QCOMPARE(S(upgradeReasonName(UpgradeReason::PodRescheduledToDrainingNode)),
             S("PodRescheduledToDrainingNode"));
}

void TstNodeUpgradeLogic::eventLogDeduplicates()
{
    NodeUpgradeEvents log;
    QVERIFY(log.record(1000, "node/n1", UpgradeReason::DrainStalled, {{"elapsed", "5m"}, {"blockers", "x"}}));
    QVERIFY(
        !log.record(2000, "node/n1", UpgradeReason::DrainStalled, {{"elapsed", "5m"}, {"blockers", "x"}}));
    QVERIFY(log.record(3000, "node/n2", UpgradeReason::DrainStalled, {{"elapsed", "5m"}, {"blockers", "x"}}));
    QCOMPARE(log.entries().size(), std::size_t(2));
    QCOMPARE(log.entries()[0].count, 2);
    QCOMPARE(log.entries()[0].lastTime, kube::Timestamp(2000));
    QCOMPARE(log.emissions().size(), std::size_t(3));
    QCOMPARE(log.countOf("DrainStalled"), std::size_t(3));
}

void TstNodeUpgradeLogic::restartJobPinnedToItsNode()
{
    using kube::Json;
    const Json tpl = {
        {"metadata", {{"labels", {{"team", "infra"}}}, {"uid", "copied-from-somewhere"}}},
        {"spec",
         {{"backoffLimit", 2},
          {"template",
           {{"spec",
             {{"tolerations", Json::array({{{"key", "dedicated"}, {"operator", "Exists"}}})},
              {"containers",
               Json::array({{{"name", "u"},
                             {"image", "i"},
                             {"env", Json::array({{{"name", "UPGRADE_NODE_NAME"}, {"value", "x"}}})}},
                            {{"name", "v"}, {"image", "j"}}})}}}}}}}};
    const Json job = api::restartJobManifest(tpl, "ops", "agents-node-3-2", "agents", "node-3", "v2.0.0");
    QVERIFY(job["apiVersion"] == "batch/v1");
    QVERIFY(job["kind"] == "Job");
    QVERIFY(job["metadata"]["name"] == "agents-node-3-2");
    QVERIFY(job["metadata"]["namespace"] == "ops");
    QVERIFY(!job["metadata"].contains("uid"));
    QVERIFY(job["metadata"]["labels"] ==
            Json({{"team", "infra"}, {"upgrade/rollout", "agents"}, {"upgrade/node", "node-3"}}));
    QVERIFY(job["spec"]["backoffLimit"] == 2);
    const Json &tplMeta = job["spec"]["template"]["metadata"];
    QVERIFY(tplMeta["annotations"]["upgrade/target-version"] == "v2.0.0");
    QVERIFY(tplMeta["labels"]["upgrade/node"] == "node-3");
    const Json &pod = job["spec"]["template"]["spec"];
    QVERIFY(pod["nodeName"] == "node-3");
    QVERIFY(pod["restartPolicy"] == "Never");
    QVERIFY(pod["tolerations"].size() == std::size_t(3)); // the template's, the cordon, upgrade/pending
    QVERIFY(pod["tolerations"][1]["key"] == "node.kubernetes.io/unschedulable");
    QVERIFY(pod["tolerations"][2]["key"] == api::kPendingTaintKey);
    for (const auto &c : pod["containers"]) {
        std::map<std::string, std::string> env;
        for (const auto &e : c["env"])
            env[e["name"]] = e["value"];
        QCOMPARE(env["UPGRADE_TARGET_VERSION"], std::string("v2.0.0"));
        QCOMPARE(env["UPGRADE_NODE_NAME"], std::string("node-3")); // the template's value replaced
        QCOMPARE(c["env"].size(), std::size_t(2));
    }

    // The Job's pod is the controller's own: a drain never counts it.
    auto podOf = kube::Pod::fromJson({{"metadata", job["spec"]["template"]["metadata"]}, {"spec", pod}});
    QVERIFY(podOf.ok());
    podOf->phase = "Running";
    QCOMPARE(api::classifyPod(*podOf, true), api::PodClass::Ignored);

    // Names fit a label value (63) and stay distinct when cut.
    QCOMPARE(api::restartJobName("agents", "node-3", 2), std::string("agents-node-3-2"));
    const std::string longNode(60, 'n');
    const std::string a = api::restartJobName("agents", longNode, 1);
    const std::string b = api::restartJobName("agents", longNode, 2);
    QVERIFY(a.size() <= 63 && b.size() <= 63);
    QVERIFY(a != b);
    QCOMPARE(api::restartJobOf(api::restartJobToken("v2", "ops", a)), std::make_pair(std::string("ops"), a));
    QCOMPARE(api::kamikazeTarget(api::restartJobToken("v2", "ops", a)), std::string("v2"));
}

QTEST_GUILESS_MAIN(TstNodeUpgradeLogic)
#include "tst_nodeupgradelogic.moc"
