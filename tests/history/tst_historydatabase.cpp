// HistoryDatabase: durable revisions (removed ones and renumberings included), rollouts and
// actions across reopening; recovery from damaged files; running on without a usable location.

#include "models/history/historydatabase.h"
#include "models/history/revisionmemory.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <atomic>

#include <sys/stat.h>
#include <unistd.h>

using models::ActionKind;
using models::ActionRecord;
using models::HistoryDatabase;
using models::RevisionRecord;
using models::RolloutRecord;
using models::StoredRevision;

namespace {

const QString kContext = HistoryDatabase::embeddedContextKey(QStringLiteral("demo"));
const QString kWeb = QStringLiteral("default/web");

RevisionRecord revision(const QString &name, qint64 number, const std::string &image = "nginx:1.27")
{
    RevisionRecord r;
    r.name = name;
    r.hash = name.section(QLatin1Char('-'), -1);
    r.number = number;
    r.created = 1000 * number;
    r.changeCause = QStringLiteral("set image %1").arg(QString::fromStdString(image));
    r.imageSummary = QString::fromStdString(image);
    r.podTemplate = std::make_shared<const kube::Json>(
        kube::Json{{"metadata", {{"labels", {{"app", "web"}}}}},
                   {"spec", {{"containers", kube::Json::array({{{"name", "web"}, {"image", image}}})}}}});
    return r;
}

ActionRecord action(ActionKind kind, const QString &target, qint64 time, const QString &parameters, bool ok)
{
    ActionRecord a;
    a.time = time;
    a.wallTime = 1700000000000 + time;
    a.user = QStringLiteral("alice");
    a.kind = kind;
    a.target = target;
    a.parameters = parameters;
    a.ok = ok;
    a.outcome = ok ? QStringLiteral("daemonset.apps/web rolled back") : QStringLiteral("error: not found");
    return a;
}

bool sameAction(const ActionRecord &a, const ActionRecord &b)
{
    return a.time == b.time && a.wallTime == b.wallTime && a.user == b.user && a.kind == b.kind &&
           a.target == b.target && a.parameters == b.parameters && a.ok == b.ok && a.outcome == b.outcome;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(bytes) == bytes.size();
}

QStringList corruptCopies(const QString &dir)
{
    QStringList files;
    for (const QString &name :
         QDir(dir).entryList({QStringLiteral("history.sqlite.corrupt-*")}, QDir::Files, QDir::Name)) {
        if (!name.endsWith(QStringLiteral("-wal")) && !name.endsWith(QStringLiteral("-shm")))
            files.append(name);
    }
    return files;
}

// Runs one SQL statement on the file through a separate raw connection (as another program would).
QStringList rawQuery(const QString &path, const QString &sql)
{
    QStringList rows;
    const QString name = QStringLiteral("raw-%1").arg(quintptr(&rows));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql)) {
                while (q.next())
                    rows.append(q.value(0).toString());
            } else {
                rows.append(QStringLiteral("error: ") + q.lastError().text());
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return rows;
}

// A real database of a useful size (many pages), closed so its WAL is checkpointed away.
QByteArray realDatabaseBytes(const QString &path)
{
    {
        HistoryDatabase db(path);
        std::vector<RevisionRecord> live;
        for (int i = 1; i <= 150; ++i)
            live.push_back(revision(QStringLiteral("web-h%1").arg(i), i,
                                    "registry.example/web:" + std::to_string(i) + std::string(400, 'x')));
        if (!db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"), live, 100))
            return {};
        for (int i = 0; i < 100; ++i) {
            if (!db.recordAction(kContext, action(ActionKind::Pause, kWeb, i, QString(), true)))
                return {};
        }
    }
    return readAll(path);
}

} // namespace

class TestHistoryDatabase : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void defaultPathIsInAppData();
    void contextKeys();
    void historySurvivesReopening();
    void revisionHistory_data();
    void revisionHistory();
    void restoresRevisionMemory();
    void newUidStartsOver();
    void actionsInOrder();
    void parametersJson_data();
    void parametersJson();
    void rolloutUpdatedInPlace();
    void recordSnapshotSkipsUnchanged();
    void damagedFileIsMovedAside_data();
    void damagedFileIsMovedAside();
    void newerSchemaIsLeftUntouched();
    void unusableLocation();
    void readOnlyDirectory();
    void concurrentInstancesShareTheFile();
    void fileAndFoldersAreOwnerOnly();
};

