// The explorer, revision timeline and event list models: structure checked by
// QAbstractItemModelTester, and routine snapshot updates applied incrementally (inserts,
// removals, moves, dataChanged) without a model reset.

#include "snapshotfactory.h"

#include "models/itemmodels/daemonsetlistmodel.h"
#include "models/itemmodels/daemonsetselection.h"
#include "models/itemmodels/eventfiltermodel.h"
#include "models/itemmodels/eventlistmodel.h"
#include "models/itemmodels/revisiontimelinemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace models;
using testing::daemonSet;
using testing::snapshot;

class TestItemModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void explorerShowsBackendNamespacesAndDaemonSets();
    void explorerUpdatesIncrementally_data();
    void explorerUpdatesIncrementally();
    void timelineShowsRenumberingAndRemovedRevisions();
    void timelineFollowsTheSelection();
    void eventsAreNewestFirstAndFilteredByDaemonSet();
    void repeatedEventMovesToTheTopWithoutReset();
    void eventsFilterByTypeAndTextAndSortByValue();
    void eventAgesGoOnBetweenSnapshotsWhileTheClockRuns();
};

void TestItemModels::explorerShowsBackendNamespacesAndDaemonSets()
{
    DaemonSetListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(snapshot(
        {daemonSet(QStringLiteral("logging"), QStringLiteral("fluent-bit"),
                   {{QStringLiteral("fluent-bit-aaa"), 1, "fb:1"}}, QStringLiteral("fluent-bit-aaa"), 3),
         daemonSet(QStringLiteral("kube-system"), QStringLiteral("calico"),
                   {{QStringLiteral("calico-bbb"), 1, "calico:1"}}, QStringLiteral("calico-bbb"), 3),
         daemonSet(QStringLiteral("kube-system"), QStringLiteral("agent"),
                   {{QStringLiteral("agent-ccc"), 1, "agent:1"}}, QStringLiteral("agent-ccc"), 2)}));
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex backend = model.index(0, 0);
    QCOMPARE(backend.data().toString(), QStringLiteral("embedded: test"));
    QCOMPARE(model.rowCount(backend), 2);
    QCOMPARE(model.index(0, 0, backend).data().toString(), QStringLiteral("kube-system"));
    const QModelIndex kubeSystem = model.index(0, 0, backend);
    QCOMPARE(model.rowCount(kubeSystem), 2);
    QCOMPARE(model.index(0, 0, kubeSystem).data().toString(), QStringLiteral("agent"));
    QCOMPARE(model.index(1, 0, kubeSystem).data(DaemonSetListModel::KeyRole).toString(),
             QStringLiteral("kube-system/calico"));
    QCOMPARE(kubeSystem.siblingAtColumn(DaemonSetListModel::DesiredColumn).data().toInt(), 5); // sum of 2 + 3
    const QModelIndex calico = model.indexOfDaemonSet(QStringLiteral("kube-system/calico"));
    QCOMPARE(calico.data(DaemonSetListModel::BadgeRole).toInt(), int(RolloutBadge::Complete));
    QCOMPARE(calico.parent(), kubeSystem);
}

void TestItemModels::explorerUpdatesIncrementally_data()
{
    QTest::addColumn<int>("change");
    QTest::addColumn<int>("expectedInserts");
    QTest::addColumn<int>("expectedRemoves");
    QTest::addColumn<bool>("expectDataChanged");
    QTest::newRow("a status change is a dataChanged") << 0 << 0 << 0 << true;
    QTest::newRow("a new DaemonSet in a new namespace inserts the namespace, then the DaemonSet")
        << 1 << 2 << 0 << false;
    QTest::newRow("a deleted DaemonSet removes its row") << 2 << 0 << 1 << true;
    QTest::newRow("an unchanged snapshot changes nothing") << 3 << 0 << 0 << false;
}

