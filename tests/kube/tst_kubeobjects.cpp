// Typed Kubernetes objects: Go-compatible canonical JSON, defaulting, revision hashing,
// selectors, IntOrString scaling, taints, round trips that keep unknown fields, bad input.
#include "models/kube/daemonset.h"
#include "models/kube/defaults.h"
#include "models/kube/event.h"
#include "models/kube/fieldtypes.h"
#include "models/kube/gojson.h"
#include "models/kube/node.h"
#include "models/kube/nodeaffinity.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "models/kube/taint.h"
#include "models/kube/timeutil.h"

#include <QTest>
#include <QtCore/qfloat16.h>

using kube::Json;

Q_DECLARE_METATYPE(std::string)

class TestKubeObjects : public QObject
{
    Q_OBJECT

private slots:
    void typicalRevisionDataIsByteIdentical();
    void podWriterPrintsWhatThePodsTreePrints_data();
    void podWriterPrintsWhatThePodsTreePrints();
    void goStringEscaping_data();
    void goStringEscaping();
    void hashTestVectors_data();
    void hashTestVectors();
    void collisionCountChangesHash();
    void pullPolicyDefaults_data();
    void pullPolicyDefaults();
    void daemonSetDefaultsKeepExplicitValues();
    void selectorMatching_data();
    void selectorMatching();
    void selectorRejectsBadOperator();
    void selectorQueryText_data();
    void selectorQueryText();
    void selectorQueryTextRefusesWhatItCannotRead();
    void intOrStringScaling_data();
    void intOrStringScaling();
    void tolerations_data();
    void tolerations();
    void requiredAffinity_data();
    void requiredAffinity();
    void daemonSetRoundTripKeepsUnknownFields();
    void badInputGivesMessages_data();
    void badInputGivesMessages();
    void podRoundTripPinsNode();
    void nodeAndEventRoundTrip();
    void controllerRevisionDataIsCanonical();
    void timeParsing_data();
    void timeParsing();
    void timeFormatting_data();
    void timeFormatting();
    void durations_data();
    void durations();
    void formatsEveryDuration();
    void decodersNeverThrowOnWrongTypes_data();
    void decodersNeverThrowOnWrongTypes();
    void podWithEmptyRequiredAffinity();
    void fieldTypesLikeTheApiServer_data();
    void fieldTypesLikeTheApiServer();
};

// daemonset-semantics.md §2.1: the typical example, ≤1.33 form.
void TestKubeObjects::typicalRevisionDataIsByteIdentical()
{
    Json ds = Json::parse(R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"web"},
        "spec":{"selector":{"matchLabels":{"app":"web"}},
                "template":{"metadata":{"labels":{"app":"web"}},
                            "spec":{"containers":[{"name":"nginx","image":"nginx:1.19"}]}}}})");
    kube::applyDaemonSetDefaults(ds);
    Json tpl = ds["spec"]["template"];
    tpl["$patch"] = "replace";
    const Json patch = {{"spec", {{"template", tpl}}}};
    const std::string expected =
        R"({"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.19","imagePullPolicy":"IfNotPresent","name":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}})";
    QCOMPARE(kube::goJson(patch), expected);
    QCOMPARE(ds["spec"]["updateStrategy"]["rollingUpdate"]["maxUnavailable"].get<int>(), 1);
    QCOMPARE(ds["spec"]["revisionHistoryLimit"].get<int>(), 10);
}

void TestKubeObjects::goStringEscaping_data()
{
    QTest::addColumn<std::string>("input");
    QTest::addColumn<std::string>("expected");
    QTest::newRow("html characters are unicode escapes")
        << std::string("a<b>&c") << std::string(R"("a\u003cb\u003e\u0026c")");
    QTest::newRow("quotes and backslashes are escaped")
        << std::string("say \"hi\" \\o/") << std::string(R"("say \"hi\" \\o/")");
    QTest::newRow("newline tab and return use short escapes")
        << std::string("a\nb\tc\rd") << std::string(R"("a\nb\tc\rd")");
    QTest::newRow("other control characters use u00XX")
        << std::string("\x01\x1f") << std::string(R"("\u0001\u001f")");
    QTest::newRow("line and paragraph separators are escaped")
        << std::string("x\xE2\x80\xA8y\xE2\x80\xA9") << std::string(R"("x\u2028y\u2029")");
    QTest::newRow("other non-ASCII stays raw UTF-8")
        << std::string("gr\xC3\xBC\xC3\x9F") << std::string("\"gr\xC3\xBC\xC3\x9F\"");
}

void TestKubeObjects::goStringEscaping()
{
    QFETCH(std::string, input);
    QFETCH(std::string, expected);
    QCOMPARE(kube::goJson(Json(input)), expected);
}

void TestKubeObjects::hashTestVectors_data()
{
    QTest::addColumn<std::string>("input");
    QTest::addColumn<quint32>("sum");
    QTest::addColumn<std::string>("encoded");
    QTest::newRow("empty input") << std::string() << quint32(2166136261u) << std::string("65bb57b6b5");
    QTest::newRow("a") << std::string("a") << quint32(3826002220u) << std::string("7d6b446664");
    QTest::newRow("hello") << std::string("hello") << quint32(1335831723u) << std::string("5779d75c67");
}

void TestKubeObjects::hashTestVectors()
{
    QFETCH(std::string, input);
    QFETCH(quint32, sum);
    QFETCH(std::string, encoded);
    QCOMPARE(kube::fnv1a32(input), sum);
    QCOMPARE(kube::computeHash(input, std::nullopt), encoded);
}