void TestHistoryDatabase::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Daemonscope"));
    QCoreApplication::setApplicationName(QStringLiteral("Daemonscope"));
}

void TestHistoryDatabase::defaultPathIsInAppData()
{
    QStandardPaths::setTestModeEnabled(true);
    const QString path = HistoryDatabase::defaultPath();
    QStandardPaths::setTestModeEnabled(false);
    QVERIFY2(path.endsWith(QStringLiteral("/Daemonscope/Daemonscope/history.sqlite")), qPrintable(path));
}

void TestHistoryDatabase::contextKeys()
{
    QCOMPARE(HistoryDatabase::embeddedContextKey(QStringLiteral("rollback-demo")),
             QStringLiteral("embedded:rollback-demo"));
    QCOMPARE(HistoryDatabase::liveContextKey(QStringLiteral("kind-prod"),
                                             QStringLiteral("https://127.0.0.1:6443")),
             QStringLiteral("kind-prod@https://127.0.0.1:6443"));
}

void TestHistoryDatabase::historySurvivesReopening()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    RolloutRecord rollout;
    rollout.fromHash = QStringLiteral("aaa");
    rollout.toHash = QStringLiteral("bbb");
    rollout.fromRevision = 1;
    rollout.toRevision = 2;
    rollout.started = 150;
    rollout.completed = 190;
    rollout.outcome = QStringLiteral("complete");
    {
        HistoryDatabase db(path);
        QVERIFY2(db.isOpen(), qPrintable(db.openError()));
        QVERIFY(db.recoveryMessage().isEmpty());
        QCOMPARE(db.schemaVersion(), HistoryDatabase::kSchemaVersion);
        QVERIFY2(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                                    {revision(QStringLiteral("web-aaa"), 1, "nginx:1.26")}, 100),
                 qPrintable(db.lastError()));
        QVERIFY(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                                   {revision(QStringLiteral("web-aaa"), 1, "nginx:1.26"),
                                    revision(QStringLiteral("web-bbb"), 2, "nginx:1.27")},
                                   200));
        QVERIFY(db.recordRollout(kContext, kWeb, QStringLiteral("uid-1"), rollout));
        QVERIFY(db.recordAction(
            kContext, action(ActionKind::Rollback, kWeb, 300, QStringLiteral("toRevision=1"), true)));
    }
    // A new instance on the same file: what an app restart sees.
    HistoryDatabase db(path);
    QVERIFY2(db.isOpen(), qPrintable(db.openError()));
    QVERIFY(db.recoveryMessage().isEmpty());
    QCOMPARE(db.daemonSetKeys(kContext), QStringList{kWeb});
    QCOMPARE(db.daemonSetUid(kContext, kWeb), QStringLiteral("uid-1"));
    const std::vector<StoredRevision> revs = db.revisions(kContext, kWeb);
    QCOMPARE(revs.size(), std::size_t(2));
    QCOMPARE(revs[0].name, QStringLiteral("web-aaa"));
    QCOMPARE(revs[0].hash, QStringLiteral("aaa"));
    QCOMPARE(revs[0].number, qint64(1));
    QCOMPARE(revs[0].created, qint64(1000));
    QCOMPARE(revs[0].changeCause, QStringLiteral("set image nginx:1.26"));
    QCOMPARE(revs[0].imageSummary, QStringLiteral("nginx:1.26"));
    QCOMPARE(revs[0].firstSeen, qint64(100));
    QCOMPARE(revs[0].lastSeen, qint64(200));
    QCOMPARE(*revs[0].podTemplate, *revision(QStringLiteral("web-aaa"), 1, "nginx:1.26").podTemplate);
    QCOMPARE(revs[1].name, QStringLiteral("web-bbb"));
    QCOMPARE(revs[1].firstSeen, qint64(200));
    QVERIFY(!revs[1].removed);
    const auto rollouts = db.rollouts(kContext, kWeb);
    QCOMPARE(rollouts.size(), std::size_t(1));
    QVERIFY(rollouts[0] == rollout);
    const auto actions = db.actions(kContext, kWeb);
    QCOMPARE(actions.size(), std::size_t(1));
    QVERIFY(sameAction(actions[0],
                       action(ActionKind::Rollback, kWeb, 300, QStringLiteral("toRevision=1"), true)));
    QVERIFY(db.lastError().isEmpty());
    // Another context sees none of it.
    QVERIFY(db.revisions(HistoryDatabase::embeddedContextKey(QStringLiteral("other")), kWeb).empty());
    QVERIFY(db.actions(HistoryDatabase::embeddedContextKey(QStringLiteral("other"))).empty());
}

