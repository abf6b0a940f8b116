// The node map's list model and filter: sorted rows, incremental updates by node name (only
// changed rows signal, never a reset), counts per revision, filtering and highlighting.

#include "models/itemmodels/nodemapfilter.h"
#include "models/itemmodels/nodemapmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using models::NodeMapFilter;
using models::NodeMapModel;
using models::NodeTile;
using PodState = NodeTile::PodState;
using namespace Qt::Literals::StringLiterals;

namespace {

NodeTile tile(const QString &node, const QString &zone, qint64 revision, PodState state = PodState::Ready)
{
    NodeTile t;
    t.node = node;
    t.zone = zone;
    t.labels = {QStringLiteral("kubernetes.io/hostname=") + node,
                QStringLiteral("topology.kubernetes.io/zone=") + zone};
    t.revisionNumber = revision;
    t.revisionHash = revision >= 0 ? QStringLiteral("hash%1").arg(revision) : QString();
    t.podName = revision >= 0 ? QStringLiteral("agent-") + node : QString();
    t.podState = state;
    t.podCreatedMs = 1'000'000;
    t.nodeConditions = QStringLiteral("Ready");
    return t;
}

// n nodes over three zones, all on revision 1.
std::vector<NodeTile> cluster(int n)
{
    std::vector<NodeTile> tiles;
    const QString zones[] = {QStringLiteral("zone-a"), QStringLiteral("zone-b"), QStringLiteral("zone-c")};
    for (int i = 0; i < n; ++i)
        tiles.push_back(tile(QStringLiteral("node-%1").arg(i), zones[i % 3], 1));
    return tiles;
}

QStringList nodes(const QAbstractItemModel &model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, 0).data(NodeMapModel::NodeNameRole).toString();
    return out;
}

// Records every signal that changes the model, as "kind first last".
class Recorder : public QObject
{
public:
    explicit Recorder(QAbstractItemModel *model)
    {
        connect(model, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex &a, const QModelIndex &b) {
                    log << QStringLiteral("changed %1 %2").arg(a.row()).arg(b.row());
                });
        connect(model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &, int a, int b) {
            log << QStringLiteral("inserted %1 %2").arg(a).arg(b);
        });
        connect(model, &QAbstractItemModel::rowsRemoved, this, [this](const QModelIndex &, int a, int b) {
            log << QStringLiteral("removed %1 %2").arg(a).arg(b);
        });
        connect(model, &QAbstractItemModel::modelReset, this, [this] { log << QStringLiteral("reset"); });
        connect(model, &QAbstractItemModel::layoutChanged, this, [this] { log << QStringLiteral("layout"); });
    }
    QStringList log;
};

} // namespace

class TestNodeMapModel : public QObject
{
    Q_OBJECT

private slots:
    void sortsByZoneThenNaturalNodeName()
    {
        NodeMapModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTiles({tile(QStringLiteral("node-10"), QStringLiteral("b"), 1),
                        tile(QStringLiteral("node-2"), QStringLiteral("b"), 1),
                        tile(QStringLiteral("node-9"), QStringLiteral("a"), 1),
                        tile(QStringLiteral("node-1"), QStringLiteral("b"), 1)});
        QCOMPARE(nodes(model), (QStringList{u"node-9"_s, u"node-1"_s, u"node-2"_s, u"node-10"_s}));
        QCOMPARE(model.rowOfNode(QStringLiteral("node-10")), 3);
        QCOMPARE(model.rowOfNode(QStringLiteral("nope")), -1);
    }