void TestItemModels::explorerUpdatesIncrementally()
{
    QFETCH(int, change);
    QFETCH(int, expectedInserts);
    QFETCH(int, expectedRemoves);
    QFETCH(bool, expectDataChanged);
    auto web = daemonSet(QStringLiteral("default"), QStringLiteral("web"),
                         {{QStringLiteral("web-a"), 1, "n:1"}}, QStringLiteral("web-a"), 4);
    auto db = daemonSet(QStringLiteral("default"), QStringLiteral("db"), {{QStringLiteral("db-a"), 1, "d:1"}},
                        QStringLiteral("db-a"), 4);
    DaemonSetListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(snapshot({web, db}));
    const QPersistentModelIndex webIndex = model.indexOfDaemonSet(QStringLiteral("default/web"));
    QVERIFY(webIndex.isValid());

    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removes(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    std::vector<DaemonSetInfo> next{web, db};
    switch (change) {
    case 0:
        next[0].counts.updated = 2;
        next[0].badge = RolloutBadge::Progressing;
        break;
    case 1:
        next.push_back(daemonSet(QStringLiteral("monitoring"), QStringLiteral("exporter"),
                                 {{QStringLiteral("exporter-a"), 1, "e:1"}}, QStringLiteral("exporter-a"),
                                 4));
        break;
    case 2:
        next.erase(next.begin() + 1); // db
        break;
    default:
        break;
    }
    model.setSnapshot(snapshot(next));
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserts.count(), expectedInserts);
    QCOMPARE(removes.count(), expectedRemoves);
    QCOMPARE(!changes.isEmpty(), expectDataChanged);
    QVERIFY(webIndex.isValid()); // the web row survives every routine update
    QCOMPARE(webIndex.data(DaemonSetListModel::KeyRole).toString(), QStringLiteral("default/web"));
    if (change == 0)
        QCOMPARE(webIndex.sibling(webIndex.row(), DaemonSetListModel::UpdatedColumn).data().toInt(), 2);
}

void TestItemModels::timelineShowsRenumberingAndRemovedRevisions()
{
    RevisionTimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDaemonSetKey(QStringLiteral("default/web"));
    const QString k = QStringLiteral("default");
    const QString w = QStringLiteral("web");
    // revisions 1..3, current 3
    model.setSnapshot(snapshot({daemonSet(k, w,
                                          {{QStringLiteral("web-h1"), 1, "nginx:1.25"},
                                           {QStringLiteral("web-h2"), 2, "nginx:1.26"},
                                           {QStringLiteral("web-h3"), 3, "nginx:1.27"}},
                                          QStringLiteral("web-h3"), 5)}));
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.index(2, 0).data(RevisionTimelineModel::CurrentRole).toBool());
    QCOMPARE(model.index(2, RevisionTimelineModel::PodsColumn).data().toInt(), 5);

    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removes(&model, &QAbstractItemModel::rowsRemoved);
    // rollback to 1: web-h1 becomes number 4 and current; then history limit removes web-h2
    model.setSnapshot(snapshot(
        {daemonSet(k, w,
                   {{QStringLiteral("web-h1"), 4, "nginx:1.25"}, {QStringLiteral("web-h3"), 3, "nginx:1.27"}},
                   QStringLiteral("web-h1"), 5)},
        200000));
    QCOMPARE(resets.count(), 0);
    QCOMPARE(removes.count(), 0); // the removed revision stays as a greyed row
    QCOMPARE(model.rowCount(), 3);
    // order by number: web-h2 (2, removed), web-h3 (3), web-h1 (4, current, was 1)
    QCOMPARE(model.index(0, 0).data(RevisionTimelineModel::NameRole).toString(), QStringLiteral("web-h2"));
    QVERIFY(model.index(0, 0).data(RevisionTimelineModel::RemovedRole).toBool());
    QVERIFY(model.index(0, 0).data(Qt::ForegroundRole).isValid());
    QCOMPARE(model.index(2, 0).data(RevisionTimelineModel::NameRole).toString(), QStringLiteral("web-h1"));
    QCOMPARE(model.index(2, 0).data(RevisionTimelineModel::NumberRole).toLongLong(), 4);
    QCOMPARE(model.index(2, 0).data(RevisionTimelineModel::PreviousNumbersRole).toList(),
             QVariantList{qint64(1)});
    QVERIFY(model.index(2, 0).data(RevisionTimelineModel::CurrentRole).toBool());
    QVERIFY(!model.index(1, 0).data(RevisionTimelineModel::CurrentRole).toBool());
    QCOMPARE(model.rowOfNumber(4), 2);
    QVERIFY(model.podTemplate(2));
}

