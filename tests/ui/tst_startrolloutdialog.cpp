// The start-rollout dialog and its entry points, offscreen, over a backend that publishes a
// hand-built snapshot: the preview follows the edits (changed image in the diff, node count),
// Cancel is the default button, an invalid strategy disables the confirm button and says why,
// the confirm button sends exactly what was edited and shows the outcome, the managed-by warning
// appears in this dialog and in the rollback dialog, and the page's buttons open the dialog.

#include "models/planners/managedby.h"
#include "ui/confirmation.h"
#include "ui/daemonsetpage.h"
#include "ui/diffview.h"
#include "ui/mainwindow.h"
#include "ui/managedbylabel.h"
#include "ui/rollbackdialog.h"
#include "ui/startrolloutactions.h"
#include "ui/startrolloutdialog.h"

#include "tests/models/snapshotfactory.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace models;

namespace {

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

// Publishes one snapshot and records the commands it is given; answers each with a result.
class RecordingBackend : public ClusterBackend
{
public:
    explicit RecordingBackend(std::shared_ptr<const ClusterSnapshot> snapshot)
    {
        publish(std::move(snapshot));
    }
    BackendKind kind() const override { return BackendKind::Embedded; }
    bool isSimulation() const override { return true; }
    void rollback(const QString &, qint64) override {}
    void pause(const QString &) override {}
    void resume(const QString &) override {}
    void loadScenario(const QString &) override {}
    void setSpeed(double) override {}
    void step(qint64) override {}
    void setSeed(quint64) override {}
    void injectFault(const QString &, const QString &) override {}
    void setImage(const QString &dsKey, const QMap<QString, QString> &images) override
    {
        sentImages = images;
        answer(ActionKind::SetImage, dsKey, S("daemonset.apps/web image updated"));
    }
    void restartRollout(const QString &dsKey) override
    {
        answer(ActionKind::RestartRollout, dsKey, S("daemonset.apps/web restarted"));
    }
    void setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                           const QString &maxSurge) override
    {
        sentStrategy = {maxUnavailable, maxSurge};
        answer(ActionKind::SetStrategy, dsKey, S("daemonset.apps/web patched"));
    }

    QMap<QString, QString> sentImages;
    QStringList sentStrategy;

private:
    void answer(ActionKind kind, const QString &target, const QString &message)
    {
        ActionResult r;
        r.kind = kind;
        r.target = target;
        r.ok = true;
        r.message = message;
        QMetaObject::invokeMethod(
            this, [this, r] { emit actionFinished(r); }, Qt::QueuedConnection);
    }
};

std::shared_ptr<ClusterSnapshot> cluster(bool helm = false)
{
    auto ds =
        testing::daemonSet(S("default"), S("web"),
                           {{S("web-a"), 1, "nginx:1.26"}, {S("web-b"), 2, "nginx:1.27"}}, S("web-b"), 4);
    if (helm) {
        kube::ObjectMeta meta;
        meta.name = "web";
        meta.labels["app.kubernetes.io/managed-by"] = "Helm";
        meta.annotations["meta.helm.sh/release-name"] = "web";
        meta.annotations["meta.helm.sh/release-namespace"] = "default";
        ds.managedBy = managedByOf(meta, nullptr);
    }
    return testing::snapshot({ds});
}

} // namespace

class TestStartRolloutDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void setImagePreviewFollowsTheEdit();
    void cancelIsTheDefault_data();
    void cancelIsTheDefault();
    void invalidStrategyDisablesTheConfirmButton_data();
    void invalidStrategyDisablesTheConfirmButton();
    void confirmSendsTheEditAndShowsTheOutcome();
    void managedWarningInThisDialogAndTheRollbackDialog();
    void pageButtonsAskForTheDialog();
    void productionContextAsksForTheName();
};