    void duplicateNodeNamesKeepTheFirstTile()
    {
        NodeMapModel model;
        model.setTiles({tile(QStringLiteral("n1"), QStringLiteral("a"), 1),
                        tile(QStringLiteral("n1"), QStringLiteral("b"), 2)});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.tile(0).revisionNumber, 1);
    }

    void updatesIncrementally_data()
    {
        QTest::addColumn<int>("nodeIndex"); // which tile of the 300-node cluster to change (-1: none)
        QTest::addColumn<QString>("what");
        QTest::addColumn<QStringList>("expectedSignals");
        QTest::addColumn<int>("expectedRows");

        // cluster(300): zone-a holds node-0, node-3, ... (100 nodes), sorted naturally, so
        // node-3 is row 1 and node-299 (zone-c) is row 299.
        QTest::newRow("an unchanged picture emits nothing") << -1 << "" << QStringList() << 300;
        QTest::newRow("a new revision on one node changes that row only")
            << 3 << "revision" << QStringList{u"changed 1 1"_s} << 300;
        QTest::newRow("a pod becoming not ready changes that row only")
            << 299 << "state" << QStringList{u"changed 299 299"_s} << 300;
        QTest::newRow("a label change changes that row only")
            << 4 << "label" << QStringList{u"changed 101 101"_s} << 300;
        QTest::newRow("a removed node removes its row")
            << 3 << "remove" << QStringList{u"removed 1 1"_s} << 299;
        QTest::newRow("a new node is inserted at its sorted place")
            << -1 << "add" << QStringList{u"inserted 2 2"_s} << 301;
        QTest::newRow("a node moving zone leaves one group and joins another")
            << 3 << "zone" << QStringList{u"removed 1 1"_s, u"inserted 100 100"_s} << 300;
    }

    void updatesIncrementally()
    {
        QFETCH(int, nodeIndex);
        QFETCH(QString, what);
        QFETCH(QStringList, expectedSignals);
        QFETCH(int, expectedRows);

        NodeMapModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto tiles = cluster(300);
        model.setTiles(tiles);
        Recorder recorder(&model);

        if (what == u"revision")
            tiles[static_cast<size_t>(nodeIndex)].revisionNumber = 2;
        else if (what == u"state")
            tiles[static_cast<size_t>(nodeIndex)].podState = PodState::NotReady;
        else if (what == u"label")
            tiles[static_cast<size_t>(nodeIndex)].labels << QStringLiteral("pool=gpu");
        else if (what == u"remove")
            tiles.erase(tiles.begin() + nodeIndex);
        else if (what == u"add")
            tiles.push_back(tile(QStringLiteral("node-4a"), QStringLiteral("zone-a"), 1)); // after node-3
        else if (what == u"zone")
            tiles[static_cast<size_t>(nodeIndex)].zone =
                QStringLiteral("zone-b"); // between node-1 and node-4
        model.setTiles(tiles);

        QCOMPARE(recorder.log, expectedSignals);
        QCOMPARE(model.rowCount(), expectedRows);
        // Whatever happened, the rows now equal the picture given.
        std::sort(tiles.begin(), tiles.end(),
                  [](const NodeTile &a, const NodeTile &b) { return a.node < b.node; });
        std::vector<NodeTile> rows;
        for (int r = 0; r < model.rowCount(); ++r)
            rows.push_back(model.tile(r));
        std::sort(rows.begin(), rows.end(),
                  [](const NodeTile &a, const NodeTile &b) { return a.node < b.node; });
        QVERIFY(rows == tiles);
        for (int r = 0; r < model.rowCount(); ++r)
            QCOMPARE(model.rowOfNode(model.tile(r).node), r);
    }

    void replacesEveryNodeWithoutReset()
    {
        NodeMapModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTiles(cluster(50));
        Recorder recorder(&model);
        std::vector<NodeTile> other;
        for (int i = 0; i < 20; ++i)
            other.push_back(tile(QStringLiteral("other-%1").arg(i), QStringLiteral("zone-x"), 4));
        model.setTiles(other);
        QVERIFY(!recorder.log.contains(u"reset"_s));
        QCOMPARE(model.rowCount(), 20);
        model.setTiles({});
        QCOMPARE(model.rowCount(), 0);
    }

    void countsPodsPerRevision_data()
    {
        QTest::addColumn<QList<qint64>>("revisions"); // one node per entry, -1 without pod
        QTest::addColumn<QString>("expected");        // "rev:hash:count" ascending

        QTest::newRow("no nodes count nothing") << QList<qint64>{} << "";
        QTest::newRow("nodes without pods count nothing") << QList<qint64>{-1, -1} << "";
        QTest::newRow("a rollout half way splits the count")
            << QList<qint64>{1, 2, 2, 1, -1, 2} << "1:hash1:2 2:hash2:3";
    }

    void countsPodsPerRevision()
    {
        QFETCH(QList<qint64>, revisions);
        QFETCH(QString, expected);
        NodeMapModel model;
        QSignalSpy spy(&model, &NodeMapModel::revisionCountsChanged);
        std::vector<NodeTile> tiles;
        for (int i = 0; i < revisions.size(); ++i)
            tiles.push_back(tile(QStringLiteral("n%1").arg(i), QStringLiteral("z"), revisions[i],
                                 revisions[i] < 0 ? PodState::Missing : PodState::Ready));
        model.setTiles(tiles);
        QStringList parts;
        for (const auto &c : model.revisionCounts())
            parts << QStringLiteral("%1:%2:%3").arg(c.revisionNumber).arg(c.revisionHash).arg(c.count);
        QCOMPARE(parts.join(u' '), expected);
        QCOMPARE(spy.count(), expected.isEmpty() ? 0 : 1);
        if (!model.revisionCounts().empty()) {
            const auto &first = model.revisionCounts().front();
            QCOMPARE(model.countForRevision(first.revisionNumber), first.count);
        }
        model.setTiles(tiles); // same picture: no new signal
        QCOMPARE(spy.count(), expected.isEmpty() ? 0 : 1);
    }

    void toolTipNamesPodHashAgeAndConditions()
    {
        NodeMapModel model;
        NodeTile t = tile(QStringLiteral("node-7"), QStringLiteral("zone-a"), 3, PodState::NotReady);
        t.podCreatedMs = 1'000'000;
        t.nodeConditions = QStringLiteral("Ready, DiskPressure");
        model.setTiles({t});
        model.setReferenceTime(1'000'000 + 5 * 60 * 1000);
        const QString tip = model.index(0).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(u"node-7"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"agent-node-7"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"not ready"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"hash3"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"Age: 5m"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"DiskPressure"_s), qPrintable(tip));
    }

    void filters_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QList<int>>("states"); // PodState values
        QTest::addColumn<QStringList>("expected");

        const QList<int> any;
        QTest::newRow("no filter shows every node")
            << ""
            << "" << any << QStringList{u"web-1"_s, u"web-2"_s, u"db-1"_s, u"web-10"_s};
        QTest::newRow("text matches a node name substring ignoring case")
            << "WEB-1"
            << "" << any << QStringList{u"web-1"_s, u"web-10"_s};
        QTest::newRow("text key=value matches a label exactly") << "pool=db"
                                                                << "" << any << QStringList{u"db-1"_s};
        QTest::newRow("text key= matches any value of the label") << "gpu="
                                                                  << "" << any << QStringList{u"web-2"_s};
        QTest::newRow("several terms must all match")
            << "web pool=web"
            << "" << any << QStringList{u"web-1"_s, u"web-2"_s, u"web-10"_s};
        QTest::newRow("label filter by key and value")
            << ""
            << "pool=web" << any << QStringList{u"web-1"_s, u"web-2"_s, u"web-10"_s};
        QTest::newRow("label filter by key only") << ""
                                                  << "gpu" << any << QStringList{u"web-2"_s};
        QTest::newRow("state filter keeps the chosen states")
            << ""
            << "" << QList<int>{int(PodState::NotReady), int(PodState::Missing)}
            << QStringList{u"web-2"_s, u"web-10"_s};
        QTest::newRow("text and state combine") << "10"
                                                << "" << QList<int>{int(PodState::NotReady)} << QStringList();
        QTest::newRow("an unknown label matches nothing") << ""
                                                          << "pool=none" << any << QStringList();
    }

    void filters()
    {
        QFETCH(QString, text);
        QFETCH(QString, label);
        QFETCH(QList<int>, states);
        QFETCH(QStringList, expected);

        NodeMapModel model;
        NodeMapFilter filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto withPool = [](NodeTile t, const QString &pool) {
            t.labels << QStringLiteral("pool=") + pool;
            return t;
        };
        NodeTile gpu = withPool(tile(QStringLiteral("web-2"), QStringLiteral("a"), 1, PodState::NotReady),
                                QStringLiteral("web"));
        gpu.labels << QStringLiteral("gpu=true");
        model.setTiles(
            {withPool(tile(QStringLiteral("web-1"), QStringLiteral("a"), 1), QStringLiteral("web")), gpu,
             withPool(tile(QStringLiteral("web-10"), QStringLiteral("a"), -1, PodState::Missing),
                      QStringLiteral("web")),
             withPool(tile(QStringLiteral("db-1"), QStringLiteral("a"), 1), QStringLiteral("db"))});
        filter.setFilterText(text);
        filter.setLabelFilter(label);
        QList<PodState> stateList;
        for (int s : states)
            stateList << static_cast<PodState>(s);
        filter.setStateFilter(stateList);
        QCOMPARE(filter.stateFilter(), stateList);

        QStringList shown = nodes(filter);
        // The filter keeps the model's order; compare as sets of names in model order.
        QStringList expectedInOrder;
        for (const QString &n : nodes(model)) {
            if (expected.contains(n))
                expectedInOrder << n;
        }
        QCOMPARE(shown, expectedInOrder);
    }

    void filterFollowsModelUpdates()
    {
        NodeMapModel model;
        NodeMapFilter filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto tiles = cluster(30);
        model.setTiles(tiles);
        filter.setStateFilter({PodState::NotReady});
        QCOMPARE(filter.rowCount(), 0);
        tiles[5].podState = PodState::NotReady;
        model.setTiles(tiles);
        QCOMPARE(nodes(filter), QStringList{u"node-5"_s});
    }

    void highlightsARevision()
    {
        NodeMapModel model;
        NodeMapFilter filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTiles({tile(QStringLiteral("a"), QStringLiteral("z"), 1),
                        tile(QStringLiteral("b"), QStringLiteral("z"), 2),
                        tile(QStringLiteral("c"), QStringLiteral("z"), -1, PodState::Missing)});
        QSignalSpy changed(&filter, &QAbstractItemModel::dataChanged);
        QSignalSpy highlight(&filter, &NodeMapFilter::highlightedRevisionChanged);
        auto highlighted = [&] {
            QStringList out;
            for (int r = 0; r < filter.rowCount(); ++r) {
                if (filter.index(r, 0).data(NodeMapModel::HighlightedRole).toBool())
                    out << filter.index(r, 0).data().toString();
            }
            return out;
        };
        QCOMPARE(highlighted(), QStringList());
        filter.setHighlightedRevision(2);
        QCOMPARE(highlighted(), QStringList{u"b"_s});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(2).value<QList<int>>(), QList<int>{NodeMapModel::HighlightedRole});
        QCOMPARE(highlight.count(), 1);
        filter.setHighlightedRevision(2);
        QCOMPARE(highlight.count(), 1);
        filter.setHighlightedRevision(-1);
        QCOMPARE(highlighted(), QStringList());
        QCOMPARE(filter.highlightedRevision(), -1);
    }
};

QTEST_GUILESS_MAIN(TestNodeMapModel)
#include "tst_nodemapmodel.moc"
