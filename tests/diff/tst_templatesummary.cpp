// Semantic summary of two pod templates: one table row per category, plus server-noise
// stripping and pod-template extraction from manifests.

#include "models/diff/jsonpatch.h"
#include "models/diff/podtemplateof.h"
#include "models/diff/templatesummary.h"

#include <QFile>
#include <QTest>

using namespace diff;
using kube::Json;
using namespace Qt::Literals::StringLiterals;

namespace {

// QCOMPARE cannot take nlohmann::json (it converts to everything); compare the dumps instead.
QString qs(const char *utf8)
{
    return QString::fromUtf8(utf8);
}
QString dumped(const Json &j)
{
    return QString::fromStdString(j.dump());
}

// Fixtures live in files: moc's tokenizer loses track of multi-line raw strings.
Json loadJson(const char *name)
{
    QFile file(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/diff/data/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    return Json::parse(file.readAll().toStdString());
}

Json patched(const QString &patch)
{
    const Json base = loadJson("summary-base.json");
    if (patch.isEmpty())
        return base;
    auto result = applyJsonPatch(base, Json::parse(patch.toStdString()));
    if (!result)
        qFatal("bad test patch: %s", result.error().message.c_str());
    return *result;
}

QStringList render(const TemplateSummary &summary)
{
    QStringList out;
    for (const auto &c : summary.changes)
        out << QString::fromStdString(c.category + "|" + c.container + "|" + c.path + "|" + c.summary);
    return out;
}

} // namespace

class TestTemplateSummary : public QObject
{
    Q_OBJECT

private slots:
    void summarizes_data()
    {
        QTest::addColumn<QString>("beforePatch"); // JSON Patch applied to the base template
        QTest::addColumn<QString>("afterPatch");
        QTest::addColumn<bool>("ignoreNoise");
        QTest::addColumn<QStringList>("expected"); // category|container|path|summary

        QTest::newRow("identical templates have no changes") << ""
                                                             << "" << false << QStringList();
        QTest::newRow("an image bump")
            << ""
            << R"([{"op":"replace","path":"/spec/containers/0/image","value":"nginx:1.27"}])" << false
            << QStringList{u"image|nginx|/spec/containers/0/image|image nginx:1.26 → nginx:1.27"_s};
        QTest::newRow("an env variable added with a value")
            << ""
            << R"([{"op":"add","path":"/spec/containers/0/env/-","value":{"name":"DEBUG","value":"true"}}])"
            << false << QStringList{u"env|nginx|/spec/containers/0/env/2|env DEBUG added (=true)"_s};
        QTest::newRow("an env variable added from a field")
            << ""
            << R"([{"op":"add","path":"/spec/containers/0/env/-","value":{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}}])"
            << false
            << QStringList{u"env|nginx|/spec/containers/0/env/2|env NODE added (from field spec.nodeName)"_s};
        QTest::newRow("an env variable changed and one removed")
            << ""
            << R"([{"op":"replace","path":"/spec/containers/0/env/0/value","value":"debug"},{"op":"remove","path":"/spec/containers/0/env/1"}])"
            << false
            << QStringList{u"env|nginx|/spec/containers/0/env/0|env LOG_LEVEL info → debug"_s,
                           u"env|nginx|/spec/containers/0/env/1|env MODE removed (was a)"_s};
        QTest::newRow("an env value replaced by a secret reference")
            << ""
            << R"([{"op":"replace","path":"/spec/containers/0/env/1","value":{"name":"MODE","valueFrom":{"secretKeyRef":{"name":"s","key":"mode"}}}}])"
            << false
            << QStringList{u"env|nginx|/spec/containers/0/env/1|env MODE a → from secret s key mode"_s};
        QTest::newRow("reordered env variables")
            << ""
            << R"([{"op":"move","from":"/spec/containers/0/env/1","path":"/spec/containers/0/env/0"}])"
            << false << QStringList{u"env|nginx|/spec/containers/0/env|env order changed"_s};
        QTest::newRow("resource limit changed and request added")
            << ""
            << R"([{"op":"replace","path":"/spec/containers/0/resources/limits/memory","value":"256Mi"},
                  {"op":"add","path":"/spec/containers/0/resources/requests","value":{"cpu":"100m"}}])"
            << false
            << QStringList{
                   u"resources|nginx|/spec/containers/0/resources/limits/memory|resources limits.memory 128Mi → 256Mi"_s,
                   u"resources|nginx|/spec/containers/0/resources/requests/cpu|resources requests.cpu added (=100m)"_s};
        QTest::newRow("a port added and one changed")
            << ""
            << R"([{"op":"replace","path":"/spec/containers/0/ports/0/name","value":"web"},
                  {"op":"add","path":"/spec/containers/0/ports/-","value":{"containerPort":9090,"protocol":"UDP"}}])"
            << false
            << QStringList{u"ports|nginx|/spec/containers/0/ports/0|port 80/TCP name http → web"_s,
                           u"ports|nginx|/spec/containers/0/ports/1|port 9090/UDP added (unnamed)"_s};
        QTest::newRow("a probe changed and one added")
            << ""
            << R"([{"op":"replace","path":"/spec/containers/0/readinessProbe/httpGet/path","value":"/ready"},
                  {"op":"add","path":"/spec/containers/0/livenessProbe","value":{"tcpSocket":{"port":80}}}])"
            << false
            << QStringList{
                   u"probes|nginx|/spec/containers/0/livenessProbe|livenessProbe added (={\"tcpSocket\":{\"port\":80}})"_s,
                   u"probes|nginx|/spec/containers/0/readinessProbe|readinessProbe httpGet.path /healthz → /ready"_s};
        QTest::newRow("command added and args changed")
            << ""
            << R"([{"op":"add","path":"/spec/containers/0/command","value":["nginx","-g","daemon off;"]},
                  {"op":"replace","path":"/spec/containers/0/args","value":["--v=4"]}])"
            << false
            << QStringList{
                   u"command|nginx|/spec/containers/0/command|command added ([nginx -g \"daemon off;\"])"_s,
                   u"args|nginx|/spec/containers/0/args|args [--v=2] → [--v=4]"_s};
        QTest::newRow("a volume mount made read-only and one added")
            << ""
            << R"([{"op":"add","path":"/spec/containers/0/volumeMounts/0/readOnly","value":true},
                  {"op":"add","path":"/spec/containers/0/volumeMounts/-","value":{"name":"cfg","mountPath":"/etc/app"}}])"
            << false
            << QStringList{
                   u"volumeMounts|nginx|/spec/containers/0/volumeMounts/0|volumeMount /var/log readOnly added (=true)"_s,
                   u"volumeMounts|nginx|/spec/containers/0/volumeMounts/1|volumeMount /etc/app added (volume cfg)"_s};
        QTest::newRow("a sidecar container added")
            << ""
            << R"([{"op":"add","path":"/spec/containers/-","value":{"name":"shipper","image":"fluent-bit:2.1"}}])"
            << false
            << QStringList{
                   u"containers|shipper|/spec/containers/1|container shipper added (image fluent-bit:2.1)"_s};
        QTest::newRow("an init container removed")
            << R"([{"op":"add","path":"/spec/initContainers","value":[{"name":"setup","image":"busybox"}]}])"
            << "" << false
            << QStringList{
                   u"containers|setup|/spec/initContainers/0|init container setup removed (image busybox)"_s};
        QTest::newRow("an init container's image changed")
            << R"([{"op":"add","path":"/spec/initContainers","value":[{"name":"setup","image":"busybox:1"}]}])"
            << R"([{"op":"add","path":"/spec/initContainers","value":[{"name":"setup","image":"busybox:2"}]}])"
            << false
            << QStringList{u"image|setup|/spec/initContainers/0/image|image busybox:1 → busybox:2"_s};
        QTest::newRow("containers matched by name, not position")
            << R"([{"op":"add","path":"/spec/containers/-","value":{"name":"b","image":"b:1"}}])"
            << R"([{"op":"add","path":"/spec/containers/0","value":{"name":"b","image":"b:2"}}])" << false
            << QStringList{u"image|b|/spec/containers/0/image|image b:1 → b:2"_s};
        QTest::newRow("a toleration added")
            << ""
            << R"([{"op":"add","path":"/spec/tolerations/-","value":{"key":"dedicated","operator":"Equal","value":"logs","effect":"NoExecute","tolerationSeconds":60}}])"
            << false
            << QStringList{
                   u"tolerations||/spec/tolerations/1|toleration dedicated=logs:NoExecute for 60s added"_s};
        QTest::newRow("all tolerations removed")
            << ""
            << R"([{"op":"remove","path":"/spec/tolerations"}])" << false
            << QStringList{
                   u"tolerations||/spec/tolerations/0|toleration node-role.kubernetes.io/control-plane:NoSchedule removed"_s};
        QTest::newRow("a node selector changed")
            << ""
            << R"([{"op":"replace","path":"/spec/nodeSelector/kubernetes.io~1os","value":"windows"},
                  {"op":"add","path":"/spec/nodeSelector/pool","value":"logs"}])"
            << false
            << QStringList{
                   u"nodeSelector||/spec/nodeSelector/kubernetes.io~1os|nodeSelector kubernetes.io/os linux → windows"_s,
                   u"nodeSelector||/spec/nodeSelector/pool|nodeSelector pool=logs added"_s};
        QTest::newRow("affinity added")
            << ""
            << R"([{"op":"add","path":"/spec/affinity","value":{"nodeAffinity":{}}}])" << false
            << QStringList{u"affinity||/spec/affinity|affinity added (={\"nodeAffinity\":{}})"_s};
        QTest::newRow("a volume source changed and one added")
            << ""
            << R"([{"op":"replace","path":"/spec/volumes/0/hostPath/path","value":"/var/log/pods"},
                  {"op":"add","path":"/spec/volumes/-","value":{"name":"cfg","configMap":{"name":"app-config"}}}])"
            << false
            << QStringList{u"volumes||/spec/volumes/0|volume logs hostPath.path /var/log → /var/log/pods"_s,
                           u"volumes||/spec/volumes/1|volume cfg added (configMap app-config)"_s};
        QTest::newRow("the service account changed")
            << ""
            << R"([{"op":"replace","path":"/spec/serviceAccountName","value":"web-v2"}])" << false
            << QStringList{u"serviceAccount||/spec/serviceAccountName|serviceAccount web → web-v2"_s};
        QTest::newRow("host networking turned on")
            << ""
            << R"([{"op":"add","path":"/spec/hostNetwork","value":true}])" << false
            << QStringList{u"hostNetwork||/spec/hostNetwork|hostNetwork false → true"_s};
        QTest::newRow("a restart annotation added")
            << ""
            << R"([{"op":"add","path":"/metadata/annotations","value":{"kubectl.kubernetes.io/restartedAt":"2026-01-02T03:04:05Z"}}])"
            << false
            << QStringList{
                   u"annotations||/metadata/annotations/kubectl.kubernetes.io~1restartedAt|annotation kubectl.kubernetes.io/restartedAt=2026-01-02T03:04:05Z added"_s};
        QTest::newRow("a label changed")
            << ""
            << R"([{"op":"replace","path":"/metadata/labels/app","value":"web2"}])" << false
            << QStringList{u"labels||/metadata/labels/app|label app web → web2"_s};
        QTest::newRow("the image comes first and pod-level changes before metadata")
            << ""
            << R"([{"op":"replace","path":"/metadata/labels/app","value":"web2"},
                  {"op":"add","path":"/spec/hostNetwork","value":true},
                  {"op":"replace","path":"/spec/containers/0/env/0/value","value":"debug"},
                  {"op":"replace","path":"/spec/containers/0/image","value":"nginx:1.27"}])"
            << false
            << QStringList{u"image|nginx|/spec/containers/0/image|image nginx:1.26 → nginx:1.27"_s,
                           u"env|nginx|/spec/containers/0/env/0|env LOG_LEVEL info → debug"_s,
                           u"hostNetwork||/spec/hostNetwork|hostNetwork false → true"_s,
                           u"labels||/metadata/labels/app|label app web → web2"_s};
        QTest::newRow("an unknown container field is other with its pointer")
            << ""
            << R"([{"op":"add","path":"/spec/containers/0/securityContext","value":{"privileged":true}}])"
            << false
            << QStringList{
                   u"other|nginx|/spec/containers/0/securityContext|securityContext added (={\"privileged\":true})"_s};
        QTest::newRow("an unknown pod field is other with its pointer")
            << ""
            << R"([{"op":"add","path":"/spec/priorityClassName","value":"system-node-critical"}])" << false
            << QStringList{
                   u"other||/spec/priorityClassName|priorityClassName added (=system-node-critical)"_s};
        QTest::newRow("server defaults are differences when noise is shown")
            << ""
            << R"([{"op":"add","path":"/spec/dnsPolicy","value":"ClusterFirst"},
                  {"op":"add","path":"/spec/containers/0/imagePullPolicy","value":"IfNotPresent"}])"
            << false
            << QStringList{
                   u"other|nginx|/spec/containers/0/imagePullPolicy|imagePullPolicy added (=IfNotPresent)"_s,
                   u"other||/spec/dnsPolicy|dnsPolicy added (=ClusterFirst)"_s};
        QTest::newRow("server defaults vanish when noise is hidden")
            << R"([{"op":"add","path":"/metadata/creationTimestamp","value":null}])"
            << R"([{"op":"add","path":"/spec/dnsPolicy","value":"ClusterFirst"},
                  {"op":"add","path":"/spec/restartPolicy","value":"Always"},
                  {"op":"add","path":"/spec/schedulerName","value":"default-scheduler"},
                  {"op":"add","path":"/spec/securityContext","value":{}},
                  {"op":"add","path":"/spec/terminationGracePeriodSeconds","value":30},
                  {"op":"add","path":"/spec/containers/0/imagePullPolicy","value":"IfNotPresent"},
                  {"op":"add","path":"/spec/containers/0/terminationMessagePath","value":"/dev/termination-log"},
                  {"op":"add","path":"/spec/containers/0/terminationMessagePolicy","value":"File"},
                  {"op":"add","path":"/spec/containers/0/ports/0/protocol","value":"TCP"},
                  {"op":"add","path":"/spec/containers/0/readinessProbe/timeoutSeconds","value":1},
                  {"op":"add","path":"/spec/volumes/0/hostPath/type","value":""},
                  {"op":"add","path":"/metadata/creationTimestamp","value":"2026-01-01T00:00:00Z"},
                  {"op":"add","path":"/metadata/labels/controller-revision-hash","value":"7d9f8b6c5"},
                  {"op":"add","path":"/metadata/labels/pod-template-generation","value":"3"},
                  {"op":"add","path":"/metadata/annotations","value":{"deprecated.daemonset.template.generation":"3"}}])"
            << true << QStringList();
        QTest::newRow("a non-default value stays visible when noise is hidden")
            << ""
            << R"([{"op":"add","path":"/spec/dnsPolicy","value":"ClusterFirstWithHostNet"},
                  {"op":"add","path":"/spec/containers/0/imagePullPolicy","value":"Always"}])"
            << true
            << QStringList{
                   u"other|nginx|/spec/containers/0/imagePullPolicy|imagePullPolicy added (=Always)"_s,
                   u"other||/spec/dnsPolicy|dnsPolicy added (=ClusterFirstWithHostNet)"_s};
        QTest::newRow("Always is the default pull policy of a latest tag")
            << R"([{"op":"replace","path":"/spec/containers/0/image","value":"nginx:latest"}])"
            << R"([{"op":"replace","path":"/spec/containers/0/image","value":"nginx:latest"},
                  {"op":"add","path":"/spec/containers/0/imagePullPolicy","value":"Always"}])"
            << true << QStringList();
        QTest::newRow("Always is the default pull policy of an untagged image")
            << R"([{"op":"replace","path":"/spec/containers/0/image","value":"registry:5000/nginx"}])"
            << R"([{"op":"replace","path":"/spec/containers/0/image","value":"registry:5000/nginx"},
                  {"op":"add","path":"/spec/containers/0/imagePullPolicy","value":"Always"}])"
            << true << QStringList();
    }
    void summarizes()
    {
        QFETCH(QString, beforePatch);
        QFETCH(QString, afterPatch);
        QFETCH(bool, ignoreNoise);
        QFETCH(QStringList, expected);
        const Json before = patched(beforePatch);
        const Json after = patched(afterPatch);
        const TemplateSummary summary = summarize(before, after, {ignoreNoise});
        QCOMPARE(render(summary), expected);
        QCOMPARE(summary.identical(), expected.isEmpty());
        // before/after are the values at the change's path on each side.
        for (const auto &c : summary.changes) {
            const Json &side = c.after ? after : before;
            if (!ignoreNoise && !c.path.empty() && (c.after || c.before)) {
                const auto ptr = Json::json_pointer(c.path);
                QVERIFY2(side.contains(ptr), c.path.c_str());
                QCOMPARE(dumped(side.at(ptr)), dumped(c.after ? *c.after : *c.before));
            }
        }
    }

    void everyDifferenceIsReported()
    {
        // Whatever differs, an empty summary means equal templates.
        const Json base = loadJson("summary-base.json");
        const QStringList patches = {
            qs(R"([{"op":"add","path":"/metadata/name","value":"x"}])"),
            qs(R"([{"op":"add","path":"/extra","value":1}])"),
            qs(R"([{"op":"move","from":"/spec/containers/0","path":"/spec/containers/-"},{"op":"add","path":"/spec/containers/0","value":{"name":"z","image":"z"}}])"),
            qs(R"([{"op":"add","path":"/spec/tolerations/-","value":{"operator":"Exists"}}])"),
        };
        for (const QString &p : patches) {
            const Json other = *applyJsonPatch(base, Json::parse(p.toStdString()));
            QVERIFY2(!summarize(base, other).identical(), qPrintable(p));
            QVERIFY2(!summarize(other, base).identical(), qPrintable(p));
        }
    }

    void stripsServerNoise()
    {
        const Json defaulted = loadJson("noise-defaulted.json");
        const Json expected = loadJson("noise-stripped.json");
        QCOMPARE(QString::fromStdString(stripServerNoise(defaulted).dump()),
                 QString::fromStdString(expected.dump()));
        // Stripping twice changes nothing.
        QCOMPARE(dumped(stripServerNoise(expected)), dumped(expected));
    }

    void extractsPodTemplates_data()
    {
        QTest::addColumn<QString>("object");
        QTest::addColumn<QString>("expectedTemplate"); // empty when an error is expected
        QTest::addColumn<QString>("errorPart");
        const QString tpl = qs(R"({"metadata":{"labels":{"app":"a"}},"spec":{"containers":[]}})");
        for (const char *kind : {"DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"}) {
            QTest::addRow("a %s yields spec.template", kind)
                << qs(R"({"kind":"%1","metadata":{"name":"x"},"spec":{"template":%2}})")
                       .arg(QLatin1String(kind), tpl)
                << tpl << QString();
        }
        QTest::newRow("a PodTemplate yields template")
            << qs(R"({"kind":"PodTemplate","template":%1})").arg(tpl) << tpl << QString();
        QTest::newRow("a ControllerRevision drops the $patch directive")
            << qs(R"({"kind":"ControllerRevision","revision":3,"data":{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"a"}},"spec":{"containers":[]}}}}})")
            << tpl << QString();
        QTest::newRow("ControllerRevision data may be a JSON string")
            << dumped(Json{{"kind", "ControllerRevision"},
                           {"data", Json{{"spec", {{"template", Json::parse(tpl.toStdString())}}}}.dump()}})
            << tpl << QString();
        QTest::newRow("a DaemonSet without a template names kind, name and field")
            << qs(R"({"kind":"DaemonSet","metadata":{"name":"web"},"spec":{}})") << QString()
            << qs(R"(DaemonSet "web" is invalid: has no spec.template)");
        QTest::newRow("a ControllerRevision without data")
            << qs(R"({"kind":"ControllerRevision","metadata":{"name":"web-1"}})") << QString()
            << qs(R"(ControllerRevision "web-1" is invalid: has no data)");
        QTest::newRow("a ControllerRevision with unparsable data")
            << u"{\"kind\":\"ControllerRevision\",\"metadata\":{\"name\":\"web-1\"},\"data\":\"{nope\"}"_s
            << QString() << u"data: not valid JSON"_s;
        QTest::newRow("a ControllerRevision whose data text nests too deep")
            << dumped(Json{{"kind", "ControllerRevision"},
                           {"metadata", {{"name", "web-1"}}},
                           {"data", std::string(5000, '[') + std::string(5000, ']')}})
            << QString() << u"data: the JSON document nests arrays and objects deeper than 1000 levels"_s;
        QTest::newRow("a ControllerRevision whose data has no template")
            << qs(R"({"kind":"ControllerRevision","metadata":{"name":"web-1"},"data":{"spec":{}}})")
            << QString() << u"has no data.spec.template"_s;
        QTest::newRow("a template that is not an object")
            << qs(R"({"kind":"Deployment","metadata":{"name":"d"},"spec":{"template":[]}})") << QString()
            << u"spec.template must be an object, got array"_s;
        QTest::newRow("a Service has no pod template")
            << qs(R"({"kind":"Service","metadata":{"name":"svc"}})") << QString()
            << qs(R"(kind Service "svc" has no pod template)");
        QTest::newRow("an object without kind") << u"{}"_s << QString() << u"no kind"_s;
        QTest::newRow("a ControllerRevision whose revision is a word")
            << qs(R"({"kind":"ControllerRevision","metadata":{"name":"web-1"},"revision":"three","data":{"spec":{"template":{}}}})")
            << QString()
            << qs(R"(ControllerRevision "web-1" is invalid: revision: Invalid value: "three": must be a 64-bit integer)");
        QTest::newRow("a DaemonSet whose containers are a map")
            << qs(R"({"kind":"DaemonSet","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":{"a":{}}}}}})")
            << QString()
            << qs(R"(DaemonSet "web" is invalid: spec.template.spec.containers: Invalid value: {"a":{}}: must be a list)");
        QTest::newRow("a revision template with a container name that is a number")
            << qs(R"({"kind":"ControllerRevision","metadata":{"name":"web-1"},"data":{"spec":{"template":{"spec":{"containers":[{"name":5}]}}}}})")
            << QString()
            << qs(R"(data.spec.template.spec.containers[0].name: Invalid value: 5: must be a string)");
    }
    void extractsPodTemplates()
    {
        QFETCH(QString, object);
        QFETCH(QString, expectedTemplate);
        QFETCH(QString, errorPart);
        const auto result = podTemplateOf(Json::parse(object.toStdString()));
        if (expectedTemplate.isEmpty()) {
            QVERIFY(!result.ok());
            const QString message = QString::fromStdString(result.error().message);
            QVERIFY2(message.contains(errorPart), qPrintable(message));
        } else {
            QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
            QCOMPARE(dumped(*result), dumped(Json::parse(expectedTemplate.toStdString())));
        }
    }
};

QTEST_APPLESS_MAIN(TestTemplateSummary)
#include "tst_templatesummary.moc"