// Observations are "time: name=number name=number ..."; expectations are
// "name: n,n,... [removed@time]" for every revision the database returns, in order.
void TestHistoryDatabase::revisionHistory_data()
{
    QTest::addColumn<QStringList>("observations");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("a revision that never changes keeps one number")
        << QStringList{QStringLiteral("100: web-a=1"), QStringLiteral("200: web-a=1")}
        << QStringList{QStringLiteral("web-a: 1")};
    QTest::newRow("a rollback renumbers revision 1 to 5 and the history limit later deletes it")
        << QStringList{QStringLiteral("100: web-a=1 web-b=2 web-c=3 web-d=4"),
                       QStringLiteral("200: web-b=2 web-c=3 web-d=4 web-a=5"),
                       QStringLiteral("300: web-c=3 web-d=4 web-a=5 web-e=6"),
                       QStringLiteral("400: web-d=4 web-e=6 web-f=7")}
        << QStringList{QStringLiteral("web-b: 2 removed@300"),
                       QStringLiteral("web-c: 3 removed@400"),
                       QStringLiteral("web-d: 4"),
                       QStringLiteral("web-a: 1,5 removed@400"),
                       QStringLiteral("web-e: 6"),
                       QStringLiteral("web-f: 7")};
    QTest::newRow("a removed revision keeps its first removal time while it stays away")
        << QStringList{QStringLiteral("100: web-a=1 web-b=2"), QStringLiteral("200: web-b=2"),
                       QStringLiteral("300: web-b=2")}
        << QStringList{QStringLiteral("web-a: 1 removed@200"), QStringLiteral("web-b: 2")};
    QTest::newRow("a removed revision that comes back is live again under its new number")
        << QStringList{QStringLiteral("100: web-a=1 web-b=2"), QStringLiteral("200: web-b=2"),
                       QStringLiteral("300: web-b=2 web-a=3")}
        << QStringList{QStringLiteral("web-b: 2"), QStringLiteral("web-a: 1,3")};
    QTest::newRow("an empty list marks every revision removed")
        << QStringList{QStringLiteral("100: web-a=1 web-b=2"), QStringLiteral("200:")}
        << QStringList{QStringLiteral("web-a: 1 removed@200"), QStringLiteral("web-b: 2 removed@200")};
}

void TestHistoryDatabase::revisionHistory()
{
    QFETCH(QStringList, observations);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    {
        HistoryDatabase db(path);
        QVERIFY2(db.isOpen(), qPrintable(db.openError()));
        for (const QString &obs : observations) {
            const qint64 time = obs.section(QLatin1Char(':'), 0, 0).toLongLong();
            std::vector<RevisionRecord> live;
            for (const QString &item :
                 obs.section(QLatin1Char(':'), 1).split(QLatin1Char(' '), Qt::SkipEmptyParts))
                live.push_back(revision(item.section(QLatin1Char('='), 0, 0),
                                        item.section(QLatin1Char('='), 1).toLongLong()));
            QVERIFY2(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"), live, time),
                     qPrintable(db.lastError()));
        }
    }
    HistoryDatabase db(path); // read back after a restart
    QStringList actual;
    for (const StoredRevision &r : db.revisions(kContext, kWeb)) {
        QStringList numbers;
        for (qint64 n : r.numberHistory())
            numbers.append(QString::number(n));
        QCOMPARE(r.numbers.size(), r.numberHistory().size());
        QCOMPARE(r.numbers.last().number, r.number);
        QString line = r.name + QStringLiteral(": ") + numbers.join(QLatin1Char(','));
        if (r.removed)
            line += QStringLiteral(" removed@") + QString::number(r.removedAt);
        else
            QCOMPARE(r.removedAt, qint64(0));
        actual.append(line);
    }
    QVERIFY(db.lastError().isEmpty());
    QCOMPARE(actual, expected);
}

