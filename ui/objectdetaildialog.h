#pragma once
// ObjectDetailDialog — the drill-down of a node-map tile: the DaemonSet's pod on that node
// (kubectl describe pod), the node (kubectl describe node) and the pod's container logs, in tabs.
// A dialog of its own, not modal, rather than a panel of the page: it stays open beside the map
// while the rollout goes on, several can be compared side by side, and the page's layout (shared
// by every tab) is not squeezed. Escape closes it.
//
// Data comes from the backend's drill-down calls (requestDetail, startLogs), so it reads the same
// on the embedded engine and on a live cluster. Logs: container picker, Previous, Follow, tail
// lines (default 500); at most kMaxLogLines lines are kept (the oldest dropped); the view
// follows new lines while it is scrolled to the bottom. Copy and Save (QSaveFile, starting in
// the export folder of the settings).

#include "models/backend/clusterbackend.h"
#include "models/snapshot/objectdescribe.h"

#include <QDialog>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTextBrowser;

namespace gui {

class ObjectDetailDialog : public QDialog
{
    Q_OBJECT

public:
    static constexpr int kMaxLogLines = 10000;
    static constexpr int kDefaultTailLines = 500;

    // `dsKey`: the DaemonSet whose pod on `node` is shown (the page's current one; empty: none).
    ObjectDetailDialog(models::ClusterBackend *backend, const QString &dsKey, const QString &node,
                       QWidget *parent = nullptr);
    ~ObjectDetailDialog() override; // stops a log that is still following

    QString podNamespace() const { return m_podNamespace; }
    QString podName() const { return m_pod; }
    QString nodeName() const { return m_node; }
    // What the tabs show now (tests, Copy).
    QString podText() const;
    QString nodeText() const;
    QString logText() const;
    QTabWidget *tabs() const { return m_tabs; }

public Q_SLOTS:
    void refresh();     // asks again for the pod, the node and the logs
    void restartLogs(); // with the log controls' current settings
    void saveLogs();

private:
    void onDetail(const models::ObjectDetail &detail);
    void onLogData(quint64 id, const QString &text);
    void onLogFinished(quint64 id, bool ok, const QString &message);
    void stopLogs();
    void showSections(QTextBrowser *view, const QList<models::DescribeSection> &sections);
    QList<models::NodePodRow> podsOnNode() const;

    QPointer<models::ClusterBackend> m_backend;
    QString m_dsKey;
    QString m_node;
    QString m_podNamespace;
    QString m_pod;
    quint64 m_podRequest = 0;
    quint64 m_nodeRequest = 0;
    quint64 m_logRequest = 0;
    bool m_logRunning = false;
    QList<models::DescribeSection> m_podSections;
    QList<models::DescribeSection> m_nodeSections;

    QLabel *m_header = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTextBrowser *m_podView = nullptr;
    QTextBrowser *m_nodeView = nullptr;
    QComboBox *m_container = nullptr;
    QCheckBox *m_previous = nullptr;
    QCheckBox *m_follow = nullptr;
    QSpinBox *m_tail = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QLabel *m_logStatus = nullptr;
};

} // namespace gui