void TestKubeObjects::collisionCountChangesHash()
{
    const std::string data = R"({"spec":{}})";
    const auto none = kube::computeHash(data, std::nullopt);
    const auto zero = kube::computeHash(data, 0);
    const auto one = kube::computeHash(data, 1);
    QVERIFY(none != zero); // nil and 0 differ: 0 still writes eight bytes
    QVERIFY(zero != one);
    for (char c : one)
        QVERIFY(std::string("456789bcdf").find(c) != std::string::npos);
}

void TestKubeObjects::pullPolicyDefaults_data()
{
    QTest::addColumn<std::string>("image");
    QTest::addColumn<std::string>("policy");
    QTest::newRow("tagged image pulls if not present")
        << std::string("nginx:1.27") << std::string("IfNotPresent");
    QTest::newRow("latest tag always pulls") << std::string("nginx:latest") << std::string("Always");
    QTest::newRow("untagged image always pulls") << std::string("nginx") << std::string("Always");
    QTest::newRow("registry port is not a tag") << std::string("reg:5000/agent") << std::string("Always");
    QTest::newRow("digest pulls if not present")
        << std::string("nginx@sha256:abc") << std::string("IfNotPresent");
}

void TestKubeObjects::pullPolicyDefaults()
{
    QFETCH(std::string, image);
    QFETCH(std::string, policy);
    QCOMPARE(kube::defaultPullPolicy(image), policy);
}

void TestKubeObjects::daemonSetDefaultsKeepExplicitValues()
{
    Json ds = Json::parse(R"({"spec":{"updateStrategy":{"type":"OnDelete"},"revisionHistoryLimit":0,
        "template":{"spec":{"hostNetwork":true,"containers":[{"name":"a","image":"x:1","imagePullPolicy":"Always",
            "ports":[{"containerPort":9100}],"readinessProbe":{"httpGet":{"port":9100}}}]}}}})");
    kube::applyDaemonSetDefaults(ds);
    QCOMPARE(ds["spec"]["updateStrategy"].dump(), std::string(R"({"type":"OnDelete"})"));
    QCOMPARE(ds["spec"]["revisionHistoryLimit"].get<int>(), 0);
    const Json &c = ds["spec"]["template"]["spec"]["containers"][0];
    QCOMPARE(c["imagePullPolicy"].get<std::string>(), std::string("Always"));
    QCOMPARE(c["ports"][0]["protocol"].get<std::string>(), std::string("TCP"));
    QCOMPARE(c["readinessProbe"]["periodSeconds"].get<int>(), 10);
    QCOMPARE(c["readinessProbe"]["httpGet"]["scheme"].get<std::string>(), std::string("HTTP"));
    // Since 1.28 a template's host-network ports get no host port (SetDefaults_PodSpec); the
    // Pod made from it does (SetDefaults_Pod, defaultHostNetworkPorts), with service links on
    // and requests taken from the limits.
    QVERIFY(!c["ports"][0].contains("hostPort"));
    QVERIFY(!ds["spec"]["template"]["spec"].contains("enableServiceLinks"));
    Json pod = ds["spec"]["template"]["spec"];
    pod["containers"][0]["resources"] =
        Json::parse(R"({"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"100m"}})");
    QVERIFY(kube::applyPodDefaults(pod));
    QCOMPARE(pod["containers"][0]["ports"][0]["hostPort"].get<int>(), 9100);
    QCOMPARE(pod["enableServiceLinks"].get<bool>(), true);
    QCOMPARE(pod["containers"][0]["resources"]["requests"], Json::parse(R"({"cpu":"100m","memory":"1Gi"})"));
    QVERIFY(!kube::applyPodDefaults(pod)); // nothing more to add
}

void TestKubeObjects::selectorMatching_data()
{
    QTest::addColumn<std::string>("selector");
    QTest::addColumn<std::string>("labels");
    QTest::addColumn<bool>("matches");
    QTest::newRow("matchLabels subset matches") << std::string(R"({"matchLabels":{"app":"web"}})")
                                                << std::string(R"({"app":"web","tier":"x"})") << true;
    QTest::newRow("matchLabels with different value fails")
        << std::string(R"({"matchLabels":{"app":"web"}})") << std::string(R"({"app":"db"})") << false;
    QTest::newRow("In accepts a listed value")
        << std::string(R"({"matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]}]})")
        << std::string(R"({"zone":"b"})") << true;
    QTest::newRow("NotIn accepts a missing key")
        << std::string(R"({"matchExpressions":[{"key":"zone","operator":"NotIn","values":["a"]}]})")
        << std::string(R"({})") << true;
    QTest::newRow("Exists needs the key")
        << std::string(R"({"matchExpressions":[{"key":"gpu","operator":"Exists"}]})")
        << std::string(R"({"cpu":"x"})") << false;
    QTest::newRow("DoesNotExist rejects the key")
        << std::string(R"({"matchExpressions":[{"key":"gpu","operator":"DoesNotExist"}]})")
        << std::string(R"({"gpu":""})") << false;
    QTest::newRow("labels and expressions are ANDed")
        << std::string(
               R"({"matchLabels":{"app":"web"},"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]})")
        << std::string(R"({"app":"web","zone":"b"})") << false;
    QTest::newRow("empty selector selects everything")
        << std::string("{}") << std::string(R"({"a":"b"})") << true;
}

void TestKubeObjects::selectorMatching()
{
    QFETCH(std::string, selector);
    QFETCH(std::string, labels);
    QFETCH(bool, matches);
    auto sel = kube::LabelSelector::fromJson(Json::parse(selector));
    QVERIFY(sel.ok());
    auto l = kube::stringMapFromJson(Json::parse(labels), "labels");
    QVERIFY(l.ok());
    QCOMPARE(sel->matches(*l), matches);
}