void TestHistoryDatabase::restoresRevisionMemory()
{
    QTemporaryDir dir;
    HistoryDatabase db(dir.filePath(QStringLiteral("history.sqlite")));
    QVERIFY(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                               {revision(QStringLiteral("web-a"), 1), revision(QStringLiteral("web-b"), 2)},
                               100));
    QVERIFY(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                               {revision(QStringLiteral("web-b"), 2), revision(QStringLiteral("web-a"), 3)},
                               200));
    QVERIFY(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                               {revision(QStringLiteral("web-a"), 3)}, 300));
    models::RevisionMemory memory;
    QVERIFY2(db.restore(kContext, memory), qPrintable(db.lastError()));
    QCOMPARE(memory.uidOf(kWeb), QStringLiteral("uid-1"));
    const auto remembered = memory.revisions(kWeb);
    QCOMPARE(remembered.size(), std::size_t(2));
    QCOMPARE(remembered[0].name, QStringLiteral("web-b"));
    QVERIFY(remembered[0].removed);
    QCOMPARE(remembered[0].removedAt, qint64(300));
    QCOMPARE(remembered[1].name, QStringLiteral("web-a"));
    QCOMPARE(remembered[1].number, qint64(3));
    QCOMPARE(remembered[1].previousNumbers, (QList<qint64>{1}));
    QVERIFY(!remembered[1].removed);
}

void TestHistoryDatabase::newUidStartsOver()
{
    QTemporaryDir dir;
    HistoryDatabase db(dir.filePath(QStringLiteral("history.sqlite")));
    QVERIFY(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                               {revision(QStringLiteral("web-a"), 1)}, 100));
    QVERIFY(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-2"),
                               {revision(QStringLiteral("web-z"), 1)}, 200));
    QCOMPARE(db.daemonSetUid(kContext, kWeb), QStringLiteral("uid-2"));
    const auto current = db.revisions(kContext, kWeb);
    QCOMPARE(current.size(), std::size_t(1));
    QCOMPARE(current[0].name, QStringLiteral("web-z"));
    const auto old = db.revisions(kContext, kWeb, QStringLiteral("uid-1"));
    QCOMPARE(old.size(), std::size_t(1));
    QCOMPARE(old[0].name, QStringLiteral("web-a"));
    QVERIFY2(!old[0].removed, "the old incarnation's revisions are not touched by the new one");
    QCOMPARE(db.daemonSetKeys(kContext), QStringList{kWeb});
}

void TestHistoryDatabase::actionsInOrder()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    const QString other = QStringLiteral("default/agent");
    // Deliberately not in time order: the list is in recording order.
    const std::vector<ActionRecord> recorded = {
        action(ActionKind::Pause, kWeb, 500, QString(), true),
        action(ActionKind::Rollback, kWeb, 400, QStringLiteral("toRevision=3"), false),
        action(ActionKind::LoadScenario, QString(), 0, QStringLiteral("path=/tmp/a b.yaml"), true),
        action(ActionKind::Resume, other, 600, QString(), true),
        action(ActionKind::Rollback, kWeb, 700, QStringLiteral("toRevision=0"), true),
    };
    {
        HistoryDatabase db(path);
        for (const ActionRecord &a : recorded)
            QVERIFY2(db.recordAction(kContext, a), qPrintable(db.lastError()));
        // Recording an identical action again (a snapshot's list re-recorded) adds nothing.
        QVERIFY(db.recordAction(kContext, recorded[1]));
        QVERIFY(db.recordAction(
            HistoryDatabase::liveContextKey(QStringLiteral("prod"), QStringLiteral("https://x")),
            recorded[0]));
    }
    HistoryDatabase db(path);
    const auto web = db.actions(kContext, kWeb);
    QCOMPARE(web.size(), std::size_t(3));
    QVERIFY(sameAction(web[0], recorded[0]));
    QVERIFY(sameAction(web[1], recorded[1]));
    QVERIFY(sameAction(web[2], recorded[4]));
    const auto all = db.actions(kContext);
    QCOMPARE(all.size(), recorded.size());
    for (std::size_t i = 0; i < recorded.size(); ++i)
        QVERIFY2(sameAction(all[i], recorded[i]), qPrintable(QString::number(i)));
    QCOMPARE(db.actions(HistoryDatabase::liveContextKey(QStringLiteral("prod"), QStringLiteral("https://x")))
                 .size(),
             std::size_t(1));
    const QStringList json = rawQuery(
        path, QStringLiteral("SELECT parameters_json FROM actions WHERE action = 'rollback' ORDER BY id"));
    QCOMPARE(json, (QStringList{QStringLiteral("{\"toRevision\":\"3\"}"),
                                QStringLiteral("{\"toRevision\":\"0\"}")}));
}

