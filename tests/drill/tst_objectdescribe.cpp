// ObjectDescribe: the sections kubectl describe shows, built from pod and node JSON — container
// states with their termination messages, CrashLoopBackOff with the last state, conditions,
// tolerations, events; a node's taints, conditions, capacity, system info and pods.

#include "models/objectdescribe.h"

#include <QtTest>

using models::DescribeSection;
using models::ObjectDescribe;

namespace {

constexpr qint64 kNow = 1767229200000; // 2026-01-01T01:00:00Z

kube::Json parse(const char *text)
{
    return kube::Json::parse(text);
}

const DescribeSection *section(const QList<DescribeSection> &sections, const QString &title)
{
    for (const auto &s : sections)
        if (s.title == title)
            return &s;
    return nullptr;
}

// The fields of a section as "Label=value" lines (labels trimmed), in order.
QStringList fields(const QList<DescribeSection> &sections, const QString &title)
{
    QStringList out;
    if (const auto *s = section(sections, title))
        for (const auto &f : s->fields)
            out << f.label.trimmed() + QLatin1Char('=') + f.value;
    return out;
}

QList<QStringList> rows(const QList<DescribeSection> &sections, const QString &title)
{
    const auto *s = section(sections, title);
    return s ? s->rows : QList<QStringList>();
}

} // namespace

class TstObjectDescribe : public QObject
{
    Q_OBJECT

private slots:
    void containersShowStateAndLastState_data();
    void containersShowStateAndLastState();
    void podOverviewConditionsTolerationsAndEvents();
    void nodeShowsTaintsConditionsCapacityInfoAndPods();
    void textLayoutAlignsLabels();
};

void TstObjectDescribe::containersShowStateAndLastState_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("a terminated container shows reason, message and exit code")
        << R"({"name":"c","ready":false,"restartCount":0,"state":{"terminated":{"reason":"Error","exitCode":2,"message":"boom: disk full"}}})"
        << QStringList{"Image=busybox:1.36", "State=Terminated",  "Reason=Error",   "Message=boom: disk full",
                       "Exit Code=2",        "Ready=False",       "Restart Count=0"};
    QTest::newRow("CrashLoopBackOff shows the last state's termination message")
        << R"({"name":"c","ready":false,"restartCount":5,"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 40s"}},"lastState":{"terminated":{"reason":"Error","exitCode":1,"message":"panic: no config"}}})"
        << QStringList{"Image=busybox:1.36",  "State=Waiting",    "Reason=CrashLoopBackOff", "Message=back-off 40s",
                       "Last State=Terminated", "Reason=Error",   "Message=panic: no config", "Exit Code=1",
                       "Ready=False",           "Restart Count=5"};
    QTest::newRow("a running container shows since when")
        << R"({"name":"c","ready":true,"restartCount":0,"state":{"running":{"startedAt":"2026-01-01T00:55:00Z"}}})"
        << QStringList{"Image=busybox:1.36", "State=Running", "Started=2026-01-01T00:55:00Z (5m ago)", "Ready=True",
                       "Restart Count=0"};
}

void TstObjectDescribe::containersShowStateAndLastState()
{
    QFETCH(QString, status);
    QFETCH(QStringList, expected);
    kube::Json pod = parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},
        "spec":{"containers":[{"name":"c","image":"busybox:1.36"}]},"status":{"phase":"Running"}})");
    pod["status"]["containerStatuses"] = kube::Json::array({kube::Json::parse(status.toStdString())});
    const auto sections = ObjectDescribe::pod(pod, {}, kNow);
    QCOMPARE(fields(sections, QStringLiteral("Container c")), expected);
}