void TestKubeObjects::selectorQueryText_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<std::string>("labels");
    QTest::addColumn<bool>("matches");
    QTest::newRow("equals") << std::string("app=web") << std::string(R"({"app":"web"})") << true;
    QTest::newRow("double equals") << std::string("app==web") << std::string(R"({"app":"db"})") << false;
    QTest::newRow("one key twice selects nothing")
        << std::string("a=1,a=2") << std::string(R"({"a":"2"})") << false;
    QTest::newRow("not equals takes a missing key")
        << std::string("tier!=front") << std::string(R"({"app":"web"})") << true;
    QTest::newRow("in, spaces trimmed")
        << std::string(" zone in ( a , b ) ,app=web") << std::string(R"({"app":"web","zone":"b"})") << true;
    QTest::newRow("notin") << std::string("zone notin (a,b)") << std::string(R"({"zone":"a"})") << false;
    QTest::newRow("exists") << std::string("gpu") << std::string(R"({"cpu":"x"})") << false;
    QTest::newRow("does not exist") << std::string("!gpu") << std::string(R"({"cpu":"x"})") << true;
    QTest::newRow("empty text selects everything") << std::string("") << std::string(R"({"a":"b"})") << true;
}

void TestKubeObjects::selectorQueryText()
{
    QFETCH(std::string, text);
    QFETCH(std::string, labels);
    QFETCH(bool, matches);
    auto sel = kube::LabelSelector::fromQueryString(text);
    QVERIFY2(sel.ok(), sel.ok() ? "" : sel.error().message.c_str());
    auto l = kube::stringMapFromJson(Json::parse(labels), "labels");
    QVERIFY(l.ok());
    QCOMPARE(sel->matches(*l), matches);
    // The text the selector writes reads back as the same selector.
    auto again = kube::LabelSelector::fromQueryString(sel->toQueryString());
    QVERIFY(again.ok());
    QCOMPARE(again->matches(*l), matches);
}

void TestKubeObjects::selectorQueryTextRefusesWhatItCannotRead()
{
    for (const char *text : {"zone in (a", "zone in a,b", "a b=c", "(x)", "!", "=v"}) {
        auto sel = kube::LabelSelector::fromQueryString(text);
        QVERIFY2(!sel.ok(), text);
        QCOMPARE(sel.error().code, 400);
        QVERIFY2(sel.error().message.rfind("unable to parse requirement: ", 0) == 0,
                 sel.error().message.c_str());
    }
}

void TestKubeObjects::selectorRejectsBadOperator()
{
    auto sel = kube::LabelSelector::fromJson(
        Json::parse(R"({"matchExpressions":[{"key":"a","operator":"Like","values":["x"]}]})"));
    QVERIFY(!sel.ok());
    QVERIFY(sel.error().message.find("Like") != std::string::npos);
    auto sel2 =
        kube::LabelSelector::fromJson(Json::parse(R"({"matchExpressions":[{"key":"a","operator":"In"}]})"));
    QVERIFY(!sel2.ok());
}

void TestKubeObjects::intOrStringScaling_data()
{
    QTest::addColumn<std::string>("value");
    QTest::addColumn<int>("total");
    QTest::addColumn<bool>("roundUp");
    QTest::addColumn<int>("expected");
    QTest::newRow("integer is taken as is") << std::string("3") << 100 << true << 3;
    QTest::newRow("10 percent of 5000 nodes") << std::string("\"10%\"") << 5000 << true << 500;
    QTest::newRow("10 percent of 7 rounds up to 1") << std::string("\"10%\"") << 7 << true << 1;
    QTest::newRow("10 percent of 7 rounds down to 0") << std::string("\"10%\"") << 7 << false << 0;
    QTest::newRow("33 percent of 10 rounds up to 4") << std::string("\"33%\"") << 10 << true << 4;
    QTest::newRow("zero percent is zero") << std::string("\"0%\"") << 40 << true << 0;
    QTest::newRow("100 percent is all") << std::string("\"100%\"") << 40 << true << 40;
}

void TestKubeObjects::intOrStringScaling()
{
    QFETCH(std::string, value);
    QFETCH(int, total);
    QFETCH(bool, roundUp);
    QFETCH(int, expected);
    auto v = kube::IntOrString::fromJson(Json::parse(value));
    QVERIFY(v.ok());
    auto r = v->scaledValue(total, roundUp);
    QVERIFY(r.ok());
    QCOMPARE(*r, expected);
}

void TestKubeObjects::tolerations_data()
{
    QTest::addColumn<std::string>("toleration");
    QTest::addColumn<std::string>("taint");
    QTest::addColumn<bool>("tolerated");
    QTest::newRow("Exists with key tolerates any value")
        << std::string(R"({"key":"dedicated","operator":"Exists"})")
        << std::string(R"({"key":"dedicated","value":"infra","effect":"NoSchedule"})") << true;
    QTest::newRow("Equal needs the same value")
        << std::string(R"({"key":"dedicated","operator":"Equal","value":"gpu","effect":"NoSchedule"})")
        << std::string(R"({"key":"dedicated","value":"infra","effect":"NoSchedule"})") << false;
    QTest::newRow("effect must match when set")
        << std::string(R"({"key":"k","operator":"Exists","effect":"NoSchedule"})")
        << std::string(R"({"key":"k","effect":"NoExecute"})") << false;
    QTest::newRow("empty key with Exists tolerates everything")
        << std::string(R"({"operator":"Exists"})") << std::string(R"({"key":"any","effect":"NoExecute"})")
        << true;
    QTest::newRow("default operator is Equal")
        << std::string(R"({"key":"k","value":"v"})")
        << std::string(R"({"key":"k","value":"v","effect":"NoSchedule"})") << true;
}