void TestHistoryDatabase::parametersJson_data()
{
    QTest::addColumn<QString>("parameters");
    QTest::addColumn<QString>("json");
    QTest::newRow("no parameters give an empty object") << QString() << QStringLiteral("{}");
    QTest::newRow("one key=value pair")
        << QStringLiteral("toRevision=5") << QStringLiteral("{\"toRevision\":\"5\"}");
    QTest::newRow("a comma-separated list of pairs")
        << QStringLiteral("fault=NotReady, node=node-3")
        << QStringLiteral("{\"fault\":\"NotReady\",\"node\":\"node-3\"}");
    QTest::newRow("a JSON object is kept") << QStringLiteral("{\"x\": 1}") << QStringLiteral("{\"x\":1}");
    QTest::newRow("free text is wrapped")
        << QStringLiteral("speed 10x") << QStringLiteral("{\"text\":\"speed 10x\"}");
}

void TestHistoryDatabase::parametersJson()
{
    QFETCH(QString, parameters);
    QFETCH(QString, json);
    QCOMPARE(HistoryDatabase::parametersJson(parameters), json);
}

void TestHistoryDatabase::rolloutUpdatedInPlace()
{
    QTemporaryDir dir;
    HistoryDatabase db(dir.filePath(QStringLiteral("history.sqlite")));
    models::RolloutTiming timing;
    timing.fromHash = QStringLiteral("aaa");
    timing.toHash = QStringLiteral("bbb");
    timing.fromRevision = 1;
    timing.toRevision = 2;
    timing.started = 100;
    QVERIFY(db.recordRollout(kContext, kWeb, QStringLiteral("uid-1"), RolloutRecord::fromTiming(timing)));
    QCOMPARE(db.rollouts(kContext, kWeb).at(0).outcome, QStringLiteral("in progress"));
    timing.completed = 250;
    QVERIFY(db.recordRollout(kContext, kWeb, QStringLiteral("uid-1"), RolloutRecord::fromTiming(timing)));
    models::RolloutTiming next = timing;
    next.fromHash = QStringLiteral("bbb");
    next.toHash = QStringLiteral("ccc");
    next.started = 300;
    next.completed = 0;
    next.supersededBy = QStringLiteral("ddd");
    QVERIFY(db.recordRollout(kContext, kWeb, QStringLiteral("uid-1"), RolloutRecord::fromTiming(next)));
    const auto rollouts = db.rollouts(kContext, kWeb);
    QCOMPARE(rollouts.size(), std::size_t(2));
    QCOMPARE(rollouts[0].completed, qint64(250));
    QCOMPARE(rollouts[0].outcome, QStringLiteral("complete"));
    QCOMPARE(rollouts[1].toHash, QStringLiteral("ccc"));
    QCOMPARE(rollouts[1].outcome, QStringLiteral("superseded by ddd"));
}

