// The console's building blocks on their own: node tiles built from a snapshot, the atomic
// export job, the paused banner and the fault dialog.
#include "models/sim/faultkind.h"
#include "ui/confirmation.h"
#include "ui/exportjob.h"
#include "ui/faultdialog.h"
#include "ui/nodetiles.h"
#include "ui/pausedbanner.h"
#include "ui/templatedialog.h"

#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using models::NodeTile;
using State = models::NodeTile::PodState;

Q_DECLARE_METATYPE(models::NodeTile::PodState)

namespace {

models::NodeInfo node(const QString &name, const QString &zone, bool ready = true)
{
    models::NodeInfo n;
    n.name = name;
    n.zone = zone;
    n.ready = ready;
    if (!zone.isEmpty())
        n.labels[QStringLiteral("topology.kubernetes.io/zone")] = zone;
    return n;
}

models::PodInfo pod(const QString &name, const QString &nodeName, const QString &hash, bool ready,
                    bool deleting = false, qint64 created = 1000)
{
    models::PodInfo p;
    p.name = name;
    p.node = nodeName;
    p.hash = hash;
    p.ready = ready;
    p.deleting = deleting;
    p.created = created;
    return p;
}

// One DaemonSet "default/agent" with revisions 1 (hash aaa) and 2 (hash bbb), 3 nodes.
struct Fixture
{
    models::ClusterSnapshot snapshot;
    models::DaemonSetInfo ds;

    Fixture(std::vector<models::PodInfo> pods, int desired, kube::Json podTemplate = kube::Json::object())
    {
        snapshot.nodes = std::make_shared<const std::vector<models::NodeInfo>>(
            std::vector<models::NodeInfo>{node(QStringLiteral("node-0"), QStringLiteral("zone-a")),
                                          node(QStringLiteral("node-1"), QStringLiteral("zone-a")),
                                          node(QStringLiteral("node-2"), QStringLiteral("zone-b"), false)});
        snapshot.events = std::make_shared<const std::vector<models::EventInfo>>();
        ds.key = QStringLiteral("default/agent");
        ds.counts.desired = desired;
        ds.podTemplate = std::make_shared<const kube::Json>(std::move(podTemplate));
        models::RevisionInfo r1;
        r1.name = QStringLiteral("agent-aaa");
        r1.hash = QStringLiteral("aaa");
        r1.number = 1;
        models::RevisionInfo r2 = r1;
        r2.name = QStringLiteral("agent-bbb");
        r2.hash = QStringLiteral("bbb");
        r2.number = 2;
        r2.current = true;
        ds.revisions = std::make_shared<const std::vector<models::RevisionInfo>>(std::vector{r1, r2});
        ds.pods = std::make_shared<const std::vector<models::PodInfo>>(std::move(pods));
    }
};

} // namespace