void TstObjectDescribe::podOverviewConditionsTolerationsAndEvents()
{
    const kube::Json pod = parse(R"({"apiVersion":"v1","kind":"Pod",
        "metadata":{"name":"agent-x1","namespace":"kube-system","labels":{"app":"agent","controller-revision-hash":"7c9"},
          "ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"agent","uid":"u1","controller":true}]},
        "spec":{"nodeName":"node-1","containers":[{"name":"a","image":"x:1"},{"name":"b","image":"y:2"}],
          "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},
        "status":{"phase":"Running","hostIP":"10.0.0.1","podIP":"10.244.0.7","startTime":"2026-01-01T00:00:00Z",
          "conditions":[{"type":"Ready","status":"False","lastTransitionTime":"2026-01-01T00:50:00Z","reason":"ContainersNotReady"}]}})");
    models::EventInfo e;
    e.key = QStringLiteral("kube-system/agent-x1.1");
    e.type = QStringLiteral("Warning");
    e.reason = QStringLiteral("BackOff");
    e.message = QStringLiteral("Back-off restarting failed container a");
    e.daemonSetKey = QStringLiteral("kubelet");
    e.firstTime = kNow - 600000;
    e.time = kNow - 60000;
    e.count = 7;
    const auto sections = ObjectDescribe::pod(pod, {e}, kNow);
    QCOMPARE(fields(sections, QStringLiteral("Pod")),
             (QStringList{"Name=agent-x1", "Namespace=kube-system", "Node=node-1/10.0.0.1",
                          "Start Time=2026-01-01T00:00:00Z (60m ago)", "Labels=app=agent\ncontroller-revision-hash=7c9",
                          "Status=Running", "IP=10.244.0.7", "Controlled By=DaemonSet/agent"}));
    QVERIFY(section(sections, QStringLiteral("Container a")));
    QVERIFY(section(sections, QStringLiteral("Container b")));
    QCOMPARE(rows(sections, QStringLiteral("Conditions")),
             (QList<QStringList>{{"Ready", "False", "10m", "ContainersNotReady"}}));
    QCOMPARE(fields(sections, QStringLiteral("Tolerations")),
             QStringList{"Tolerations=node.kubernetes.io/not-ready op=Exists:NoExecute for 300s"});
    QCOMPARE(rows(sections, QStringLiteral("Events")),
             (QList<QStringList>{{"Warning", "BackOff", "60s (x7 over 10m)", "kubelet",
                                  "Back-off restarting failed container a"}}));
    QCOMPARE(ObjectDescribe::containerNames(pod), (QStringList{"a", "b"}));
}

void TstObjectDescribe::nodeShowsTaintsConditionsCapacityInfoAndPods()
{
    const kube::Json node = parse(R"({"apiVersion":"v1","kind":"Node",
        "metadata":{"name":"node-1","labels":{"a":"1","b":"2","c":"3","zone":"z1"}},
        "spec":{"unschedulable":true,"taints":[{"key":"node.kubernetes.io/unschedulable","effect":"NoSchedule"},
                                              {"key":"dedicated","value":"gpu","effect":"NoExecute"}]},
        "status":{"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},"allocatable":{"cpu":"3800m","memory":"15Gi","pods":"110"},
          "conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"PLEG is not healthy","lastTransitionTime":"2026-01-01T00:58:00Z"}],
          "nodeInfo":{"kubeletVersion":"v1.32.4","osImage":"Debian GNU/Linux 12 (bookworm)","containerRuntimeVersion":"containerd://1.7.24",
                      "bootID":"b-1","kernelVersion":"6.1.0","operatingSystem":"linux","architecture":"amd64","machineID":"m-1"}}})");
    QList<models::NodePodRow> pods{{QStringLiteral("default"), QStringLiteral("web-1"), true, QStringLiteral("5d4f"),
                                    QStringLiteral("DaemonSet/web")}};
    const auto sections = ObjectDescribe::node(node, {}, pods, kNow);
    const QStringList overview = fields(sections, QStringLiteral("Node"));
    QVERIFY(overview.contains(QStringLiteral("Taints=node.kubernetes.io/unschedulable:NoSchedule\ndedicated=gpu:NoExecute")));
    QVERIFY(overview.contains(QStringLiteral("Unschedulable=true")));
    QVERIFY(overview.contains(QStringLiteral("Labels=a=1\nb=2\nc=3\n… (+1 more)")));
    QCOMPARE(rows(sections, QStringLiteral("Conditions")),
             (QList<QStringList>{{"Ready", "False", "2m", "KubeletNotReady", "PLEG is not healthy"}}));
    QCOMPARE(rows(sections, QStringLiteral("Capacity")),
             (QList<QStringList>{{"cpu", "4", "3800m"}, {"memory", "16Gi", "15Gi"}, {"pods", "110", "110"}}));
    const QStringList info = fields(sections, QStringLiteral("System Info"));
    QVERIFY(info.contains(QStringLiteral("Kubelet Version=v1.32.4")));
    QVERIFY(info.contains(QStringLiteral("OS Image=Debian GNU/Linux 12 (bookworm)")));
    QVERIFY(info.contains(QStringLiteral("Container Runtime=containerd://1.7.24")));
    QVERIFY(info.contains(QStringLiteral("Boot ID=b-1")));
    QCOMPARE(rows(sections, QStringLiteral("Pods")),
             (QList<QStringList>{{"default", "web-1", "True", "5d4f", "DaemonSet/web"}}));
    QCOMPARE(rows(sections, QStringLiteral("Labels")).size(), 4);
    QCOMPARE(fields(sections, QStringLiteral("Events")), QStringList{"Events=<none>"});
}

void TstObjectDescribe::textLayoutAlignsLabels()
{
    QList<DescribeSection> sections{{QStringLiteral("Pod"),
                                     {{QStringLiteral("Name"), QStringLiteral("p")},
                                      {QStringLiteral("Labels"), QStringLiteral("a=1\nb=2")}},
                                     {},
                                     {}}};
    QCOMPARE(ObjectDescribe::toText(sections),
             QStringLiteral("Pod:\n  Name:    p\n  Labels:  a=1\n           b=2\n\n"));
}

QTEST_GUILESS_MAIN(TstObjectDescribe)
#include "tst_objectdescribe.moc"