void TestKubeObjects::tolerations()
{
    QFETCH(std::string, toleration);
    QFETCH(std::string, taint);
    QFETCH(bool, tolerated);
    auto t = kube::Toleration::fromJson(Json::parse(toleration));
    auto n = kube::Taint::fromJson(Json::parse(taint));
    QVERIFY(t.ok() && n.ok());
    QCOMPARE(t->toleratesTaint(*n), tolerated);
}

void TestKubeObjects::requiredAffinity_data()
{
    QTest::addColumn<std::string>("podSpec");
    QTest::addColumn<bool>("fits");
    QTest::newRow("no affinity fits") << std::string("{}") << true;
    QTest::newRow("nodeSelector on zone fits") << std::string(R"({"nodeSelector":{"zone":"a"}})") << true;
    QTest::newRow("nodeSelector on another zone does not fit")
        << std::string(R"({"nodeSelector":{"zone":"b"}})") << false;
    QTest::newRow("matchFields on the node name fits")
        << std::string(
               R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}}})")
        << true;
    QTest::newRow("terms are ORed")
        << std::string(
               R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]},{"matchExpressions":[{"key":"pool","operator":"Exists"}]}]}}}})")
        << true;
    QTest::newRow("Gt compares integers")
        << std::string(
               R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"cores","operator":"Gt","values":["8"]}]}]}}}})")
        << true;
}

void TestKubeObjects::requiredAffinity()
{
    QFETCH(std::string, podSpec);
    QFETCH(bool, fits);
    kube::Node node;
    node.metadata.name = "node-1";
    node.metadata.labels = {{"zone", "a"}, {"pool", "general"}, {"cores", "16"}};
    const Json spec = Json::parse(podSpec);
    QCOMPARE(kube::nodeSelectorMatches(spec, node) && kube::requiredAffinityMatches(spec, node), fits);
}

void TestKubeObjects::daemonSetRoundTripKeepsUnknownFields()
{
    const Json in = Json::parse(R"({"apiVersion":"apps/v1","kind":"DaemonSet",
      "metadata":{"name":"web","namespace":"default","uid":"u-1","resourceVersion":"42","generation":3,
                  "creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"web"},
                  "annotations":{"deprecated.daemonset.template.generation":"3"},
                  "managedFields":[{"manager":"kubectl","operation":"Update"}]},
      "spec":{"selector":{"matchLabels":{"app":"web"}},"futureField":{"x":1},
              "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i:1"}]}}},
      "status":{"currentNumberScheduled":2,"numberMisscheduled":0,"desiredNumberScheduled":2,"numberReady":2,
                "observedGeneration":3,"updatedNumberScheduled":2,"numberAvailable":2,"collisionCount":0},
      "someNewTopLevel":"kept"})");
    auto ds = kube::DaemonSet::fromJson(in);
    QVERIFY(ds.ok());
    QCOMPARE(ds->metadata.generation, std::int64_t(3));
    QCOMPARE(ds->templateGeneration().value_or(-1), std::int64_t(3));
    QCOMPARE(ds->status.collisionCount.value_or(-1), 0);
    QCOMPARE(ds->toJson(), in);
}

void TestKubeObjects::badInputGivesMessages_data()
{
    QTest::addColumn<std::string>("json");
    QTest::addColumn<std::string>("fragment");
    QTest::newRow("labels must be strings")
        << std::string(R"({"metadata":{"name":"x","labels":{"a":1}}})") << std::string("metadata.labels.a");
    QTest::newRow("generation must be an integer")
        << std::string(R"({"metadata":{"name":"x","generation":"2"}})") << std::string("metadata.generation");
    QTest::newRow("creation time must be RFC 3339")
        << std::string(R"({"metadata":{"name":"x","creationTimestamp":"yesterday"}})")
        << std::string("creationTimestamp");
    QTest::newRow("spec must be an object")
        << std::string(R"({"metadata":{"name":"x"},"spec":[]})") << std::string("spec");
    QTest::newRow("template must be an object")
        << std::string(R"({"metadata":{"name":"x"},"spec":{"template":3}})") << std::string("spec.template");
    QTest::newRow("status counters must be integers")
        << std::string(R"({"metadata":{"name":"x"},"status":{"numberReady":"all"}})")
        << std::string("status.numberReady");
    QTest::newRow("selector operator must be known")
        << std::string(
               R"({"metadata":{"name":"x"},"spec":{"selector":{"matchExpressions":[{"key":"a","operator":"Near"}]}}})")
        << std::string("operator");
    QTest::newRow("owner references must be a list")
        << std::string(R"({"metadata":{"name":"x","ownerReferences":{"kind":"X"}}})")
        << std::string("ownerReferences");
}

void TestKubeObjects::badInputGivesMessages()
{
    QFETCH(std::string, json);
    QFETCH(std::string, fragment);
    auto ds = kube::DaemonSet::fromJson(Json::parse(json));
    QVERIFY(!ds.ok());
    QVERIFY2(ds.error().message.find(fragment) != std::string::npos, ds.error().message.c_str());
}