void TestHistoryDatabase::recordSnapshotSkipsUnchanged()
{
    QTemporaryDir dir;
    HistoryDatabase db(dir.filePath(QStringLiteral("history.sqlite")));
    auto snapshot = std::make_shared<models::ClusterSnapshot>(*models::ClusterSnapshot::empty());
    models::DaemonSetInfo ds;
    ds.key = kWeb;
    ds.namespace_ = QStringLiteral("default");
    ds.name = QStringLiteral("web");
    ds.uid = QStringLiteral("uid-1");
    auto revisions = std::make_shared<std::vector<models::RevisionInfo>>();
    for (const auto &[name, number] :
         {std::pair{QStringLiteral("web-a"), 1}, std::pair{QStringLiteral("web-b"), 2}}) {
        models::RevisionInfo info;
        const RevisionRecord r = revision(name, number);
        info.name = r.name;
        info.hash = r.hash;
        info.number = r.number;
        info.podTemplate = r.podTemplate;
        revisions->push_back(info);
    }
    ds.revisions = revisions;
    auto record = std::make_shared<models::DaemonSetRecord>();
    models::RolloutTiming timing;
    timing.fromHash = QStringLiteral("a");
    timing.toHash = QStringLiteral("b");
    timing.started = 50;
    record->rollouts.push_back(timing);
    record->actions.push_back(action(ActionKind::Pause, kWeb, 60, QString(), true));
    ds.record = record;
    snapshot->daemonSets.push_back(ds);
    snapshot->clock.now = 100;
    QVERIFY2(db.recordSnapshot(kContext, *snapshot), qPrintable(db.lastError()));
    snapshot->clock.now = 200; // same objects: nothing to write
    QVERIFY(db.recordSnapshot(kContext, *snapshot));
    QCOMPARE(db.revisions(kContext, kWeb).at(0).lastSeen, qint64(100));

    auto record2 = std::make_shared<models::DaemonSetRecord>(*record);
    record2->actions.push_back(action(ActionKind::Resume, kWeb, 150, QString(), true));
    snapshot->daemonSets[0].record = record2;
    snapshot->daemonSets[0].revisions = std::make_shared<std::vector<models::RevisionInfo>>(
        std::vector<models::RevisionInfo>{revisions->at(1)});
    snapshot->clock.now = 300;
    QVERIFY(db.recordSnapshot(kContext, *snapshot));
    const auto stored = db.revisions(kContext, kWeb);
    QCOMPARE(stored.size(), std::size_t(2));
    QVERIFY(stored[0].removed);
    QCOMPARE(stored[0].removedAt, qint64(300));
    QCOMPARE(stored[1].lastSeen, qint64(300));
    QCOMPARE(db.actions(kContext, kWeb).size(), std::size_t(2)); // the first action is not duplicated
    QCOMPARE(db.rollouts(kContext, kWeb).size(), std::size_t(1));
}

void TestHistoryDatabase::damagedFileIsMovedAside_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("a text file is not a database") << QStringLiteral("text");
    QTest::newRow("a damaged file's write-ahead log moves with it") << QStringLiteral("text-wal");
    QTest::newRow("random bytes are not a database") << QStringLiteral("random");
    QTest::newRow("an SQLite header followed by garbage") << QStringLiteral("header");
    QTest::newRow("a real database cut inside its header") << QStringLiteral("cut-header");
    QTest::newRow("a real database cut after its first page") << QStringLiteral("cut-page");
    QTest::newRow("a real database cut in half") << QStringLiteral("cut-half");
    QTest::newRow("a real database with its middle overwritten") << QStringLiteral("scribbled");
}

void TestHistoryDatabase::damagedFileIsMovedAside()
{
    QFETCH(QString, kind);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    QByteArray bytes;
    if (kind.startsWith(QStringLiteral("text"))) {
        bytes = QByteArray("this is not a database\n").repeated(100);
    } else if (kind == QStringLiteral("random")) {
        quint32 x = 12345;
        for (int i = 0; i < 8192; ++i) {
            x = x * 1664525u + 1013904223u;
            bytes.append(char(x >> 24));
        }
    } else if (kind == QStringLiteral("header")) {
        bytes = QByteArray("SQLite format 3\0", 16) + QByteArray(4080, '\x5a');
    } else {
        const QByteArray real = realDatabaseBytes(dir.filePath(QStringLiteral("real.sqlite")));
        QVERIFY(real.size() > 64 * 1024);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("real.sqlite-wal"))) ||
                QFileInfo(dir.filePath(QStringLiteral("real.sqlite-wal"))).size() == 0);
        if (kind == QStringLiteral("cut-header"))
            bytes = real.left(50);
        else if (kind == QStringLiteral("cut-page"))
            bytes = real.left(4096 + 100);
        else if (kind == QStringLiteral("cut-half"))
            bytes = real.left(real.size() / 2);
        else
            bytes = real.left(8192) + QByteArray(real.size() - 2 * 8192, '\x00') + real.right(8192);
    }
    QVERIFY(writeAll(path, bytes));
    const QByteArray wal("stale write-ahead log");
    if (kind.endsWith(QStringLiteral("-wal")))
        QVERIFY(writeAll(path + QStringLiteral("-wal"), wal));

    {
        HistoryDatabase db(path);
        QVERIFY2(db.isOpen(), qPrintable(db.openError()));
        QVERIFY(!db.recoveryMessage().isEmpty());
        qInfo().noquote() << db.recoveryMessage();
        const QStringList moved = corruptCopies(dir.path());
        QCOMPARE(moved.size(), 1);
        QCOMPARE(db.movedAsidePath(), dir.filePath(moved[0]));
        QVERIFY(QRegularExpression(QStringLiteral("^history\\.sqlite\\.corrupt-\\d{8}T\\d{6}Z$"))
                    .match(moved[0])
                    .hasMatch());
        QVERIFY2(db.recoveryMessage().contains(QDir::toNativeSeparators(path)),
                 qPrintable(db.recoveryMessage()));
        QVERIFY2(db.recoveryMessage().contains(QDir::toNativeSeparators(db.movedAsidePath())),
                 qPrintable(db.recoveryMessage()));
        QCOMPARE(readAll(db.movedAsidePath()), bytes);
        if (kind.endsWith(QStringLiteral("-wal")))
            QCOMPARE(readAll(db.movedAsidePath() + QStringLiteral("-wal")), wal);
        // The fresh database works.
        QVERIFY2(db.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                                    {revision(QStringLiteral("web-a"), 1)}, 10),
                 qPrintable(db.lastError()));
        QVERIFY(db.recordAction(kContext, action(ActionKind::Pause, kWeb, 20, QString(), true)));
        QCOMPARE(db.revisions(kContext, kWeb).size(), std::size_t(1));
    }
    HistoryDatabase again(path);
    QVERIFY(again.isOpen());
    QVERIFY2(again.recoveryMessage().isEmpty(), qPrintable(again.recoveryMessage()));
    QCOMPARE(again.revisions(kContext, kWeb).size(), std::size_t(1));
    QCOMPARE(again.actions(kContext, kWeb).size(), std::size_t(1));
    QCOMPARE(corruptCopies(dir.path()).size(), 1);
}

