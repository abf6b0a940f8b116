// Every write of the node-upgrade controller is handled: a cordon, annotation patch, eviction,
// uncordon or status update the API server refuses is reported (a WriteRefused Warning naming
// the write and the answer, the rollout's WritesRefused condition), the node backs off 1 s,
// 2 s, 4 s … and the write is retried until it is accepted — the rollout then finishes as if
// nothing had happened. Refusals are injected with Cluster::refuseWrites; the controller's view
// is checked against the store at every pass (verifyIncremental).
#include "tests/support/happypathupgrade.h"

#include <QTest>
#include <algorithm>

using kube::ApiStatus;
using kube::Json;
using namespace sim;
using namespace scenario;
using namespace api;

class TstUpgradeWrites : public QObject
{
    Q_OBJECT

private slots:
    void aRefusedAnnotationPatchBacksTheNodeOffAndIsRetried();
    void aRefusedEvictionKeepsThePodAndIsRetried();
    void aRefusedUncordonIsOwedUntilItIsAccepted();
    void aRefusedStatusUpdateShowsInTheNextStatus();
};

namespace {

constexpr const char *kRollout = "agents-v2";

// The happy-path scenario (6 nodes, 2 zones), run until its pods are Ready; the test drives
// the rest.
std::unique_ptr<NodeUpgradeScenario> ready()
{
    return happyPathReady("writes.yaml");
}

bool start(NodeUpgradeScenario &s)
{
    return s.runtime()
        ->upgradeStep(Json{
            {"name", kRollout}, {"targetVersion", "v2.0.0"}, {"maxUnavailable", 1}, {"soakDuration", "30s"}})
        .ok();
}

std::vector<std::string> refusals(NodeUpgradeScenario &s, const std::string &object)
{
    std::vector<std::string> out;
    for (const auto &e : s.runtime()->events().entries())
        if (e.reason == "WriteRefused" && e.object == object)
            for (int i = 0; i < e.count; ++i)
                out.push_back(e.message);
    return out;
}

std::string annotation(NodeUpgradeScenario &s, const std::string &node, const char *key)
{
    const kube::Node *n = s.cluster()->node(node);
    return n ? n->metadata.annotation(key) : std::string();
}

const NodeUpgradeCondition *condition(NodeUpgradeScenario &s, const char *type)
{
    const auto *r = s.runtime()->rollouts().get(kRollout);
    return r ? r->status.condition(type) : nullptr;
}

// Runs to completion (at most two virtual hours); the view never diverged from the store.
void finishes(NodeUpgradeScenario &s)
{
    for (int i = 0; i < 7200 && !s.runtime()->upgradeComplete(kRollout); ++i)
        s.cluster()->advance(1000);
    QVERIFY(s.runtime()->upgradeComplete(kRollout));
    const auto *r = s.runtime()->rollouts().get(kRollout);
    QCOMPARE(r->status.counts.upToDate, 6);
    QCOMPARE(r->status.counts.failed, 0);
    for (const auto *n : s.cluster()->nodes()) {
        QVERIFY2(!n->unschedulable, n->metadata.name.c_str());
        QCOMPARE(n->metadata.annotation(ann::kCordonedByController), std::string());
    }
    const auto divergences = s.runtime()->divergences();
    QVERIFY2(divergences.empty(), divergences.empty() ? "" : divergences.front().c_str());
}

} // namespace

void TstUpgradeWrites::aRefusedAnnotationPatchBacksTheNodeOffAndIsRetried()
{
    auto s = ready();
    QVERIFY(s);
    // The first two writes to a-0 (its Pending annotations) fail as an overloaded server's do.
    s->cluster()->refuseWrites(Kind::Node, "", "a-0", 2,
                               ApiStatus::internal("etcdserver: request timed out"));
    QVERIFY(start(*s));
    // a-0 backs off: the queue's next node is taken instead, a-0 is not even marked Pending yet.
    QCOMPARE(annotation(*s, "a-0", ann::kPhase), std::string());
    QCOMPARE(annotation(*s, "a-1", ann::kPhase), std::string("Cordoned"));
    QCOMPARE(refusals(*s, "node/a-0"),
             std::vector<std::string>{"The API server refused the update of the node's upgrade annotations "
                                      "(500: etcdserver: request timed out); retried in 1s"});
    const auto *c = condition(*s, "WritesRefused");
    QVERIFY(c);
    QCOMPARE(c->status, std::string("True"));
    QVERIFY2(c->message.rfind(
                 "node/a-0: update of the node's upgrade annotations refused (500), 1 time(s) in a row", 0) ==
                 0,
             c->message.c_str());
    // Retried once the backoff has passed (refused again: 2 s), then accepted.
    for (int i = 0; i < 5 && refusals(*s, "node/a-0").size() < 2; ++i)
        s->cluster()->advance(1000);
    QCOMPARE(refusals(*s, "node/a-0").size(), std::size_t(2));
    QVERIFY2(refusals(*s, "node/a-0")[1].find("retried in 2s") != std::string::npos,
             refusals(*s, "node/a-0")[1].c_str());
    QCOMPARE(annotation(*s, "a-0", ann::kPhase), std::string());
    s->cluster()->advance(1000); // still backing off
    QCOMPARE(annotation(*s, "a-0", ann::kPhase), std::string());
    for (int i = 0; i < 5 && annotation(*s, "a-0", ann::kPhase).empty(); ++i)
        s->cluster()->advance(1000);
    QCOMPARE(annotation(*s, "a-0", ann::kPhase), std::string("Pending"));
    QCOMPARE(refusals(*s, "node/a-0").size(), std::size_t(2));
    for (int i = 0; i < 3 && condition(*s, "WritesRefused")->status == "True"; ++i)
        s->cluster()->advance(1000);
    c = condition(*s, "WritesRefused");
    QVERIFY(c);
    QCOMPARE(c->status, std::string("False"));
    QCOMPARE(c->reason, std::string("WritesAccepted"));
    finishes(*s);
}

