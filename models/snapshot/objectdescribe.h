#pragma once
// ObjectDescribe — what `kubectl describe pod` / `describe node` shows, as plain values the
// drill-down panel renders: sections of label/value fields and tables. Built from the object's
// JSON as the API server returned it (both backends give the same), through the kube types where
// they exist (kube::Pod, kube::Node, tolerations, taints); only the parts those records do not
// keep (container statuses with their states and termination messages, pod conditions) are read
// from the JSON directly. Times show as kubectl's ages against `now`.

#include "models/snapshot/snapshot.h"

#include "models/kube/gojson.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace models {

struct DescribeField
{
    QString label;
    QString value;
};

struct DescribeSection
{
    QString title;
    QList<DescribeField> fields;
    QStringList columns;     // a table when not empty
    QList<QStringList> rows; // one cell per column
};

// A pod the app knows runs on a node (the node's "Non-terminated Pods" table).
struct NodePodRow
{
    QString namespace_;
    QString name;
    bool ready = false;
    QString hash;  // controller-revision-hash
    QString owner; // "DaemonSet/web"
};

class ObjectDescribe
{
    Q_DECLARE_TR_FUNCTIONS(models::ObjectDescribe)

public:
    // Overview (name, namespace, node, status, IP, controlled by, labels), one section per
    // container (image, state, last state with its message, ready, restarts), conditions,
    // tolerations and events.
    static QList<DescribeSection> pod(const kube::Json &pod, const std::vector<EventInfo> &events,
                                      qint64 now);
    // Overview (labels, taints, unschedulable), conditions, capacity/allocatable, system info,
    // pods on the node, events.
    static QList<DescribeSection> node(const kube::Json &node, const std::vector<EventInfo> &events,
                                       const QList<NodePodRow> &pods, qint64 now);
    // The containers of a pod's JSON, in spec order (the log view's picker).
    static QStringList containerNames(const kube::Json &pod);
    // kubectl describe's layout as text (fields "Label:  value", tables with aligned columns).
    static QString toText(const QList<DescribeSection> &sections);

private:
    static DescribeSection eventsSection(const std::vector<EventInfo> &events, qint64 now);
};

} // namespace models