void TestHistoryDatabase::newerSchemaIsLeftUntouched()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    {
        HistoryDatabase db(path);
        QVERIFY(db.recordAction(kContext, action(ActionKind::Pause, kWeb, 1, QString(), true)));
    }
    QCOMPARE(rawQuery(path, QStringLiteral("UPDATE schema_version SET version = 99")), QStringList());
    HistoryDatabase db(path);
    QVERIFY(!db.isOpen());
    QVERIFY2(db.openError().contains(QStringLiteral("newer")), qPrintable(db.openError()));
    QVERIFY(db.recoveryMessage().isEmpty());
    QVERIFY(corruptCopies(dir.path()).isEmpty());
    QVERIFY(!db.recordAction(kContext, action(ActionKind::Pause, kWeb, 2, QString(), true)));
    QCOMPARE(db.lastError(), db.openError());
    QCOMPARE(rawQuery(path, QStringLiteral("SELECT version FROM schema_version")),
             QStringList{QStringLiteral("99")});
    QCOMPARE(rawQuery(path, QStringLiteral("SELECT count(*) FROM actions")),
             QStringList{QStringLiteral("1")});
}

void TestHistoryDatabase::unusableLocation()
{
    QTemporaryDir dir;
    // A regular file where the folder should be: no user (root included) can create it.
    QVERIFY(writeAll(dir.filePath(QStringLiteral("blocker")), "x"));
    const QString path = dir.filePath(QStringLiteral("blocker/history.sqlite"));
    HistoryDatabase db(path);
    QVERIFY(!db.isOpen());
    QVERIFY2(db.openError().contains(QDir::toNativeSeparators(dir.filePath(QStringLiteral("blocker")))),
             qPrintable(db.openError()));
    QVERIFY(!db.recordRevisions(kContext, kWeb, QStringLiteral("uid"), {revision(QStringLiteral("web-a"), 1)},
                                1));
    QVERIFY(!db.lastError().isEmpty());
    QVERIFY(!db.recordAction(kContext, action(ActionKind::Pause, kWeb, 1, QString(), true)));
    QVERIFY(!db.recordRollout(kContext, kWeb, QString(), RolloutRecord{}));
    QVERIFY(db.revisions(kContext, kWeb).empty());
    QVERIFY(db.actions(kContext).empty());
    QVERIFY(db.rollouts(kContext, kWeb).empty());
    models::RevisionMemory memory;
    QVERIFY(!db.restore(kContext, memory));
    QCOMPARE(db.schemaVersion(), 0);
    QCOMPARE(QFileInfo(dir.filePath(QStringLiteral("blocker"))).size(), 1);
}