void TestStartRolloutDialog::setImagePreviewFollowsTheEdit()
{
    RecordingBackend backend(cluster());
    gui::StartRolloutDialog dialog(&backend, S("default/web"), StartRolloutMode::SetImage);
    dialog.show();
    QLineEdit *edit = dialog.imageEdit(S("web"));
    QVERIFY(edit);
    QCOMPARE(edit->text(), S("nginx:1.27"));
    QVERIFY(!dialog.confirmButton()->isEnabled()); // nothing edited yet
    QCOMPARE(dialog.diffView()->changeCount(), 0);
    // Unchanged, the panes show the template (the same on both sides), not two empty objects.
    QVERIFY(
        QString::fromStdString(dialog.diffView()->templateDiff().newYaml).contains(S("image: nginx:1.27")));

    edit->setText(S("nginx:1.28"));
    QVERIFY(dialog.preview().ok && dialog.preview().changed);
    QVERIFY(dialog.confirmButton()->isEnabled());
    QVERIFY2(dialog.impactLabel()->text().startsWith(S("4 node")), qPrintable(dialog.impactLabel()->text()));
    QVERIFY(dialog.estimateLabel()->text().startsWith(S("Estimated duration: <b>")));
    QVERIFY(dialog.diffView()->changeCount() > 0);
    QVERIFY(
        QString::fromStdString(dialog.diffView()->templateDiff().newYaml).contains(S("image: nginx:1.28")));

    // Back to the image of revision 1: the preview says it is that revision again.
    edit->setText(S("nginx:1.26"));
    QCOMPARE(dialog.preview().reusedRevision, qint64(1));
    QVERIFY(dialog.headlineLabel()->text().contains(S("back to revision 1")));

    edit->setText(QString());
    QVERIFY(!dialog.confirmButton()->isEnabled());
    QVERIFY(dialog.errorLabel()->isVisibleTo(&dialog));
}

void TestStartRolloutDialog::cancelIsTheDefault_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("verb");
    QTest::newRow("set image") << int(StartRolloutMode::SetImage) << S("&Set Image");
    QTest::newRow("restart") << int(StartRolloutMode::Restart) << S("&Restart");
    QTest::newRow("strategy") << int(StartRolloutMode::Strategy) << S("&Apply Strategy");
}

void TestStartRolloutDialog::cancelIsTheDefault()
{
    QFETCH(int, mode);
    QFETCH(QString, verb);
    RecordingBackend backend(cluster());
    gui::StartRolloutDialog dialog(&backend, S("default/web"), StartRolloutMode(mode));
    dialog.show();
    QCOMPARE(dialog.confirmButton()->text(), verb);
    QVERIFY(dialog.cancelButton()->isDefault());
    QVERIFY(!dialog.confirmButton()->isDefault());
    QVERIFY(!dialog.confirmButton()->autoDefault());
    // Return in a field does not send anything.
    if (QLineEdit *e = dialog.maxUnavailableEdit()) {
        e->setText(S("2"));
        QTest::keyClick(e, Qt::Key_Return);
    }
    QVERIFY(backend.sentStrategy.isEmpty());
}

void TestStartRolloutDialog::invalidStrategyDisablesTheConfirmButton_data()
{
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<QString>("maxSurge");
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<QString>("error");
    QTest::newRow("two at a time") << S("2") << S("0") << true << QString();
    QTest::newRow("the values in force") << S("1") << S("0") << false << QString();
    QTest::newRow("both zero") << S("0") << S("0") << false << S("cannot be 0 when maxSurge is 0");
    QTest::newRow("110 percent") << S("110%") << S("0") << false << S("must not be greater than 100%");
    QTest::newRow("both set") << S("1") << S("1") << false
                              << S("may not be set when maxUnavailable is non-zero");
    QTest::newRow("not a number") << S("x") << S("0") << false << S("a valid percent string");
}

void TestStartRolloutDialog::invalidStrategyDisablesTheConfirmButton()
{
    QFETCH(QString, maxUnavailable);
    QFETCH(QString, maxSurge);
    QFETCH(bool, enabled);
    QFETCH(QString, error);
    RecordingBackend backend(cluster());
    gui::StartRolloutDialog dialog(&backend, S("default/web"), StartRolloutMode::Strategy);
    dialog.show();
    QCOMPARE(dialog.maxUnavailableEdit()->text(), S("1"));
    QCOMPARE(dialog.maxSurgeEdit()->text(), S("0"));
    dialog.maxUnavailableEdit()->setText(maxUnavailable);
    dialog.maxSurgeEdit()->setText(maxSurge);
    QCOMPARE(dialog.confirmButton()->isEnabled(), enabled);
    QCOMPARE(dialog.errorLabel()->isVisibleTo(&dialog), !error.isEmpty());
    if (!error.isEmpty())
        QVERIFY2(dialog.errorLabel()->text().contains(error), qPrintable(dialog.errorLabel()->text()));
    if (enabled) {
        QVERIFY(dialog.headlineLabel()->text().contains(S("starts no rollout")));
        QVERIFY(dialog.headlineLabel()->text().contains(S("up to 2 nodes at a time of 4")));
    }
}