void TestItemModels::timelineFollowsTheSelection()
{
    DaemonSetSelection selection;
    RevisionTimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSelection(&selection);
    auto snap = snapshot({daemonSet(QStringLiteral("default"), QStringLiteral("a"),
                                    {{QStringLiteral("a-1"), 1, "x:1"}, {QStringLiteral("a-2"), 2, "x:2"}},
                                    QStringLiteral("a-2"), 1),
                          daemonSet(QStringLiteral("default"), QStringLiteral("b"),
                                    {{QStringLiteral("b-1"), 1, "y:1"}}, QStringLiteral("b-1"), 1)});
    model.setSnapshot(snap);
    QCOMPARE(model.rowCount(), 0);
    selection.setCurrent(QStringLiteral("default/a"));
    QCOMPARE(model.rowCount(), 2);
    selection.setCurrent(QStringLiteral("default/b"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, RevisionTimelineModel::ImageColumn).data().toString(), QStringLiteral("y:1"));
}

void TestItemModels::eventsAreNewestFirstAndFilteredByDaemonSet()
{
    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto snap = snapshot({});
    auto events = std::make_shared<std::vector<EventInfo>>(std::vector<EventInfo>{
        testing::event(QStringLiteral("default/e3"), 3000, QStringLiteral("default/web"),
                       QStringLiteral("SuccessfulCreate")),
        testing::event(QStringLiteral("default/e2"), 2000, QStringLiteral("default/db"),
                       QStringLiteral("SuccessfulCreate")),
        testing::event(QStringLiteral("default/e1"), 1000, QStringLiteral("default/web"),
                       QStringLiteral("FailedCreate"))});
    snap->events = events;
    model.setSnapshot(snap);
    QCOMPARE(model.rowCount(), 3);
    model.setDaemonSetKey(QStringLiteral("default/web"));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, EventListModel::ReasonColumn).data().toString(),
             QStringLiteral("SuccessfulCreate"));
    QCOMPARE(model.index(1, 0).data(EventListModel::WarningRole).toBool(), true);
}

void TestItemModels::repeatedEventMovesToTheTopWithoutReset()
{
    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString web = QStringLiteral("default/web");
    auto first = snapshot({});
    first->events = std::make_shared<std::vector<EventInfo>>(std::vector<EventInfo>{
        testing::event(QStringLiteral("default/e2"), 2000, web, QStringLiteral("SuccessfulDelete")),
        testing::event(QStringLiteral("default/e1"), 1000, web, QStringLiteral("FailedCreate"))});
    model.setSnapshot(first);
    const QPersistentModelIndex failed = model.index(1, 0);

    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy moves(&model, &QAbstractItemModel::rowsMoved);
    QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
    auto second = snapshot({}, 200000);
    second->events = std::make_shared<std::vector<EventInfo>>(std::vector<EventInfo>{
        testing::event(QStringLiteral("default/e4"), 4000, web, QStringLiteral("SuccessfulCreate")),
        testing::event(QStringLiteral("default/e1"), 3000, web, QStringLiteral("FailedCreate"), 2),
        testing::event(QStringLiteral("default/e2"), 2000, web, QStringLiteral("SuccessfulDelete"))});
    model.setSnapshot(second);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserts.count(), 1);
    QCOMPARE(moves.count(), 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(failed.row(), 1);
    QCOMPARE(failed.sibling(failed.row(), EventListModel::CountColumn).data().toInt(), 2);
    QCOMPARE(model.index(0, 0).data(EventListModel::KeyRole).toString(), QStringLiteral("default/e4"));
}