void TestHistoryDatabase::readOnlyDirectory()
{
    if (::geteuid() == 0)
        QSKIP("root ignores directory permissions");
    QTemporaryDir dir;
    const QString sub = dir.filePath(QStringLiteral("ro"));
    QVERIFY(QDir().mkpath(sub));
    QVERIFY(QFile::setPermissions(sub, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    HistoryDatabase db(sub + QStringLiteral("/history.sqlite"));
    QVERIFY(!db.isOpen());
    QVERIFY(!db.openError().isEmpty());
    QVERIFY(!db.recordAction(kContext, action(ActionKind::Pause, kWeb, 1, QString(), true)));
    QVERIFY(
        QFile::setPermissions(sub, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
}

void TestHistoryDatabase::concurrentInstancesShareTheFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    HistoryDatabase first(path);
    QVERIFY(first.isOpen());
    QVERIFY(first.recordRevisions(kContext, kWeb, QStringLiteral("uid-1"),
                                  {revision(QStringLiteral("web-a"), 1)}, 100));
    {
        HistoryDatabase second(path); // opened while the first is open
        QVERIFY2(second.isOpen(), qPrintable(second.openError()));
        QVERIFY(second.recoveryMessage().isEmpty());
        QCOMPARE(second.revisions(kContext, kWeb).size(), std::size_t(1));
        QVERIFY(second.recordRevisions(
            kContext, kWeb, QStringLiteral("uid-1"),
            {revision(QStringLiteral("web-a"), 1), revision(QStringLiteral("web-b"), 2)}, 200));
        QCOMPARE(first.revisions(kContext, kWeb).size(), std::size_t(2));
    }
    QCOMPARE(rawQuery(path, QStringLiteral("PRAGMA journal_mode")), QStringList{QStringLiteral("wal")});

    // Two threads, each with its own instance, writing at the same time.
    constexpr int kEach = 40;
    std::atomic<int> failures{0};
    QThread *worker = QThread::create([&] {
        HistoryDatabase db(path);
        for (int i = 0; i < kEach; ++i) {
            if (!db.recordAction(kContext, action(ActionKind::Resume, QStringLiteral("default/other"), i,
                                                  QString(), true)))
                ++failures;
        }
    });
    worker->start();
    for (int i = 0; i < kEach; ++i)
        QVERIFY2(first.recordAction(kContext, action(ActionKind::Pause, kWeb, i, QString(), true)),
                 qPrintable(first.lastError()));
    QVERIFY(worker->wait(60000));
    delete worker;
    QCOMPARE(failures.load(), 0);
    QCOMPARE(first.actions(kContext).size(), std::size_t(2 * kEach));
    QCOMPARE(first.actions(kContext, QStringLiteral("default/other")).size(), std::size_t(kEach));
}

// Pod templates with their environment values live here: 0600 in folders of 0700, whatever the
// umask; an older world-readable file is narrowed on open.
void TestHistoryDatabase::fileAndFoldersAreOwnerOnly()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const mode_t oldMask = ::umask(022);
    auto modeOf = [](const QString &path) {
        struct stat st
        {};
        return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & 0777 : 07777u;
    };
    {
        HistoryDatabase db(dir.filePath(QStringLiteral("a/b/history.sqlite")));
        QVERIFY2(db.isOpen(), qPrintable(db.openError()));
        QVERIFY(db.recordRevisions(kContext, kWeb, QStringLiteral("uid"),
                                   {revision(QStringLiteral("web-a"), 1)}, 1));
        QCOMPARE(modeOf(dir.filePath(QStringLiteral("a"))), 0700u);
        QCOMPARE(modeOf(dir.filePath(QStringLiteral("a/b"))), 0700u);
        QCOMPARE(modeOf(dir.filePath(QStringLiteral("a/b/history.sqlite"))), 0600u);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("a/b/history.sqlite-wal"))));
        QCOMPARE(modeOf(dir.filePath(QStringLiteral("a/b/history.sqlite-wal"))), 0600u);
    }
    const QString old = dir.filePath(QStringLiteral("a/b/history.sqlite"));
    QVERIFY(::chmod(QFile::encodeName(old).constData(), 0644) == 0);
    {
        HistoryDatabase db(old);
        QVERIFY(db.isOpen());
        QCOMPARE(modeOf(old), 0600u);
        QCOMPARE(db.revisions(kContext, kWeb).size(), std::size_t(1));
    }
    ::umask(oldMask);
}

QTEST_GUILESS_MAIN(TestHistoryDatabase)
#include "tst_historydatabase.moc"