void TestStartRolloutDialog::confirmSendsTheEditAndShowsTheOutcome()
{
    RecordingBackend backend(cluster());
    gui::StartRolloutDialog dialog(&backend, S("default/web"), StartRolloutMode::SetImage);
    dialog.show();
    QSignalSpy finished(&dialog, &gui::StartRolloutDialog::actionFinished);
    dialog.imageEdit(S("web"))->setText(S(" nginx:1.28 "));
    QTest::mouseClick(dialog.confirmButton(), Qt::LeftButton);
    QVERIFY(dialog.isWaiting());
    QVERIFY(!dialog.confirmButton()->isEnabled());
    QVERIFY(finished.wait(5000));
    QCOMPARE(backend.sentImages.size(), 1);
    QCOMPARE(backend.sentImages.value(S("web")), S("nginx:1.28"));
    QCOMPARE(dialog.outcome(), S("daemonset.apps/web image updated"));
    QVERIFY(dialog.outcomeLabel()->text().contains(S("image updated")));
    QCOMPARE(dialog.cancelButton()->text(), S("&Close"));
    QVERIFY(!dialog.confirmButton()->isEnabled());
}

void TestStartRolloutDialog::managedWarningInThisDialogAndTheRollbackDialog()
{
    RecordingBackend plain(cluster(false));
    gui::StartRolloutDialog quiet(&plain, S("default/web"), StartRolloutMode::Restart);
    quiet.show();
    QVERIFY(!quiet.managedLabel()->isVisibleTo(&quiet));

    RecordingBackend backend(cluster(true));
    gui::StartRolloutDialog dialog(&backend, S("default/web"), StartRolloutMode::Restart);
    dialog.show();
    QVERIFY(dialog.managedLabel()->isVisibleTo(&dialog));
    QCOMPARE(
        dialog.managedLabel()->warnings(),
        QStringList{S("Managed by Helm (release default/web): the next helm upgrade reverts this restart.")});

    gui::RollbackDialog rollback(&backend, S("default/web"), 0);
    rollback.show();
    QVERIFY(rollback.managedLabel()->isVisibleTo(&rollback));
    QCOMPARE(rollback.managedLabel()->warnings(),
             QStringList{
                 S("Managed by Helm (release default/web): the next helm upgrade reverts this rollback.")});
}

void TestStartRolloutDialog::pageButtonsAskForTheDialog()
{
    gui::DaemonSetPage page;
    page.setSnapshot(cluster(true));
    page.setDaemonSet(S("default/web"));
    page.show();
    QVERIFY(page.managedByLabel()->isVisibleTo(&page));
    QCOMPARE(page.managedByLabel()->text(), S("managed by Helm"));
    QCOMPARE(page.rolloutButtons().size(), 3);
    QSignalSpy asked(&page, &gui::DaemonSetPage::startRolloutRequested);
    for (QToolButton *b : page.rolloutButtons())
        QTest::mouseClick(b, Qt::LeftButton);
    QCOMPARE(asked.size(), 3);
    QCOMPARE(asked.at(0).at(0).value<StartRolloutMode>(), StartRolloutMode::SetImage);
    QCOMPARE(asked.at(1).at(0).value<StartRolloutMode>(), StartRolloutMode::Restart);
    QCOMPARE(asked.at(2).at(0).value<StartRolloutMode>(), StartRolloutMode::Strategy);
}

QTEST_MAIN(TestStartRolloutDialog)
// On a production context the verb stays disabled until the DaemonSet's name is typed, even
// when the preview would enable it.
void TestStartRolloutDialog::productionContextAsksForTheName()
{
    gui::setProductionContext(S("kind-prod"));
    RecordingBackend backend(cluster());
    gui::StartRolloutDialog dialog(&backend, S("default/web"), StartRolloutMode::SetImage);
    dialog.show();
    auto *name = dialog.findChild<QLineEdit *>(S("confirmNameEdit"));
    QVERIFY(name);
    dialog.imageEdit(S("web"))->setText(S("nginx:1.28"));
    QVERIFY(dialog.preview().ok && dialog.preview().changed);
    QVERIFY(!dialog.confirmButton()->isEnabled());
    name->setText(S("we"));
    QVERIFY(!dialog.confirmButton()->isEnabled());
    name->setText(S("web"));
    QVERIFY(dialog.confirmButton()->isEnabled());
    // A later edit that empties the image disables it again, and the name does not re-enable it.
    dialog.imageEdit(S("web"))->setText(QString());
    QVERIFY(!dialog.confirmButton()->isEnabled());
    dialog.imageEdit(S("web"))->setText(S("nginx:1.29"));
    QVERIFY(dialog.confirmButton()->isEnabled());
    gui::setProductionContext(QString());
    gui::StartRolloutDialog plain(&backend, S("default/web"), StartRolloutMode::SetImage);
    QVERIFY(!plain.findChild<QLineEdit *>(S("confirmNameEdit")));
}

#include "tst_startrolloutdialog.moc"