void TestKubeObjects::podRoundTripPinsNode()
{
    const Json in = Json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"web-abcde","namespace":"default","labels":{"controller-revision-hash":"5f7d9c8b4"}},
      "spec":{"containers":[{"name":"c","image":"i:1"}],
              "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-7"]}]}]}}}},
      "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:10Z"}]}})");
    auto pod = kube::Pod::fromJson(in);
    QVERIFY(pod.ok());
    QCOMPARE(pod->targetNode, std::string("node-7"));
    QCOMPARE(pod->node(), std::string("node-7"));
    QVERIFY(pod->ready);
    QVERIFY(!pod->spec->contains("affinity")); // the pin is per pod, the shared spec stays generic
    const kube::Timestamp t10 = *kube::parseRfc3339("2026-01-01T00:00:10Z");
    QVERIFY(pod->isAvailable(0, t10));
    QVERIFY(!pod->isAvailable(5, t10 + 4999));
    QVERIFY(pod->isAvailable(5, t10 + 5000)); // boundary: lastTransitionTime + minReadySeconds <= now
    auto again = kube::Pod::fromJson(pod->toJson());
    QVERIFY(again.ok());
    QCOMPARE(again->targetNode, std::string("node-7"));
    QCOMPARE(again->metadata.labels, pod->metadata.labels);

    // Restarts are the pod's total over its containers, and stay that total through encode/decode.
    Json multi = in;
    multi["spec"]["containers"] =
        Json::parse(R"([{"name":"a","image":"i:1"},{"name":"b","image":"i:1"},{"name":"c","image":"i:1"}])");
    multi["status"]["containerStatuses"] = Json::parse(
        R"([{"name":"a","restartCount":2},{"name":"b","restartCount":0},{"name":"c","restartCount":3}])");
    auto three = kube::Pod::fromJson(multi);
    QVERIFY(three.ok());
    QCOMPARE(three->restartCount, 5);
    for (int round = 0; round < 3; ++round) {
        three = kube::Pod::fromJson(three->toJson());
        QVERIFY(three.ok());
        QCOMPARE(three->restartCount, 5);
    }
}

void TestKubeObjects::nodeAndEventRoundTrip()
{
    kube::Node n;
    n.metadata.name = "node-1";
    n.kubeletVersion = "v1.0.0";
    n.taints.push_back({"dedicated", "infra", "NoSchedule"});
    n.setCondition({"Ready", "True", "KubeletReady", "", 1000});
    n.setCondition({"Ready", "True", "KubeletReady", "", std::nullopt}); // same status keeps the time
    QCOMPARE(n.conditions.size(), std::size_t(1));
    QCOMPARE(n.conditions[0].lastTransitionTime.value_or(0), kube::Timestamp(1000));
    auto back = kube::Node::fromJson(n.toJson());
    QVERIFY(back.ok());
    QVERIFY(back->isReady());
    QCOMPARE(back->taints, n.taints);
    QCOMPARE(back->kubeletVersion, std::string("v1.0.0"));

    kube::Event e;
    e.metadata.name = "web.1";
    e.involvedObject = {"Pod", "default", "web", "u", "v1", "spec.containers{web}"};
    e.reason = "SuccessfulCreate";
    e.message = "Created pod: web-abcde";
    e.count = 3;
    auto eb = kube::Event::fromJson(e.toJson());
    QVERIFY(eb.ok());
    QCOMPARE(eb->involvedObject, e.involvedObject);
    QCOMPARE(eb->count, 3);
}

void TestKubeObjects::controllerRevisionDataIsCanonical()
{
    const Json in =
        Json::parse(R"({"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"web-1"},
        "revision":2,"data":{"spec":{"template":{"spec":{"b":1,"a":"<x>"},"$patch":"replace"}}}})");
    auto cr = kube::ControllerRevision::fromJson(in);
    QVERIFY(cr.ok());
    QCOMPARE(cr->data,
             std::string(R"({"spec":{"template":{"$patch":"replace","spec":{"a":"\u003cx\u003e","b":1}}}})"));
    Json asText = in;
    asText["data"] = in["data"].dump(2);
    auto cr2 = kube::ControllerRevision::fromJson(asText);
    QVERIFY(cr2.ok());
    QCOMPARE(cr2->data, cr->data);
    asText["data"] = "{not json";
    QVERIFY(!kube::ControllerRevision::fromJson(asText).ok());
}

void TestKubeObjects::timeParsing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<bool>("valid");
    QTest::newRow("UTC") << QStringLiteral("2026-01-01T00:00:00Z") << qint64(1767225600000) << true;
    QTest::newRow("fraction") << QStringLiteral("2026-01-01T00:00:00.250Z") << qint64(1767225600250) << true;
    QTest::newRow("offset") << QStringLiteral("2026-01-01T01:00:00+01:00") << qint64(1767225600000) << true;
    QTest::newRow("missing zone") << QStringLiteral("2026-01-01T00:00:00") << qint64(0) << false;
    QTest::newRow("garbage") << QStringLiteral("soon") << qint64(0) << false;
    QTest::newRow("month 13") << QStringLiteral("2026-13-01T00:00:00Z") << qint64(0) << false;
    // The canonical form is read directly; the lenient forms sscanf accepts still parse.
    QTest::newRow("lower-case t") << QStringLiteral("2026-01-01t00:00:00z") << qint64(1767225600000) << true;
    QTest::newRow("space") << QStringLiteral("2026-01-01 00:00:00Z") << qint64(1767225600000) << true;
    QTest::newRow("one-digit month") << QStringLiteral("2026-1-01T00:00:00Z") << qint64(0) << false;
    QTest::newRow("leap second") << QStringLiteral("2016-12-31T23:59:60Z") << qint64(1483228800000) << true;
    QTest::newRow("hour 24") << QStringLiteral("2026-01-01T24:00:00Z") << qint64(0) << false;
    QTest::newRow("third digit of seconds") << QStringLiteral("2026-01-01T00:00:001Z") << qint64(0) << false;
    QTest::newRow("year 1") << QStringLiteral("0001-01-01T00:00:00Z") << qint64(-62135596800000) << true;
    QTest::newRow("negative offset") << QStringLiteral("2025-12-31T23:30:00-00:30") << qint64(1767225600000)
                                     << true;
}