class TestUiWidgets : public QObject
{
    Q_OBJECT

private slots:
    // A confirmation's buttons are its verb and Cancel; Return and Esc choose Cancel.
    void confirmationsDefaultToCancel_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("key");
        QTest::newRow("destroy, Return") << int(gui::ConfirmKind::Destroy) << int(Qt::Key_Return);
        QTest::newRow("destroy, Esc") << int(gui::ConfirmKind::Destroy) << int(Qt::Key_Escape);
        QTest::newRow("change, Return") << int(gui::ConfirmKind::Change) << int(Qt::Key_Return);
    }
    void confirmationsDefaultToCancel()
    {
        QFETCH(int, kind);
        QFETCH(int, key);
        std::unique_ptr<QMessageBox> box(gui::makeConfirmation(
            nullptr, QStringLiteral("Abort web"), QStringLiteral("This cannot be undone."),
            QStringLiteral("&Abort Rollout"), gui::ConfirmKind(kind)));
        auto *verb = box->findChild<QPushButton *>(QStringLiteral("confirmActionButton"));
        QVERIFY(verb);
        QCOMPARE(verb->text(), QStringLiteral("&Abort Rollout"));
        QCOMPARE(box->buttons().size(), 2);
        QCOMPARE(box->buttonRole(verb), gui::ConfirmKind(kind) == gui::ConfirmKind::Destroy
                                            ? QMessageBox::DestructiveRole
                                            : QMessageBox::AcceptRole);
        QCOMPARE(box->icon(), gui::ConfirmKind(kind) == gui::ConfirmKind::Destroy ? QMessageBox::Warning
                                                                                  : QMessageBox::Question);
        QAbstractButton *cancel = box->button(QMessageBox::Cancel);
        QVERIFY(cancel);
        QCOMPARE(box->defaultButton(), cancel);
        QCOMPARE(box->escapeButton(), cancel);
        box->show();
        QVERIFY(QTest::qWaitForWindowExposed(box.get()));
        QTest::keyClick(box.get(), Qt::Key(key));
        QTRY_VERIFY(!box->isVisible());
        QCOMPARE(box->clickedButton(), cancel);
    }

    void nodeTilesDescribeEachNode_data()
    {
        QTest::addColumn<QVector<models::PodInfo>>("pods");
        QTest::addColumn<int>("desired");
        QTest::addColumn<QString>("nodeName");
        QTest::addColumn<State>("state");
        QTest::addColumn<qint64>("revision");

        const QString n0 = QStringLiteral("node-0");
        const QString aaa = QStringLiteral("aaa");
        const QString bbb = QStringLiteral("bbb");
        QTest::newRow("a ready pod gives a ready tile of its revision")
            << QVector{pod(QStringLiteral("p0"), n0, bbb, true)} << 1 << n0 << State::Ready << qint64(2);
        QTest::newRow("a pod that is not ready gives a not-ready tile")
            << QVector{pod(QStringLiteral("p0"), n0, aaa, false)} << 1 << n0 << State::NotReady << qint64(1);
        QTest::newRow("a deleted pod alone is terminating")
            << QVector{pod(QStringLiteral("p0"), n0, aaa, true, true)} << 1 << n0 << State::Terminating
            << qint64(1);
        QTest::newRow("old and new pod both live is a surge, shown with the new revision")
            << QVector{pod(QStringLiteral("old"), n0, aaa, true, false, 1000),
                       pod(QStringLiteral("new"), n0, bbb, false, false, 2000)}
            << 1 << n0 << State::Surging << qint64(2);
        QTest::newRow("a terminating old pod beside its replacement shows the replacement")
            << QVector{pod(QStringLiteral("old"), n0, aaa, true, true, 1000),
                       pod(QStringLiteral("new"), n0, bbb, true, false, 2000)}
            << 1 << n0 << State::Ready << qint64(2);
        QTest::newRow("a node without a pod is missing while the daemonset is short of pods")
            << QVector{pod(QStringLiteral("p0"), n0, bbb, true)} << 3 << QStringLiteral("node-1")
            << State::Missing << qint64(-1);
        QTest::newRow("a node without a pod is not scheduled when the daemonset has all it wants")
            << QVector{pod(QStringLiteral("p0"), n0, bbb, true)} << 1 << QStringLiteral("node-1")
            << State::NotScheduled << qint64(-1);
        const QVector<models::PodInfo> spread{pod(QStringLiteral("a"), QStringLiteral("node-2"), bbb, true),
                                              pod(QStringLiteral("b"), QStringLiteral("node-9"), bbb, true),
                                              pod(QStringLiteral("c"), n0, aaa, false)};
        QTest::newRow("pods are matched to their nodes whatever their names (node-2)")
            << spread << 3 << QStringLiteral("node-2") << State::Ready << qint64(2);
        QTest::newRow("pods are matched to their nodes whatever their names (node-0)")
            << spread << 3 << n0 << State::NotReady << qint64(1);
        QTest::newRow("a pod on a node that is gone leaves the others missing")
            << spread << 3 << QStringLiteral("node-1") << State::Missing << qint64(-1);
        QTest::newRow("a pod of an unknown revision has no number")
            << QVector{pod(QStringLiteral("p0"), n0, QStringLiteral("zzz"), true)} << 1 << n0 << State::Ready
            << qint64(-1);
    }

    void nodeTilesDescribeEachNode()
    {
        QFETCH(QVector<models::PodInfo>, pods);
        QFETCH(int, desired);
        QFETCH(QString, nodeName);
        QFETCH(State, state);
        QFETCH(qint64, revision);
        Fixture f(std::vector<models::PodInfo>(pods.begin(), pods.end()), desired);
        const auto tiles = gui::buildNodeTiles(f.snapshot, f.ds);
        QCOMPARE(tiles.size(), size_t(3));
        const auto it =
            std::find_if(tiles.begin(), tiles.end(), [&](const NodeTile &t) { return t.node == nodeName; });
        QVERIFY(it != tiles.end());
        QCOMPARE(it->podState, state);
        QCOMPARE(it->revisionNumber, revision);
        QCOMPARE(it->zone,
                 nodeName == QStringLiteral("node-2") ? QStringLiteral("zone-b") : QStringLiteral("zone-a"));
    }

    void nodeTilesRespectTheNodeSelector()
    {
        kube::Json tmpl = {{"spec", {{"nodeSelector", {{"topology.kubernetes.io/zone", "zone-b"}}}}}};
        Fixture f({}, 1, tmpl);
        const auto tiles = gui::buildNodeTiles(f.snapshot, f.ds);
        QCOMPARE(tiles[0].podState, State::NotScheduled); // node-0, zone-a
        QCOMPARE(tiles[2].podState, State::Missing);      // node-2, zone-b
        QVERIFY(!tiles[2].nodeReady);
        QVERIFY(tiles[0].labels.contains(QStringLiteral("topology.kubernetes.io/zone=zone-a")));
    }

    void exportJobWritesTheWholeFileAtomically_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("error");
        QTest::addColumn<bool>("ok");
        QTest::newRow("rendered content is written") << QByteArray("# report\n") << QString() << true;
        QTest::newRow("a render error leaves the old file alone")
            << QByteArray() << QStringLiteral("no data") << false;
    }

    void exportJobWritesTheWholeFileAtomically()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, error);
        QFETCH(bool, ok);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.md"));
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("previous\n");
        }
        QWidget parent;
        auto *job =
            gui::ExportJob::start(&parent, QStringLiteral("Export"), path, [content, error](QString *err) {
                if (!error.isEmpty())
                    *err = error;
                return content;
            });
        QSignalSpy spy(job, &gui::ExportJob::finished);
        QVERIFY(spy.wait(10000));
        QCOMPARE(spy.first().at(0).toBool(), ok);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), ok ? content : QByteArray("previous\n"));
        if (!ok)
            QCOMPARE(spy.first().at(1).toString(), error);
        // No temporary files left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("out.md")});
    }

    void pausedBannerExplainsTheMechanism()
    {
        gui::PausedBanner banner;
        QVERIFY(banner.text().contains(QStringLiteral("OnDelete")));
        QVERIFY(banner.text().contains(QStringLiteral("annotation")));
        QSignalSpy spy(&banner, &gui::PausedBanner::resumeRequested);
        banner.show();
        QTest::mouseClick(banner.resumeButton(), Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!banner.resumeButton()->accessibleName().isEmpty());
    }

    void faultDialogPreselectsTheCurrentNode()
    {
        gui::FaultDialog dialog({QStringLiteral("node-0"), QStringLiteral("node-1")},
                                QStringLiteral("node-1"));
        QCOMPARE(dialog.node(), QStringLiteral("node-1"));
        QCOMPARE(dialog.faultKind(), QStringLiteral("NotReady"));
        // Every fault the engine knows, in its order (a new one is offered at once).
        QStringList offered, known;
        for (const auto &kind : gui::FaultDialog::faultKinds())
            offered << kind.first;
        for (sim::FaultKind kind : sim::allFaultKinds())
            known << QString::fromLatin1(sim::faultKindName(kind));
        QCOMPARE(offered, known);
    }

    void templateDialogShowsTheYaml()
    {
        gui::TemplateDialog dialog(QStringLiteral("t"), QStringLiteral("spec:\n  containers: []\n"));
        QCOMPARE(dialog.text(), QStringLiteral("spec:\n  containers: []\n"));
    }
};

QTEST_MAIN(TestUiWidgets)
#include "tst_uiwidgets.moc"
