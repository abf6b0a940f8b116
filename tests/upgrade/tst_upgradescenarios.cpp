// The fault scenarios of docs node-upgrade.md. Every tests/scenarios/upgrade/*.yaml runs through
// the node-upgrade scenario driver and must exit 0 (every expect held); the C++ cases below
// check what an `expect` cannot say: orders, counts over time, deduplication, restarts.
#include "models/scenario/nodeupgradescenario.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <set>

using kube::Json;
using namespace sim;
using namespace scenario;
using namespace api;

class TstUpgradeScenarios : public QObject
{
    Q_OBJECT

private slots:
    void scenarioFiles_data();
    void scenarioFiles();
    void keptViewMatchesTheStore_data();
    void keptViewMatchesTheStore();
    void happyPathFollowsTheQueueZoneByZone();
    void longBlockIsOneEventWithACount();
    void pauseFreezesTheDrainTimers();
    void restartsChangeNoDecision();
    void sameSeedSameEvents();
    void aRolloutThatCannotMoveSaysSo();
    void badNumbersAreNamedNotThrown_data();
    void badNumbersAreNamedNotThrown();
};

using namespace Qt::StringLiterals;

namespace {

std::string readFile(const std::string &name)
{
    QFile f(QString::fromStdString(std::string(DAEMONSCOPE_SOURCE_DIR "/tests/scenarios/upgrade/") + name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

std::unique_ptr<NodeUpgradeScenario> runText(const std::string &text, const std::string &name = "inline.yaml")
{
    auto s = NodeUpgradeScenario::fromText(text, name);
    if (!s)
        return nullptr;
    auto r = (*s)->run();
    if (r.exitCode != 0) {
        for (const auto &m : r.messages)
            qWarning("%s", m.c_str());
        return nullptr;
    }
    return std::move(*s);
}

// "node/a-0 NodeUpgraded" lines of the given reasons, in emission order.
std::vector<std::string> timeline(const NodeUpgradeScenario &s, const std::set<std::string> &reasons)
{
    std::vector<std::string> out;
    for (const auto &e : s.events())
        if (reasons.count(e.reason))
            out.push_back(formatUpgradeTime(e.time) + " " + e.object + " " + e.reason);
    return out;
}

// The steps of the happy-path scenario up to (not including) `steps:`, plus these steps.
std::string withSteps(const std::string &file, const std::string &steps)
{
    const std::string text = readFile(file);
    return text.substr(0, text.find("\nsteps:\n")) + "\nsteps:\n" + steps;
}

} // namespace

void TstUpgradeScenarios::scenarioFiles_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/scenarios/upgrade"));
    const auto files = dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    QVERIFY(!files.isEmpty());
    for (const auto &f : files)
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
}

void TstUpgradeScenarios::scenarioFiles()
{
    QFETCH(QString, path);
    auto s = NodeUpgradeScenario::load(path.toStdString());
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
    const auto r = (*s)->run();
    std::string messages;
    for (const auto &m : r.messages)
        messages += m + "\n";
    if (r.exitCode != 0 || qEnvironmentVariableIsSet("UPGRADE_TRACE")) {
        // What an operator would look at: the status and the event log.
        if (auto *rt = (*s)->runtime())
            for (const auto *ro : rt->rollouts().list())
                messages += rt->statusText(ro->metadata.name);
        for (const auto &e : (*s)->events())
            messages += formatUpgradeTime(e.time) + " " + e.object + " " + e.reason + ": " + e.message + "\n";
        qInfo("%s", messages.c_str());
    }
    QVERIFY2(r.exitCode == 0, r.messages.empty() ? "" : r.messages.front().c_str());
}

void TstUpgradeScenarios::keptViewMatchesTheStore_data()
{
    scenarioFiles_data();
}

// The controller keeps nodes, pods and ReplicaSet counts from its watches and visits only the
// nodes that can act; at every pass of every scenario file that view must equal a fresh reading
// of the whole store (node by node: fields, annotations, pods, summary; the counts, sets and
// the queue order derived from them; every ReplicaSet's desired and ready count), and the
// scenario must still pass.
void TstUpgradeScenarios::keptViewMatchesTheStore()
{
    QFETCH(QString, path);
    auto s = NodeUpgradeScenario::load(path.toStdString());
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
    NodeUpgradeRuntimeOptions options;
    options.controller.verifyIncremental = true;
    (*s)->setRuntimeOptions(options);
    const auto r = (*s)->run();
    QVERIFY2(r.exitCode == 0, r.messages.empty() ? "" : r.messages.front().c_str());
    QVERIFY((*s)->runtime()->controller().timing().passes > 0);
    const auto divergences = (*s)->runtime()->divergences();
    QVERIFY2(divergences.empty(), divergences.empty() ? "" : divergences.front().c_str());
}

void TstUpgradeScenarios::happyPathFollowsTheQueueZoneByZone()
{
    auto s = runText(readFile("01-happy-path-zone-serial-one-at-a-time.yaml"));
    QVERIFY(s);
    // one node at a time: every node is Upgraded before the next one is selected
    std::vector<std::string> order;
    std::string inFlight;
    for (const auto &e : s->events()) {
        if (e.reason == "NodeSelected") {
            QVERIFY2(inFlight.empty(), ("selected while " + inFlight + " was in flight").c_str());
            inFlight = e.object;
            order.push_back(e.object.substr(5));
        } else if (e.reason == "NodeUpgraded") {
            QCOMPARE(e.object, inFlight);
            inFlight.clear();
        }
    }
    QCOMPARE(order.size(), std::size_t(6));
    for (std::size_t i = 0; i < 3; ++i)
        QCOMPARE(order[i].substr(0, 2), std::string("a-")); // zone-a before zone-b
    // per node, the events come in the state machine's order
    const std::vector<std::string> lifecycle = {"NodeSelected",         "NodeCordoned", "KamikazeSent",
                                                "KamikazeAcknowledged", "NodeRejoined", "SoakStarted",
                                                "NodeUncordoned",       "NodeUpgraded"};
    for (const auto &node : order) {
        std::vector<std::string> seen;
        for (const auto &e : s->events())
            if (e.object == "node/" + node &&
                std::find(lifecycle.begin(), lifecycle.end(), e.reason) != lifecycle.end())
                seen.push_back(e.reason);
        QCOMPARE(seen, lifecycle);
    }
    // the chart's Upgraded series climbs 0..6 without going back
    const auto *m = s->runtime()->metrics("agents-v2");
    QVERIFY(m);
    int last = 0;
    std::set<int> values;
    for (const auto &sample : m->samples()) {
        const int up = sample.phases[static_cast<int>(NodePhase::Upgraded)];
        QVERIFY(up >= last);
        last = up;
        values.insert(up);
        QVERIFY(sample.unavailable <= sample.maxUnavailable);
    }
    QCOMPARE(values, (std::set<int>{0, 1, 2, 3, 4, 5, 6}));
}

void TstUpgradeScenarios::longBlockIsOneEventWithACount()
{
    auto s = runText(readFile("26-long-block-is-one-deduplicated-event.yaml"));
    QVERIFY(s);
    std::vector<UpgradeEventRecord> stalled;
    for (const auto &e : s->runtime()->events().entries())
        if (e.reason == "DrainStalled" && e.object == "node/node-0")
            stalled.push_back(e);
    QCOMPARE(stalled.size(), std::size_t(1));
    QVERIFY2(stalled[0].count >= 50 && stalled[0].count <= 60, std::to_string(stalled[0].count).c_str());
    // the cluster's Event objects are deduplicated the same way
    int objects = 0, count = 0;
    for (const auto *e : s->cluster()->events())
        if (e->reason == "DrainStalled" && e->involvedObject.name == "node-0") {
            ++objects;
            count = e->count;
        }
    QCOMPARE(objects, 1);
    QCOMPARE(count, stalled[0].count);
    // and so are the repeated deferrals
    std::size_t deferredEntries = 0;
    for (const auto &e : s->runtime()->events().entries())
        deferredEntries += e.reason == "PodDeletionDeferred" ? 1 : 0;
    QCOMPARE(deferredEntries, std::size_t(1));
}

void TstUpgradeScenarios::pauseFreezesTheDrainTimers()
{
    auto s = runText(withSteps("16-pause-while-draining-freezes-deletions-and-timers.yaml", R"(
  - run: {until: podsReady 3, timeout: 1m}
  - upgrade: {name: agents-v2, targetVersion: v2.0.0, soakDuration: 10s, timeouts: {drainTimeout: 2m}, onDrainTimeout: Skip}
  - advance: 2s
  - upgradeControl: {name: agents-v2, action: pause}
)"));
    QVERIFY(s);
    auto deadline = [&] {
        for (const auto &row : s->runtime()->controller().table("agents-v2"))
            if (row.name == "node-0")
                return api::english(row.nextDeadline);
        return std::string();
    };
    const std::string before = deadline();
    QVERIFY2(before.rfind("drainTimeout ", 0) == 0, before.c_str());
    s->cluster()->advance(30 * 60 * 1000);
    QCOMPARE(deadline(), before);
    // the preview names the next deletion; nothing was deleted meanwhile
    const auto preview = s->runtime()->controller().preview("agents-v2");
    QCOMPARE(preview.deletions.size(), std::size_t(1));
    QCOMPARE(preview.deletions[0].pod, std::string("default/web-1"));
    QVERIFY(s->cluster()->pod("default", "web-1") && !s->cluster()->pod("default", "web-1")->isDeleting());
    // resuming continues the drain clock from where it stopped
    QVERIFY(s->runtime()->upgradeControlStep({{"name", "agents-v2"}, {"action", "resume"}}).ok());
    QCOMPARE(deadline(), before);
    s->cluster()->advance(1000);
    const std::string after = deadline();
    QVERIFY2(after != before && after.rfind("drainTimeout ", 0) == 0, after.c_str());
}

void TstUpgradeScenarios::restartsChangeNoDecision()
{
    const std::string head = R"(
  - run: {until: podsReady 6, timeout: 1m}
  - upgrade: {name: agents-v2, targetVersion: v2.0.0, maxUnavailable: 1, soakDuration: 30s}
)";
    std::string plain = head, restarted = head;
    for (int i = 0; i < 70; ++i) {
        plain += "  - advance: 7s\n";
        restarted += "  - advance: 7s\n  - restartController: nodeUpgrade\n";
    }
    auto a = runText(withSteps("01-happy-path-zone-serial-one-at-a-time.yaml", plain));
    auto b = runText(withSteps("01-happy-path-zone-serial-one-at-a-time.yaml", restarted));
    QVERIFY(a && b);
    const std::set<std::string> decisions = {"NodeSelected", "PodDeleted",   "KamikazeSent",
                                             "NodeRejoined", "NodeUpgraded", "RolloutCompleted"};
    const auto ta = timeline(*a, decisions), tb = timeline(*b, decisions);
    QVERIFY(ta.size() > 20);
    QCOMPARE(tb, ta);
    QVERIFY(a->runtime()->upgradeComplete("agents-v2"));
}

void TstUpgradeScenarios::sameSeedSameEvents()
{
    auto a = runText(readFile("13-node-never-returns-halts-the-rollout.yaml"));
    auto b = runText(readFile("13-node-never-returns-halts-the-rollout.yaml"));
    QVERIFY(a && b);
    QCOMPARE(a->events().size(), b->events().size());
    for (std::size_t i = 0; i < a->events().size(); ++i) {
        QCOMPARE(a->events()[i].message, b->events()[i].message);
        QCOMPARE(a->events()[i].time, b->events()[i].time);
    }
}

// The NotReady node of scenario 31 waits visibly: while it is all that is left the rollout is
// Blocked with the node's name, promises no ETA and records one Warning (a count, not a flood);
// the form's default budget of one node held by a NotReady node blocks it from the start.
void TstUpgradeScenarios::aRolloutThatCannotMoveSaysSo()
{
    const std::string file = readFile("31-notready-node-never-stalls-the-zones-after-it.yaml");
    const std::string upToWait = file.substr(0, file.find("  - fault: {node: b-0, kind: Ready}"));
    auto s = runText(upToWait);
    QVERIFY(s);
    const auto *r = s->runtime()->rollouts().get("agents-v2");
    QVERIFY(r);
    const auto *blocked = r->status.condition("Blocked");
    QVERIFY(blocked);
    QCOMPARE(blocked->status, std::string("True"));
    QCOMPARE(blocked->reason, std::string("PendingNodesNotReady"));
    QVERIFY2(blocked->message.find("b-0") != std::string::npos, blocked->message.c_str());
    QVERIFY(!r->status.eta);
    // The node table says why the node waits.
    bool found = false;
    for (const auto &row : s->runtime()->controller().table("agents-v2"))
        if (row.name == "b-0") {
            found = true;
            QCOMPARE(api::english(row.reason), std::string("NotReady: waits until the node is Ready again"));
            QCOMPARE(row.reason.code, int(api::UpgradePhrase::NotReadyWaits));
            QCOMPARE(row.queuePosition, 1);
        }
    QVERIFY(found);
    std::vector<UpgradeEventRecord> warnings;
    for (const auto &e : s->runtime()->events().entries())
        if (e.reason == "PendingNodesNotReady")
            warnings.push_back(e);
    QCOMPARE(warnings.size(), std::size_t(1));
    QVERIFY(warnings[0].count > 1);

    // maxUnavailable 1 (the start form's default) and the NotReady node holding that slot.
    const std::string held = withSteps("31-notready-node-never-stalls-the-zones-after-it.yaml", R"yaml(
  - fault: {node: b-0, kind: NotReady}
  - upgrade: {name: agents-v2, targetVersion: v1.1.0, maxUnavailable: 1, soakDuration: 30s}
  - advance: 10m
  - expect:
      upgrade: {agents-v2: {phase: Progressing, upToDate: 0, inFlight: 0,
                            headline: "Waiting: budget 1/1 used by b-0 (NotReady, pending)"}}
)yaml");
    auto h = runText(held);
    QVERIFY(h);
    const auto *hr = h->runtime()->rollouts().get("agents-v2");
    QVERIFY(hr);
    QCOMPARE(hr->status.condition("Blocked")->status, std::string("True"));
    QCOMPARE(hr->status.condition("Blocked")->reason, std::string("BudgetHeld"));
    QVERIFY(!hr->status.eta);
}

void TstUpgradeScenarios::badNumbersAreNamedNotThrown_data()
{
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<QString>("steps");
    QTest::addColumn<QString>("message");
    const QString nodes = u"  nodes: [{count: 1, namePrefix: a-}]\n"_s;
    QTest::newRow("a node count of a billion")
        << u"  nodes: [{count: 1000000000}]\n"_s << u"  - advance: 1s\n"_s
        << u"count must be a whole number of nodes from 0 to 100000 (at most 100000 nodes in all), got 1000000000"_s;
    QTest::newRow("node counts that add up to too many")
        << u"  nodes: [{count: 60000, namePrefix: a-}, {count: 60000, namePrefix: b-}]\n"_s
        << u"  - advance: 1s\n"_s
        << u"count must be a whole number of nodes from 0 to 40000 (at most 100000 nodes in all), got 60000"_s;
    QTest::newRow("a node count that is text")
        << u"  nodes: [{count: many}]\n"_s << u"  - advance: 1s\n"_s
        << u"count must be a whole number of nodes from 0 to 100000 (at most 100000 nodes in all), got \"many\""_s;
    QTest::newRow("a jitter percentage that is not a number")
        << nodes + u"  kubelet: {jitter: \"abc%\"}\n"_s << u"  - advance: 1s\n"_s
        << u"jitter must be a percentage such as 20%"_s;
    QTest::newRow("a jitter fraction above one")
        << nodes + u"  kubelet: {jitter: 7}\n"_s << u"  - advance: 1s\n"_s
        << u"jitter must be a percentage such as 20%"_s;
    QTest::newRow("seconds beyond a hundred years")
        << nodes << u"  - advance: 18446744073709551615\n"_s
        << u"step 1 (advance): a duration must be between 0 and"_s;
    QTest::newRow("negative seconds")
        << nodes << u"  - run: {until: podsReady 1, timeout: -5}\n"_s << u"got -5 seconds"_s;
}

void TstUpgradeScenarios::badNumbersAreNamedNotThrown()
{
    QFETCH(QString, cluster);
    QFETCH(QString, steps);
    QFETCH(QString, message);
    const std::string text =
        "mode: continuous\ncluster:\n" + cluster.toStdString() + "steps:\n" + steps.toStdString();
    auto s = NodeUpgradeScenario::fromText(text, "bad.yaml");
    QVERIFY(s.ok());
    const auto r = (*s)->run();
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.messages.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(r.messages.front()).contains(message), r.messages.front().c_str());
    // Caught as a field error, not as an exception's text.
    QVERIFY2(!QString::fromStdString(r.messages.front()).contains(u"stod"_s), r.messages.front().c_str());
    QVERIFY2(r.messages.front().rfind("bad.yaml:", 0) == 0, r.messages.front().c_str());
}

QTEST_GUILESS_MAIN(TstUpgradeScenarios)
#include "tst_upgradescenarios.moc"