void TestKubeObjects::timeFormatting_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");
    QTest::newRow("epoch") << qint64(0) << QStringLiteral("1970-01-01T00:00:00Z");
    QTest::newRow("milliseconds dropped") << qint64(1767225600999) << QStringLiteral("2026-01-01T00:00:00Z");
    QTest::newRow("end of a day") << qint64(1767225599000) << QStringLiteral("2025-12-31T23:59:59Z");
    QTest::newRow("before the epoch") << qint64(-1) << QStringLiteral("1969-12-31T23:59:59Z");
    QTest::newRow("leap day") << qint64(1709164800000) << QStringLiteral("2024-02-29T00:00:00Z");
    QTest::newRow("year 1") << qint64(-62135596800000) << QStringLiteral("0001-01-01T00:00:00Z");
    QTest::newRow("year 10000") << qint64(253402300800000) << QStringLiteral("10000-01-01T00:00:00Z");
}

void TestKubeObjects::timeFormatting()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(kube::formatRfc3339(ms)), text);
}

void TestKubeObjects::timeParsing()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);
    QFETCH(bool, valid);
    auto t = kube::parseRfc3339(text.toStdString());
    QCOMPARE(t.ok(), valid);
    if (valid) {
        QCOMPARE(*t, ms);
        QCOMPARE(kube::parseRfc3339(kube::formatRfc3339(*t)).value() / 1000, ms / 1000);
    }
}

void TestKubeObjects::durations_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");
    QTest::newRow("seconds") << QStringLiteral("30s") << qint64(30000);
    QTest::newRow("minutes") << QStringLiteral("10m") << qint64(600000);
    QTest::newRow("compound") << QStringLiteral("1h30m") << qint64(5400000);
    QTest::newRow("milliseconds") << QStringLiteral("250ms") << qint64(250);
    QTest::newRow("fraction") << QStringLiteral("1.5s") << qint64(1500);
    QTest::newRow("no unit is invalid") << QStringLiteral("30") << qint64(-1);
    QTest::newRow("unknown unit is invalid") << QStringLiteral("3w") << qint64(-1);
    QTest::newRow("a fraction of a millisecond rounds half up") << QStringLiteral("0.0005s") << qint64(1);
    QTest::newRow("a fraction without a whole part") << QStringLiteral(".25m") << qint64(15000);
    QTest::newRow("many fraction digits") << QStringLiteral("1.00000000000000000000001s") << qint64(1000);
    QTest::newRow("a hundred years is the longest") << QStringLiteral("36500d") << qint64(3153600000000);
    QTest::newRow("a millisecond more is too long") << QStringLiteral("36500d1ms") << qint64(-2);
    QTest::newRow("beyond the int64 range is too long")
        << QStringLiteral("10000000000000000000ms") << qint64(-2);
    QTest::newRow("far beyond the int64 range")
        << QStringLiteral("99999999999999999999999999999h") << qint64(-2);
    QTest::newRow("a sum that overflows is too long")
        << QStringLiteral("9223372036854775807ms9223372036854775807ms") << qint64(-2);
    QTest::newRow("a bad unit after a huge number is a syntax error")
        << QStringLiteral("99999999999999999999999w") << qint64(-1);
}

void TestKubeObjects::durations()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);
    auto d = kube::parseDuration(text.toStdString());
    if (ms < 0) {
        QVERIFY(!d.ok());
        QVERIFY(d.error().message.find(text.toStdString()) != std::string::npos);
        // Malformed text is a bad request; a well-formed duration that is too long is Invalid.
        QCOMPARE(d.error().reason, std::string(ms == -2 ? "Invalid" : "BadRequest"));
        if (ms == -2)
            QVERIFY2(d.error().message.find("out of range") != std::string::npos, d.error().message.c_str());
    } else {
        QVERIFY(d.ok());
        QCOMPARE(*d, ms);
    }
}

void TestKubeObjects::formatsEveryDuration()
{
    QCOMPARE(kube::formatDuration(0), std::string("0ms"));
    QCOMPARE(kube::formatDuration(-1500), std::string("-1.5s"));
    QCOMPARE(kube::formatDuration(std::numeric_limits<kube::Duration>::max()),
             std::string("2562047788015h12m55s"));
    QCOMPARE(kube::formatDuration(std::numeric_limits<kube::Duration>::min()),
             std::string("-2562047788015h12m55s"));
    QCOMPARE(kube::formatDuration(kube::kMaxDuration), std::string("876000h0m0s"));
    // What parseDuration accepts, formatDuration writes back to the same value.
    for (const char *text : {"250ms", "1.5s", "90s", "1h30m", "36500d", "59.999s"})
        QCOMPARE(kube::parseDuration(kube::formatDuration(kube::parseDuration(text).value())).value(),
                 kube::parseDuration(text).value());
}