void TestItemModels::eventAgesGoOnBetweenSnapshotsWhileTheClockRuns()
{
    // A quiet live cluster publishes no snapshot: the ages move on by themselves, each when its
    // wording changes, and hold still while the clock is stopped.
    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto snap = snapshot({}, 4000000);
    snap->clock.running = true;
    snap->events = std::make_shared<std::vector<EventInfo>>(std::vector<EventInfo>{
        testing::event(QStringLiteral("default/e2"), 3995000, QStringLiteral("default/web"),
                       QStringLiteral("SuccessfulCreate")),
        testing::event(QStringLiteral("default/e1"), 400000, QStringLiteral("default/web"),
                       QStringLiteral("SuccessfulCreate"))});
    model.setSnapshot(snap);
    const auto age = [&](int row) { return model.index(row, EventListModel::TimeColumn).data().toString(); };
    QCOMPARE(age(0), QStringLiteral("5s"));
    QCOMPARE(age(1), QStringLiteral("60m"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.wait(3000));
    QCOMPARE(age(0), QStringLiteral("6s"));
    QCOMPARE(age(1), QStringLiteral("60m"));
    QCOMPARE(changed.first().at(0).toModelIndex().column(), int(EventListModel::TimeColumn));

    auto stopped = std::make_shared<ClusterSnapshot>(*snap);
    stopped->clock.now += 1000;
    stopped->clock.running = false;
    model.setSnapshot(stopped);
    changed.clear();
    QVERIFY(!changed.wait(1200));
    QCOMPARE(age(0), QStringLiteral("6s"));
}

void TestItemModels::eventsFilterByTypeAndTextAndSortByValue()
{
    EventListModel model;
    EventFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString web = QStringLiteral("default/web");
    auto snap = snapshot({});
    snap->events = std::make_shared<std::vector<EventInfo>>(std::vector<EventInfo>{
        testing::event(QStringLiteral("default/e4"), 40000, web, QStringLiteral("SuccessfulCreate"), 1),
        testing::event(QStringLiteral("default/e3"), 9000, web, QStringLiteral("FailedCreate"), 12),
        testing::event(QStringLiteral("default/e2"), 100000, web, QStringLiteral("SuccessfulDelete"), 3),
        testing::event(QStringLiteral("default/e1"), 700, web, QStringLiteral("FailedDaemonPod"), 2)});
    model.setSnapshot(snap);
    auto keys = [&] {
        QStringList out;
        for (int r = 0; r < filter.rowCount(); ++r)
            out << filter.index(r, 0).data(EventListModel::KeyRole).toString().section(u'/', 1);
        return out;
    };
    // Newest first by value (100000 after 9000 as text would sort them the other way round).
    QCOMPARE(keys(), (QStringList{u"e2"_qs, u"e4"_qs, u"e3"_qs, u"e1"_qs}));
    filter.setTypes(EventFilterModel::Types::Warning);
    QCOMPARE(keys(), (QStringList{u"e3"_qs, u"e1"_qs}));
    filter.setTypes(EventFilterModel::Types::Normal);
    QCOMPARE(keys(), (QStringList{u"e2"_qs, u"e4"_qs}));
    filter.setTypes(EventFilterModel::Types::All);
    filter.setSearchText(QStringLiteral("failed"));
    QCOMPARE(keys(), (QStringList{u"e3"_qs, u"e1"_qs}));
    filter.setSearchText({});
    // Counts by value: 12 is the largest.
    filter.sort(EventListModel::CountColumn, Qt::DescendingOrder);
    QCOMPARE(keys(), (QStringList{u"e3"_qs, u"e2"_qs, u"e1"_qs, u"e4"_qs}));
    filter.sort(EventListModel::ReasonColumn, Qt::AscendingOrder);
    QCOMPARE(keys(), (QStringList{u"e3"_qs, u"e1"_qs, u"e4"_qs, u"e2"_qs}));
}

QTEST_GUILESS_MAIN(TestItemModels)
#include "tst_itemmodels.moc"
