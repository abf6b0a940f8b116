// The drill-down dialog of a node tile on the embedded backend: the crash-looping pod shows its
// termination message (Last State) and its logs, the node its system info and pods, the
// follow toggle streams the lines of each step, and Escape closes the dialog.

#include "ui/objectdetaildialog.h"

#include "models/embedded/embeddedbackend.h"
#include "models/kube/simulatedcrash.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QtTest>

using namespace Qt::StringLiterals;

class TstObjectDetailDialog : public QObject
{
    Q_OBJECT

private slots:
    void showsTerminationMessageAndLogs();
};

void TstObjectDetailDialog::showsTerminationMessageAndLogs()
{
    models::EmbeddedBackendOptions o;
    o.scenarioPath = QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/drill/drill.yaml");
    o.speed = 0;
    models::EmbeddedBackend backend(o);
    QTRY_VERIFY_WITH_TIMEOUT(backend.latest()->daemonSet(u"default/agent"_s), 30000);
    const auto *ds = backend.latest()->daemonSet(u"default/agent"_s);
    QVERIFY(!ds->pods->empty());
    const models::PodInfo pod = ds->pods->front();

    gui::ObjectDetailDialog dialog(&backend, u"default/agent"_s, pod.node);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(dialog.podName(), pod.name);
    const QString crash =
        QString::fromStdString(kube::simulatedCrashMessage("agent", "example.com/agent:broken"));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.podText().contains(crash), 10000);
    QVERIFY(dialog.podText().contains(u"CrashLoopBackOff"_s));
    QVERIFY(dialog.podText().contains(u"Last State"_s));
    QVERIFY(dialog.podText().contains(u"BackOff"_s)); // the kubelet's event
    QTRY_VERIFY_WITH_TIMEOUT(dialog.nodeText().contains(u"Kubelet Version"_s), 10000);
    QVERIFY(dialog.nodeText().contains(pod.name)); // the pods on the node
    QTRY_VERIFY_WITH_TIMEOUT(dialog.logText().endsWith(crash), 10000);
    auto *picker = dialog.findChild<QComboBox *>(u"containerPicker"_s);
    QVERIFY(picker);
    QTRY_COMPARE(picker->count(), 1);
    QCOMPARE(picker->currentText(), u"agent"_s);

    // Escape closes the dialog.
    dialog.activateWindow();
    QTest::keyClick(&dialog, Qt::Key_Escape);
    QTRY_VERIFY(!dialog.isVisible());
}

QTEST_MAIN(TstObjectDetailDialog)
#include "tst_objectdetaildialog.moc"