// Every decoder gets bodies whose fields have the wrong JSON type; each must answer with a
// value or an error, never an exception (or undefined behaviour under the sanitizers).
void TestKubeObjects::decodersNeverThrowOnWrongTypes_data()
{
    QTest::addColumn<std::string>("json");
    const char *const bodies[] = {
        R"({"metadata":{"name":"x"},"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{}}}}})",
        R"({"metadata":{"name":"x"},"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[5]}}}}})",
        R"({"metadata":{"name":"x"},"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[7]}]}}}}})",
        R"({"metadata":{"name":"x"},"spec":{"affinity":{"nodeAffinity":[]}}})",
        R"({"metadata":{"name":"x"},"spec":{"affinity":3}})",
        R"({"metadata":{"name":"x"},"spec":{"unschedulable":"yes","taints":[{"key":1}],"containers":[null,{"name":5}]}})",
        R"({"metadata":{"name":"x"},"spec":{"updateStrategy":{"type":5},"minReadySeconds":"a","revisionHistoryLimit":1e30,"replicas":"3","hostNetwork":"yes"}})",
        R"({"metadata":{"name":"x"},"status":{"conditions":[{"type":1,"status":[]},"Ready"],"containerStatuses":[{"restartCount":"many","state":{"waiting":5}},{"restartCount":2147483647},{"restartCount":2147483647}],"nodeInfo":{"kubeletVersion":1},"allocatable":{"pods":99999999999}}})",
        R"({"metadata":{"name":"x"},"status":{"replicas":"all","readyReplicas":1e99,"observedGeneration":"1","collisionCount":99999999999}})",
        R"({"metadata":{"name":"x"},"involvedObject":{"kind":1,"name":[]},"reason":5,"message":{},"type":null,"count":"7","source":{"component":3}})",
        R"({"metadata":{"name":"x"},"spec":{"updateStrategy":{"rollingUpdate":{"maxUnavailable":99999999999,"maxSurge":[]}}}})",
        R"({"metadata":{"name":"x"},"revision":"three","data":"{not json"})",
        R"({"metadata":5})",
        R"([1, 2])",
        R"("text")",
        R"(null)",
    };
    int i = 0;
    for (const char *body : bodies)
        QTest::newRow(("body " + std::to_string(i++)).c_str()) << std::string(body);
}

void TestKubeObjects::decodersNeverThrowOnWrongTypes()
{
    QFETCH(std::string, json);
    Json body = Json::parse(json);
    try {
        (void)kube::Pod::fromJson(body);
        (void)kube::Node::fromJson(body);
        (void)kube::Event::fromJson(body);
        (void)kube::ReplicaSet::fromJson(body);
        (void)kube::ControllerRevision::fromJson(body);
        if (auto ds = kube::DaemonSet::fromJson(body)) {
            (void)ds->updateStrategyType();
            (void)ds->minReadySeconds();
            (void)ds->revisionHistoryLimit();
            (void)ds->maxUnavailable();
            (void)ds->maxSurge();
        }
        (void)kube::fieldTypeErrors(body);
        Json defaulted = body;
        kube::applyDaemonSetDefaults(defaulted);
        kube::applyReplicaSetDefaults(defaulted);
        if (body.is_object() && body.contains("spec") && body["spec"].is_object()) {
            kube::Node node;
            (void)kube::requiredAffinityMatches(body["spec"], node);
            (void)kube::nodeSelectorMatches(body["spec"], node);
        }
    } catch (const std::exception &e) {
        QFAIL(e.what());
    }
}

void TestKubeObjects::podWithEmptyRequiredAffinity()
{
    const Json in =
        Json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{}}},
              "containers":[{"name":"a","image":"x"}]}})");
    auto p = kube::Pod::fromJson(in);
    QVERIFY(p.ok());
    QVERIFY(p->targetNode.empty());
    QCOMPARE((*p->spec)["affinity"], in["spec"]["affinity"]); // kept as it was
}

void TestKubeObjects::fieldTypesLikeTheApiServer_data()
{
    QTest::addColumn<std::string>("json");
    QTest::addColumn<std::string>("pointer");
    QTest::addColumn<std::string>("text");
    QTest::newRow("a revision that is a word")
        << std::string(R"({"kind":"ControllerRevision","metadata":{"name":"r"},"revision":"three"})")
        << std::string("/revision")
        << std::string(R"(revision: Invalid value: "three": must be a 64-bit integer)");
    QTest::newRow("containers that are a map")
        << std::string(R"({"kind":"DaemonSet","spec":{"template":{"spec":{"containers":{"a":{}}}}}})")
        << std::string("/spec/template/spec/containers")
        << std::string(R"(spec.template.spec.containers: Invalid value: {"a":{}}: must be a list)");
    QTest::newRow("a replica count beyond int32")
        << std::string(R"({"kind":"Deployment","spec":{"replicas":3000000000}})")
        << std::string("/spec/replicas")
        << std::string("spec.replicas: Invalid value: 3000000000: must be a 32-bit integer");
    QTest::newRow("a fractional port")
        << std::string(
               R"({"kind":"Pod","spec":{"containers":[{"name":"a","ports":[{"containerPort":80.5}]}]}})")
        << std::string("/spec/containers/0/ports/0/containerPort")
        << std::string(
               "spec.containers[0].ports[0].containerPort: Invalid value: 80.5: must be a 32-bit integer");
    QTest::newRow("a label that is a number")
        << std::string(R"({"kind":"Node","metadata":{"labels":{"a/b":1}}})")
        << std::string("/metadata/labels/a~1b")
        << std::string("metadata.labels[a/b]: Invalid value: 1: must be a string");
    QTest::newRow("a taint effect that is a list")
        << std::string(R"({"kind":"Node","spec":{"taints":[{"key":"k","effect":["NoSchedule"]}]}})")
        << std::string("/spec/taints/0/effect")
        << std::string(R"(spec.taints[0].effect: Invalid value: ["NoSchedule"]: must be a string)");
    QTest::newRow("null and integral doubles are fine")
        << std::string(
               R"({"kind":"DaemonSet","spec":{"minReadySeconds":5.0,"selector":null,"template":{"spec":{"containers":[null]}}}})")
        << std::string() << std::string();
}