void TstUpgradeWrites::aRefusedEvictionKeepsThePodAndIsRetried()
{
    auto s = ready();
    QVERIFY(s);
    QVERIFY(start(*s));
    QCOMPARE(annotation(*s, "a-0", ann::kPhase), std::string("Cordoned"));
    std::string pod;
    for (const auto *p : s->cluster()->pods())
        if (p->nodeName == "a-0" && !p->isDeleting())
            pod = p->metadata.name;
    QVERIFY(!pod.empty());
    s->cluster()->refuseWrites(Kind::Pod, "default", pod, 1,
                               ApiStatus::internal("admission webhook timed out"));
    // The drain's first eviction is refused: the pod stays, the node waits 1 s and tries again.
    for (int i = 0; i < 60 && refusals(*s, "node/a-0").empty(); ++i)
        s->cluster()->advance(1000);
    const auto refused = refusals(*s, "node/a-0");
    QCOMPARE(refused.size(), std::size_t(1));
    QCOMPARE(refused[0], "The API server refused the eviction of default/" + pod +
                             " (500: admission webhook timed out); retried in 1s");
    QVERIFY(s->cluster()->pod("default", pod) && !s->cluster()->pod("default", pod)->isDeleting());
    for (int i = 0;
         i < 5 && s->cluster()->pod("default", pod) && !s->cluster()->pod("default", pod)->isDeleting(); ++i)
        s->cluster()->advance(1000);
    QVERIFY(!s->cluster()->pod("default", pod) || s->cluster()->pod("default", pod)->isDeleting());
    QCOMPARE(refusals(*s, "node/a-0").size(), std::size_t(1));
    finishes(*s);
}

void TstUpgradeWrites::aRefusedUncordonIsOwedUntilItIsAccepted()
{
    auto s = ready();
    QVERIFY(s);
    QVERIFY(start(*s));
    for (int i = 0; i < 600 && annotation(*s, "a-0", ann::kPhase) != "Soaking"; ++i)
        s->cluster()->advance(1000);
    QCOMPARE(annotation(*s, "a-0", ann::kPhase), std::string("Soaking"));
    // The soak ends: the uncordon and the next writes to a-0 are refused three times.
    s->cluster()->refuseWrites(Kind::Node, "", "a-0", 3, ApiStatus::internal("etcdserver: leader changed"));
    bool owed = false; // seen Upgraded while still cordoned by the controller
    for (int i = 0; i < 120 && refusals(*s, "node/a-0").size() < 3; ++i) {
        s->cluster()->advance(1000);
        owed = owed || (annotation(*s, "a-0", ann::kPhase) == "Upgraded" &&
                        s->cluster()->node("a-0")->unschedulable &&
                        annotation(*s, "a-0", ann::kCordonedByController) == "true");
    }
    const auto refused = refusals(*s, "node/a-0");
    QCOMPARE(refused.size(), std::size_t(3));
    QVERIFY(std::any_of(refused.begin(), refused.end(), [](const std::string &m) {
        return m.rfind("The API server refused the uncordon (500: etcdserver: leader changed); retried in ",
                       0) == 0;
    }));
    for (int i = 0; i < 20 && s->cluster()->node("a-0")->unschedulable; ++i) {
        s->cluster()->advance(1000);
        owed = owed || (annotation(*s, "a-0", ann::kPhase) == "Upgraded" &&
                        s->cluster()->node("a-0")->unschedulable &&
                        annotation(*s, "a-0", ann::kCordonedByController) == "true");
    }
    QVERIFY(owed);
    QVERIFY(!s->cluster()->node("a-0")->unschedulable);
    QCOMPARE(annotation(*s, "a-0", ann::kPhase), std::string("Upgraded"));
    finishes(*s);
}

void TstUpgradeWrites::aRefusedStatusUpdateShowsInTheNextStatus()
{
    auto s = ready();
    QVERIFY(s);
    QVERIFY(start(*s));
    // Refused the next time the status changes.
    s->cluster()->refuseWrites(Kind::NodeUpgradeRollout, "", kRollout, 1,
                               ApiStatus::internal("etcdserver: request timed out"));
    for (int i = 0; i < 120 && refusals(*s, std::string("nodeupgraderollout/") + kRollout).empty(); ++i)
        s->cluster()->advance(1000);
    QCOMPARE(
        refusals(*s, std::string("nodeupgraderollout/") + kRollout),
        std::vector<std::string>{
            "The API server refused the status update (500: etcdserver: request timed out); retried in 1s"});
    QVERIFY(!condition(*s, "WritesRefused")); // that status was not written
    s->cluster()->advance(1000);
    const auto *c = condition(*s, "WritesRefused");
    QVERIFY(c);
    QCOMPARE(c->status, std::string("True"));
    s->cluster()->advance(1000);
    QCOMPARE(condition(*s, "WritesRefused")->status, std::string("False"));
    finishes(*s);
}

QTEST_MAIN(TstUpgradeWrites)
#include "tst_upgradewrites.moc"
