// ObjectDescribe: the sections kubectl describe shows, built from pod and node JSON — container
// states with their termination messages, CrashLoopBackOff with the last state, conditions,
// tolerations, events; a node's taints, conditions, capacity, system info and pods.

#include "models/snapshot/objectdescribe.h"

#include <QtTest>

using namespace Qt::StringLiterals;

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
        << QString::fromUtf8(
               R"({"name":"c","ready":false,"restartCount":0,"state":{"terminated":{"reason":"Error","exitCode":2,"message":"boom: disk full"}}})")
        << QStringList{u"Image=busybox:1.36"_s,      u"State=Terminated"_s, u"Reason=Error"_s,
                       u"Message=boom: disk full"_s, u"Exit Code=2"_s,      u"Ready=False"_s,
                       u"Restart Count=0"_s};
    QTest::newRow("CrashLoopBackOff shows the last state's termination message")
        << QString::fromUtf8(
               R"({"name":"c","ready":false,"restartCount":5,"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 40s"}},"lastState":{"terminated":{"reason":"Error","exitCode":1,"message":"panic: no config"}}})")
        << QStringList{
               u"Image=busybox:1.36"_s,       u"State=Waiting"_s,         u"Reason=CrashLoopBackOff"_s,
               u"Message=back-off 40s"_s,     u"Last State=Terminated"_s, u"Reason=Error"_s,
               u"Message=panic: no config"_s, u"Exit Code=1"_s,           u"Ready=False"_s,
               u"Restart Count=5"_s};
    QTest::newRow("a running container shows since when")
        << QString::fromUtf8(
               R"({"name":"c","ready":true,"restartCount":0,"state":{"running":{"startedAt":"2026-01-01T00:55:00Z"}}})")
        << QStringList{u"Image=busybox:1.36"_s, u"State=Running"_s,
                       u"Started=2026-01-01T00:55:00Z (5m ago)"_s, u"Ready=True"_s, u"Restart Count=0"_s};
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
    e.source = QStringLiteral("kubelet");
    e.firstTime = kNow - 600000;
    e.time = kNow - 60000;
    e.count = 7;
    const auto sections = ObjectDescribe::pod(pod, {e}, kNow);
    QCOMPARE(fields(sections, QStringLiteral("Pod")),
             (QStringList{u"Name=agent-x1"_s, u"Namespace=kube-system"_s, u"Node=node-1/10.0.0.1"_s,
                          u"Start Time=2026-01-01T00:00:00Z (60m ago)"_s,
                          u"Labels=app=agent\ncontroller-revision-hash=7c9"_s, u"Status=Running"_s,
                          u"IP=10.244.0.7"_s, u"Controlled By=DaemonSet/agent"_s}));
    QVERIFY(section(sections, QStringLiteral("Container a")));
    QVERIFY(section(sections, QStringLiteral("Container b")));
    QCOMPARE(rows(sections, QStringLiteral("Conditions")),
             (QList<QStringList>{{u"Ready"_s, u"False"_s, u"10m"_s, u"ContainersNotReady"_s}}));
    QCOMPARE(fields(sections, QStringLiteral("Tolerations")),
             QStringList{u"Tolerations=node.kubernetes.io/not-ready op=Exists:NoExecute for 300s"_s});
    QCOMPARE(rows(sections, QStringLiteral("Events")),
             (QList<QStringList>{{u"Warning"_s, u"BackOff"_s, u"60s (x7 over 10m)"_s, u"kubelet"_s,
                                  u"Back-off restarting failed container a"_s}}));
    QCOMPARE(ObjectDescribe::containerNames(pod), (QStringList{u"a"_s, u"b"_s}));
}

void TstObjectDescribe::nodeShowsTaintsConditionsCapacityInfoAndPods()
{
    const kube::Json node = parse(R"json({"apiVersion":"v1","kind":"Node",
        "metadata":{"name":"node-1","labels":{"a":"1","b":"2","c":"3","zone":"z1"}},
        "spec":{"unschedulable":true,"taints":[{"key":"node.kubernetes.io/unschedulable","effect":"NoSchedule"},
                                              {"key":"dedicated","value":"gpu","effect":"NoExecute"}]},
        "status":{"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},"allocatable":{"cpu":"3800m","memory":"15Gi","pods":"110"},
          "conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"PLEG is not healthy","lastTransitionTime":"2026-01-01T00:58:00Z"}],
          "nodeInfo":{"kubeletVersion":"v1.32.4","osImage":"Debian GNU/Linux 12 (bookworm)","containerRuntimeVersion":"containerd://1.7.24",
                      "bootID":"b-1","kernelVersion":"6.1.0","operatingSystem":"linux","architecture":"amd64","machineID":"m-1"}}})json");
    QList<models::NodePodRow> pods{{QStringLiteral("default"), QStringLiteral("web-1"), true,
                                    QStringLiteral("5d4f"), QStringLiteral("DaemonSet/web")}};
    const auto sections = ObjectDescribe::node(node, {}, pods, kNow);
    const QStringList overview = fields(sections, QStringLiteral("Node"));
    QVERIFY(overview.contains(
        QStringLiteral("Taints=node.kubernetes.io/unschedulable:NoSchedule\ndedicated=gpu:NoExecute")));
    QVERIFY(overview.contains(QStringLiteral("Unschedulable=true")));
    QVERIFY(overview.contains(QStringLiteral("Labels=a=1\nb=2\nc=3\n… (+1 more)")));
    QCOMPARE(rows(sections, QStringLiteral("Conditions")),
             (QList<QStringList>{
                 {u"Ready"_s, u"False"_s, u"2m"_s, u"KubeletNotReady"_s, u"PLEG is not healthy"_s}}));
    QCOMPARE(rows(sections, QStringLiteral("Capacity")),
             (QList<QStringList>{{u"cpu"_s, u"4"_s, u"3800m"_s},
                                 {u"memory"_s, u"16Gi"_s, u"15Gi"_s},
                                 {u"pods"_s, u"110"_s, u"110"_s}}));
    const QStringList info = fields(sections, QStringLiteral("System Info"));
    QVERIFY(info.contains(QStringLiteral("Kubelet Version=v1.32.4")));
    QVERIFY(info.contains(QStringLiteral("OS Image=Debian GNU/Linux 12 (bookworm)")));
    QVERIFY(info.contains(QStringLiteral("Container Runtime=containerd://1.7.24")));
    QVERIFY(info.contains(QStringLiteral("Boot ID=b-1")));
    QCOMPARE(rows(sections, QStringLiteral("Pods")),
             (QList<QStringList>{{u"default"_s, u"web-1"_s, u"True"_s, u"5d4f"_s, u"DaemonSet/web"_s}}));
    QCOMPARE(rows(sections, QStringLiteral("Labels")).size(), 4);
    QCOMPARE(fields(sections, QStringLiteral("Events")), QStringList{u"Events=<none>"_s});
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