void TestKubeObjects::fieldTypesLikeTheApiServer()
{
    QFETCH(std::string, json);
    QFETCH(std::string, pointer);
    QFETCH(std::string, text);
    const auto errors = kube::fieldTypeErrors(Json::parse(json));
    if (text.empty()) {
        QVERIFY(errors.empty());
        return;
    }
    QCOMPARE(errors.size(), std::size_t(1));
    QCOMPARE(errors.front().pointer, pointer);
    QCOMPARE(errors.front().text(), text);
}

namespace {

kube::Pod podFrom(const Json &spec, const std::string &nodeName, const std::string &targetNode)
{
    kube::Pod p;
    p.metadata.name = "agent-x";
    p.metadata.namespace_ = "kube-system";
    p.metadata.labels = {{"app", "agent"}, {"pod-template-generation", "2"}};
    if (!spec.is_null())
        p.spec = std::make_shared<const Json>(spec);
    p.nodeName = nodeName;
    p.targetNode = targetNode;
    return p;
}

} // namespace

void TestKubeObjects::podWriterPrintsWhatThePodsTreePrints_data()
{
    QTest::addColumn<std::string>("spec"); // JSON; "null": no spec
    QTest::addColumn<std::string>("nodeName");
    QTest::addColumn<std::string>("targetNode");
    const std::string containers = R"({"containers":[{"name":"agent","image":"agent:1"}],)"
                                   R"("tolerations":[{"operator":"Exists"}]})";
    QTest::newRow("no spec") << std::string("null") << std::string() << std::string();
    QTest::newRow("no spec, bound and pinned")
        << std::string("null") << std::string("n1") << std::string("n1");
    QTest::newRow("empty spec, pinned") << std::string("{}") << std::string() << std::string("n1");
    QTest::newRow("template, pending") << containers << std::string() << std::string("node-7");
    QTest::newRow("template, bound") << containers << std::string("node-7") << std::string("node-7");
    QTest::newRow("bound, not pinned") << containers << std::string("node-7") << std::string();
    QTest::newRow("own affinity kept beside the pin")
        << std::string(
               R"({"affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[]},)"
               R"("podAntiAffinity":{"x":1}},"containers":[]})")
        << std::string("n2") << std::string("n2");
    QTest::newRow("own affinity, not pinned")
        << std::string(R"({"affinity":{"podAffinity":{}},"containers":[]})") << std::string("n2")
        << std::string();
    QTest::newRow("own nodeName replaced")
        << std::string(R"({"nodeName":"old","zone":"z"})") << std::string("new") << std::string();
    QTest::newRow("own nodeName kept when unbound")
        << std::string(R"({"nodeName":"old","zone":"z"})") << std::string() << std::string();
    QTest::newRow("keys around both places")
        << std::string(R"({"activeDeadlineSeconds":5,"aa":1,"b":2,"nodeSelector":{"k":"v"},"zz":[1,2]})")
        << std::string("n3") << std::string("n3");
    QTest::newRow("keys only after both")
        << std::string(R"({"x":1})") << std::string("n4") << std::string("n4");
    QTest::newRow("keys only before both")
        << std::string(R"({"a":1})") << std::string("n4") << std::string("n4");
    QTest::newRow("names that Go escapes")
        << containers << std::string("<n&5>\u2028") << std::string("<n&5>");
}

void TestKubeObjects::podWriterPrintsWhatThePodsTreePrints()
{
    QFETCH(std::string, spec);
    QFETCH(std::string, nodeName);
    QFETCH(std::string, targetNode);
    const Json specJson = Json::parse(spec);
    kube::Pod pod = podFrom(specJson, nodeName, targetNode);
    kube::Pod crashing = pod;
    crashing.phase = "Running";
    crashing.waitingReason = "CrashLoopBackOff";
    crashing.restartCount = 3;
    crashing.readyTransitionTime = 1700000000000;
    crashing.startTime = 1690000000000;
    crashing.metadata.name = "agent-y";
    crashing.nodeName = nodeName.empty() ? std::string() : nodeName + "-b";
    crashing.targetNode = targetNode.empty() ? std::string() : targetNode + "-b";

    // One writer for both pods: the second one reuses the first one's encoded spec.
    kube::PodJsonWriter writer;
    for (const kube::Pod *p : {&pod, &crashing, &pod}) {
        std::string written;
        writer.append(written, *p);
        QCOMPARE(written, kube::goJson(p->toJson()));
    }
    // A writer holds the specs it encoded: a spec freed by its pods cannot leave its address to
    // a new spec that the writer would then take for the old one.
    kube::PodJsonWriter keeps;
    std::string ignored;
    {
        const kube::Pod gone = podFrom(Json{{"a", 1}}, nodeName, targetNode);
        keeps.append(ignored, gone);
    }
    const kube::Pod fresh = podFrom(Json{{"b", 2}}, nodeName, targetNode);
    std::string written;
    keeps.append(written, fresh);
    QCOMPARE(written, kube::goJson(fresh.toJson()));
}

QTEST_APPLESS_MAIN(TestKubeObjects)
#include "tst_kubeobjects.moc"
