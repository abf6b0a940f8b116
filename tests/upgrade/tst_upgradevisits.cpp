// The node-upgrade controller visits only the nodes that can act at a pass: a node after its
// restart request waits for its own deadline (here the soak's) without being visited, acts at
// the first pass at or after it, and is visited at once when its node object changes (a node
// that goes NotReady while soaking fails at the next pass, not at the end of the soak). The
// controller's view is checked against the store at every pass (verifyIncremental).
#include "tests/support/happypathupgrade.h"

#include <QTest>

using kube::Json;
using namespace sim;
using namespace scenario;
using namespace api;

class TstUpgradeVisits : public QObject
{
    Q_OBJECT

private slots:
    void aSoakingNodeIsVisitedAtItsDeadline();
    void aSoakingNodeThatChangesIsVisitedAtOnce();
};

namespace {

constexpr const char *kRollout = "agents-v2";
constexpr kube::Duration kSoak = 10 * 60 * 1000;

// The happy-path scenario (6 nodes, 2 zones), run until its pods are Ready, then an upgrade
// with a 10-minute soak, run until a-0 soaks.
std::unique_ptr<NodeUpgradeScenario> soaking()
{
    auto s = happyPathReady("visits.yaml");
    if (!s)
        return nullptr;
    if (!s->runtime()
             ->upgradeStep(Json{{"name", kRollout},
                                {"targetVersion", "v2.0.0"},
                                {"maxUnavailable", 1},
                                {"soakDuration", "10m"}})
             .ok())
        return nullptr;
    for (int i = 0; i < 600; ++i) {
        const kube::Node *n = s->cluster()->node("a-0");
        if (n && n->metadata.annotation(ann::kPhase) == "Soaking")
            return s;
        s->cluster()->advance(1000);
    }
    return nullptr;
}

std::string phase(NodeUpgradeScenario &s, const std::string &node)
{
    const kube::Node *n = s.cluster()->node(node);
    return n ? n->metadata.annotation(ann::kPhase) : std::string();
}

kube::Timestamp soakEnds(NodeUpgradeScenario &s)
{
    const kube::Node *n = s.cluster()->node("a-0");
    const auto since = n ? parseUpgradeTime(n->metadata.annotation(ann::kPhaseSince)) : std::nullopt;
    return since ? *since + kSoak : 0;
}

} // namespace

void TstUpgradeVisits::aSoakingNodeIsVisitedAtItsDeadline()
{
    auto s = soaking();
    QVERIFY(s);
    const auto &timing = s->runtime()->controller().timing();
    const kube::Timestamp deadline = soakEnds(*s);
    QVERIFY(deadline > s->cluster()->now());
    // Passes go on once a second; the soaking node is the only one in flight, the pending
    // ones wait quietly for the budget: nothing is visited until the soak ends.
    s->cluster()->advance(60 * 1000);
    const std::int64_t passes = timing.passes, visited = timing.nodesVisited;
    s->cluster()->advance(deadline - s->cluster()->now() - 1000);
    QCOMPARE(phase(*s, "a-0"), std::string("Soaking"));
    QVERIFY2(timing.passes - passes >= 400, qPrintable(QString::number(timing.passes - passes)));
    QCOMPARE(timing.nodesVisited - visited, std::int64_t(0));
    // The first pass at the deadline completes it, and the next node is taken.
    s->cluster()->advance(2000);
    QCOMPARE(phase(*s, "a-0"), std::string("Upgraded"));
    const auto *r = s->runtime()->rollouts().get(kRollout);
    QVERIFY(r);
    QCOMPARE(r->status.counts.upgraded, 1);
    QCOMPARE(r->status.counts.inFlight, 1);
    const auto divergences = s->runtime()->divergences();
    QVERIFY2(divergences.empty(), divergences.empty() ? "" : divergences.front().c_str());
}

void TstUpgradeVisits::aSoakingNodeThatChangesIsVisitedAtOnce()
{
    auto s = soaking();
    QVERIFY(s);
    const kube::Timestamp deadline = soakEnds(*s);
    s->cluster()->advance(60 * 1000);
    QVERIFY(s->cluster()->fault("a-0", FaultKind::NotReady).ok());
    s->cluster()->advance(2000);
    QVERIFY(s->cluster()->now() < deadline - 60 * 1000);
    QCOMPARE(phase(*s, "a-0"), std::string("Failed"));
    const kube::Node *n = s->cluster()->node("a-0");
    QVERIFY(n);
    QCOMPARE(n->metadata.annotation(ann::kReason), std::string("UnstableAfterUpgrade"));
    const auto divergences = s->runtime()->divergences();
    QVERIFY2(divergences.empty(), divergences.empty() ? "" : divergences.front().c_str());
}

QTEST_GUILESS_MAIN(TstUpgradeVisits)
#include "tst_upgradevisits.moc"
