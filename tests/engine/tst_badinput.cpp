// Hostile and malformed input through the engine's front doors: the API (DaemonSets whose fields
// have the wrong JSON type, object names the API server refuses, oversized annotations), the
// scenario parser (durations out of range) and the `sim run` / `history --scenario` commands,
// which must exit 2 naming FILE:LINE:COLUMN instead of aborting.

#include "models/api/validation.h"
#include "models/scenario/scenarioparser.h"
#include "models/sim/cluster.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using kube::Json;
using namespace sim;
using namespace scenario;
using namespace api;

namespace {

ClusterOptions stepped()
{
    ClusterOptions o;
    o.seed = 1;
    o.mode = Mode::Stepped;
    o.start = 1767225600000; // 2026-01-01T00:00:00Z
    return o;
}

Json webDs()
{
    return {{"apiVersion", "apps/v1"},
            {"kind", "DaemonSet"},
            {"metadata", {{"name", "web"}, {"namespace", "default"}}},
            {"spec",
             {{"selector", {{"matchLabels", {{"app", "web"}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", "web"}}}}},
                {"spec", {{"containers", Json::array({{{"name", "nginx"}, {"image", "nginx:1.19"}}})}}}}}}}};
}

// A scenario with one DaemonSet whose template spec is `podSpec` (YAML flow text) and `steps`
// (`run` and `advance` need the continuous mode, `sync` the stepped one).
std::string scenarioText(const std::string &podSpec, const std::string &steps)
{
    const bool continuous = steps.find("- sync:") == std::string::npos;
    return "name: bad input\n"
           "mode: " +
           std::string(continuous ? "continuous" : "stepped") +
           "\n"
           "cluster:\n"
           "  nodes: [{count: 2}]\n"
           "  objects:\n"
           "    - apiVersion: apps/v1\n"
           "      kind: DaemonSet\n"
           "      metadata: {name: web, namespace: default}\n"
           "      spec:\n"
           "        selector: {matchLabels: {app: web}}\n"
           "        template:\n"
           "          metadata: {labels: {app: web}}\n"
           "          spec: " +
           podSpec +
           "\n"
           "steps:\n" +
           steps;
}

const std::string kGoodPodSpec = "{containers: [{name: web, image: \"nginx:1.0\"}]}";

struct Run
{
    int exitCode = -1; // -1: crashed or timed out
    QString err;
};

Run runBinary(const QStringList &arguments)
{
    QProcess p;
    p.start(qEnvironmentVariable("DAEMONSCOPE_BINARY"), arguments);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestBadInput : public QObject
{
    Q_OBJECT

private slots:
    void wrongTypesAreFieldErrors_data();
    void wrongTypesAreFieldErrors();
    void namesAreValidatedLikeTheApiServer_data();
    void namesAreValidatedLikeTheApiServer();
    void annotationsHaveATotalSizeLimit();
    void dnsNamesOfTheRightShapePass();
    void everyKindsNamesAreValidated();
    void patchesWithWrongTypesAreInvalid();
    void durationsOutOfRangeAreNamedAtTheField_data();
    void durationsOutOfRangeAreNamedAtTheField();
    void nodeCountsAreBounded();
    void upgradeStepsFollowTheRolloutSchema_data();
    void upgradeStepsFollowTheRolloutSchema();
    void commandsExitTwoOnBadScenarios_data();
    void commandsExitTwoOnBadScenarios();
};

void TestBadInput::wrongTypesAreFieldErrors_data()
{
    QTest::addColumn<QByteArray>("podSpec");
    QTest::addColumn<QByteArray>("message");
    const auto row = [](const char *name, const char *podSpec, const char *message) {
        QTest::newRow(name) << QByteArray(podSpec) << QByteArray(message);
    };
    row("a container name that is a number", R"({"containers": [{"name": 5, "image": "x"}]})",
        "spec.template.spec.containers[0].name: Invalid value: 5: must be a string");
    row("a container that is null is a container without name and image", R"({"containers": [null]})",
        "[spec.template.spec.containers[0].name: Required value, spec.template.spec.containers[0].image: "
        "Required "
        "value]");
    row("a container that is a string", R"({"containers": ["web"]})",
        "spec.template.spec.containers[0]: Invalid value: \"web\": must be an object");
    row("a restart policy that is a map",
        R"({"containers": [{"name": "a", "image": "x"}], "restartPolicy": {"a": 1}})",
        "spec.template.spec.restartPolicy: Invalid value: {\"a\":1}: must be a string");
    row("containers given as a map", R"({"containers": {"web": {"image": "x"}}})",
        "spec.template.spec.containers: Invalid value: {\"web\":{\"image\":\"x\"}}: must be a list");
    row("an image that is a list", R"({"containers": [{"name": "a", "image": ["x"]}]})",
        "spec.template.spec.containers[0].image: Invalid value: [\"x\"]: must be a string");
    row("a host network flag that is a string",
        R"({"containers": [{"name": "a", "image": "x"}], "hostNetwork": "yes"})",
        "spec.template.spec.hostNetwork: Invalid value: \"yes\": must be a boolean");
    row("a node selector value that is a number",
        R"({"containers": [{"name": "a", "image": "x"}], "nodeSelector": {"zone": 1}})",
        "spec.template.spec.nodeSelector[zone]: Invalid value: 1: must be a string");
}

void TestBadInput::wrongTypesAreFieldErrors()
{
    QFETCH(QByteArray, podSpec);
    QFETCH(QByteArray, message);
    Cluster c(stepped());
    Json ds = webDs();
    ds["spec"]["template"]["spec"] = Json::parse(podSpec.toStdString());
    const auto r = c.create(ds);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 422);
    QCOMPARE(r.error().reason, std::string("Invalid"));
    QCOMPARE(r.error().message, "DaemonSet.apps \"web\" is invalid: " + message.toStdString());
}

void TestBadInput::namesAreValidatedLikeTheApiServer_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("ns");
    QTest::addColumn<QByteArray>("message");
    const QByteArray subdomain =
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const QByteArray label =
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
        "start "
        "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    QTest::newRow("a slash") << QByteArray("a/b") << QByteArray("default")
                             << "DaemonSet.apps \"a/b\" is invalid: metadata.name: Invalid value: \"a/b\": " +
                                    subdomain;
    QTest::newRow("two dots") << QByteArray("..") << QByteArray("default")
                              << "DaemonSet.apps \"..\" is invalid: metadata.name: Invalid value: \"..\": " +
                                     subdomain;
    QTest::newRow("one dot") << QByteArray(".") << QByteArray("default")
                             << "DaemonSet.apps \".\" is invalid: metadata.name: Invalid value: \".\": " +
                                    subdomain;
    QTest::newRow("upper case")
        << QByteArray("UPPER") << QByteArray("default")
        << "DaemonSet.apps \"UPPER\" is invalid: metadata.name: Invalid value: \"UPPER\": " + subdomain;
    QTest::newRow("a namespace that climbs directories")
        << QByteArray("web") << QByteArray("../../x")
        << "DaemonSet.apps \"web\" is invalid: metadata.namespace: Invalid value: \"../../x\": " + label;
    QTest::newRow("a namespace with dots")
        << QByteArray("web") << QByteArray("a.b")
        << QByteArray(
               "DaemonSet.apps \"web\" is invalid: metadata.namespace: Invalid value: \"a.b\": must not "
               "contain dots");
}

void TestBadInput::namesAreValidatedLikeTheApiServer()
{
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, ns);
    QFETCH(QByteArray, message);
    Cluster c(stepped());
    Json ds = webDs();
    ds["metadata"] = {{"name", name.toStdString()}, {"namespace", ns.toStdString()}};
    const auto r = c.create(ds);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 422);
    QCOMPARE(r.error().message, message.toStdString());
}

void TestBadInput::annotationsHaveATotalSizeLimit()
{
    Cluster c(stepped());
    Json ds = webDs();
    ds["metadata"]["annotations"] = {{"a", std::string(262144 - 1, 'x')}};
    QVERIFY(c.create(ds).ok()); // exactly 262144 bytes with the key
    ds["metadata"]["name"] = "web2";
    ds["metadata"]["annotations"] = {{"a", std::string(262144, 'x')}};
    const auto r = c.create(ds);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 422);
    QCOMPARE(
        r.error().message,
        std::string("DaemonSet.apps \"web2\" is invalid: metadata.annotations: Too long: must have at most "
                    "262144 bytes"));

    // A name of 100,000 characters is both too long and (for the message) shortened.
    ds["metadata"]["annotations"] = Json::object();
    ds["metadata"]["name"] = std::string(100'000, 'a');
    const auto longName = c.create(ds);
    QVERIFY(!longName.ok());
    QCOMPARE(longName.error().code, 422);
    QVERIFY2(longName.error().message.find("metadata.name: Invalid value: \"" + std::string(256, 'a') +
                                           "\"... (100000 bytes): must be no more than 253 characters") !=
                 std::string::npos,
             longName.error().message.substr(0, 400).c_str());
    // The object's name heads the message once, as upstream; the field errors show it shortened.
    QVERIFY(longName.error().message.size() < 100'000 + 2000);
}

void TestBadInput::dnsNamesOfTheRightShapePass()
{
    QVERIFY(dns1123SubdomainErrors("web").empty());
    QVERIFY(dns1123SubdomainErrors("node-1.zone-a.example.com").empty());
    QVERIFY(dns1123SubdomainErrors(std::string(253, 'a')).empty());
    QCOMPARE(dns1123SubdomainErrors(std::string(254, 'a')).size(), std::size_t(1));
    QVERIFY(!dns1123SubdomainErrors("-web").empty());
    QVERIFY(!dns1123SubdomainErrors("web-").empty());
    QVERIFY(!dns1123SubdomainErrors("a..b").empty());
    QVERIFY(!dns1123SubdomainErrors("").empty());
    QVERIFY(dns1123LabelErrors("kube-system").empty());
    QVERIFY(dns1123LabelErrors(std::string(63, 'a')).empty());
    QCOMPARE(dns1123LabelErrors(std::string(64, 'a')),
             std::vector<std::string>{"must be no more than 63 characters"});
    // Namespaces are labels, Nodes subdomains.
    kube::ObjectMeta node;
    node.name = "ip-10-0-0-1.ec2.internal";
    QVERIFY(validateObjectMeta("Node", node, false, NameRule::Dns1123Subdomain).ok());
    kube::ObjectMeta ns;
    ns.name = "a.b";
    const auto r = validateObjectMeta("Namespace", ns, false, NameRule::Dns1123Label);
    QVERIFY(!r.ok());
    QCOMPARE(
        r.error().message,
        std::string(
            "Namespace \"a.b\" is invalid: metadata.name: Invalid value: \"a.b\": must not contain dots"));
}

void TestBadInput::everyKindsNamesAreValidated()
{
    Cluster c(stepped());
    const auto refused = [&](const Json &manifest, const std::string &fragment) {
        const auto r = c.create(manifest);
        if (r.ok())
            return std::string("created");
        if (r.error().code != 422 || r.error().message.find(fragment) == std::string::npos)
            return std::to_string(r.error().code) + " " + r.error().message;
        return std::string();
    };
    const Json pod = {{"apiVersion", "v1"},
                      {"kind", "Pod"},
                      {"spec", {{"containers", Json::array({{{"name", "c"}, {"image", "i:1"}}})}}}};
    Json p = pod;
    p["metadata"] = {{"name", "a/b"}};
    QCOMPARE(
        refused(
            p,
            "Pod \"a/b\" is invalid: metadata.name: Invalid value: \"a/b\": a lowercase RFC 1123 subdomain"),
        std::string());
    p["metadata"] = {{"name", "web"}, {"namespace", "../../x"}};
    QCOMPARE(refused(p, "metadata.namespace: Invalid value: \"../../x\": a lowercase RFC 1123 label"),
             std::string());
    p["metadata"] = {{"generateName", "Web-"}};
    QCOMPARE(refused(p, "metadata.generateName: Invalid value: \"Web-\""), std::string());
    p["metadata"] = {{"generateName", std::string(100, 'w') + "-"}}; // cut to 58 before the suffix
    QVERIFY(c.create(p).ok());
    QCOMPARE(refused({{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "UPPER"}}}},
                     "Node \"UPPER\" is invalid: metadata.name"),
             std::string());
    QCOMPARE(
        refused({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "a.b"}}}},
                "Namespace \"a.b\" is invalid: metadata.name: Invalid value: \"a.b\": must not contain dots"),
        std::string());
    QCOMPARE(refused({{"apiVersion", "apps/v1"},
                      {"kind", "ControllerRevision"},
                      {"metadata", {{"name", ".."}}},
                      {"revision", 1},
                      {"data", Json::object()}},
                     "ControllerRevision.apps \"..\" is invalid"),
             std::string());

    // An update may not grow the annotations past 256 KiB either.
    QVERIFY(
        c.create({{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "node-1.example"}}}}).ok());
    Json node = *c.get(Kind::Node, "", "node-1.example");
    node["metadata"]["annotations"] = {{"big", std::string(300 * 1024, 'x')}};
    const auto r = c.update(node);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 422);
    QVERIFY2(r.error().message.find("metadata.annotations: Too long") != std::string::npos,
             r.error().message.c_str());
    QVERIFY(
        c.get(Kind::Node, "", "node-1.example")->at("metadata").value("annotations", Json::object()).empty());
}

void TestBadInput::patchesWithWrongTypesAreInvalid()
{
    Cluster c(stepped());
    QVERIFY(c.create(webDs()).ok());
    const Json patch = {{"spec", {{"template", {{"spec", {{"restartPolicy", {{"a", 1}}}}}}}}}};
    for (PatchType type : {PatchType::Merge, PatchType::Strategic}) {
        const auto r = c.patch(Kind::DaemonSet, "default", "web", type, patch);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, 422);
        QCOMPARE(r.error().message, std::string("DaemonSet.apps \"web\" is invalid: "
                                                "spec.template.spec.restartPolicy: Invalid value: {\"a\":1}: "
                                                "must be a string"));
    }
    const Json nullContainer = {
        {"spec", {{"template", {{"spec", {{"containers", Json::array({nullptr})}}}}}}}};
    const auto r = c.patch(Kind::DaemonSet, "default", "web", PatchType::Merge, nullContainer);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 422);
}

void TestBadInput::durationsOutOfRangeAreNamedAtTheField_data()
{
    QTest::addColumn<QByteArray>("steps");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("a run timeout beyond the int64 range")
        << QByteArray("  - run: {until: rolloutComplete default/web, timeout: 10000000000000000000ms}\n")
        << QByteArray(
               "s.yaml:15:56: timeout: invalid duration \"10000000000000000000ms\": out of range (at most "
               "36500d, 100 years)");
    QTest::newRow("an advance longer than a century")
        << QByteArray("  - advance: 36501d\n")
        << QByteArray("s.yaml:15:14: advance: invalid duration \"36501d\": out of range (at most 36500d, 100 "
                      "years)");
}

void TestBadInput::durationsOutOfRangeAreNamedAtTheField()
{
    QFETCH(QByteArray, steps);
    QFETCH(QByteArray, message);
    const auto r = ScenarioParser::parseText(scenarioText(kGoodPodSpec, steps.toStdString()), "s.yaml");
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.rfind(message.toStdString(), 0) == 0, r.error().message.c_str());
}

// An upgrade step's spec is the NodeUpgradeRollout schema's (api::NodeUpgradeRolloutSpec): what
// the API server and the controller accept, the step accepts, and the schema's complaint is
// reported at the field it names. A misspelt key is refused against the schema's field lists.
void TestBadInput::upgradeStepsFollowTheRolloutSchema_data()
{
    QTest::addColumn<QByteArray>("fields");
    QTest::addColumn<QByteArray>("message"); // empty: accepted
    QTest::newRow("a policy written as the API server writes it is accepted")
        << QByteArray("unmanagedPodPolicy: Immediate") << QByteArray();
    QTest::newRow("an enumeration in lower case is accepted, as the API server accepts it")
        << QByteArray("singleReplicaPolicy: block, onDrainTimeout: skip") << QByteArray();
    QTest::newRow("every timeouts key the schema reads is accepted")
        << QByteArray(
               "timeouts: {drainStall: 1m, drainTimeout: 2m, replacementTimeout: 3m, terminationMargin: 4s, "
               "unmanagedTimeout: 5m, ackTimeout: 6m, ackRetries: 2, returnTimeout: 7m, soakDuration: 8s}")
        << QByteArray();
    QTest::newRow("an unknown policy value, at the value")
        << QByteArray("unmanagedPodPolicy: sometimes")
        << QByteArray(
               "s.yaml:15:75: upgrade: unmanagedPodPolicy must be Immediate, Never or {afterTimeout: D}, "
               "got \"sometimes\"");
    QTest::newRow("a budget of zero failed nodes, by the schema's bound")
        << QByteArray("maxFailedNodes: 0")
        << QByteArray("s.yaml:15:71: upgrade: maxFailedNodes must be an integer >= 1");
    QTest::newRow("a maintenance window that is not a map")
        << QByteArray("maintenanceWindow: 3")
        << QByteArray("s.yaml:15:74: upgrade: maintenanceWindow must be a map");
    QTest::newRow("a pause reason that is not a string")
        << QByteArray("pauseReason: 5") << QByteArray("s.yaml:15:68: upgrade: pauseReason must be a string");
    QTest::newRow("a node selector value that is not a string, at the value")
        << QByteArray("nodeSelector: {zone: 1}")
        << QByteArray("s.yaml:15:76: upgrade: field spec.nodeSelector.zone: expected a string");
    QTest::newRow("a budget that is neither a count nor a percentage, at the value")
        << QByteArray("maxUnavailable: lots")
        << QByteArray("s.yaml:15:71: upgrade: spec.maxUnavailable: Invalid value");
    QTest::newRow("a misspelt timeouts key")
        << QByteArray("timeouts: {drainTimout: 5m}")
        << QByteArray("s.yaml:15:66: unknown key \"drainTimout\" in timeouts (expected one of: drainStall, "
                      "drainTimeout, replacementTimeout, terminationMargin, unmanagedTimeout, ackTimeout, "
                      "ackRetries, "
                      "returnTimeout, soakDuration)");
    QTest::newRow("a key the schema does not have")
        << QByteArray("maxSurge: 1")
        << QByteArray("s.yaml:15:55: unknown key \"maxSurge\" in upgrade (expected one of: name, ");
}

void TestBadInput::upgradeStepsFollowTheRolloutSchema()
{
    QFETCH(QByteArray, fields);
    QFETCH(QByteArray, message);
    const std::string steps =
        "  - upgrade: {name: agents-v2, targetVersion: v2.0.0, " + fields.toStdString() + "}\n";
    const auto r = ScenarioParser::parseText(scenarioText(kGoodPodSpec, steps), "s.yaml");
    if (message.isEmpty()) {
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        return;
    }
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.rfind(message.toStdString(), 0) == 0, r.error().message.c_str());
}

// A scenario declares at most kMaxScenarioNodes nodes in all: more is refused at the count
// that goes over, at once (it used to build 873,082 node names first).
void TestBadInput::nodeCountsAreBounded()
{
    const std::string many =
        "mode: continuous\ncluster:\n  nodes: [{count: 873082}]\nsteps:\n  - advance: 1s\n";
    auto r = ScenarioParser::parseText(many, "s.yaml");
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.rfind("s.yaml:3:19: count is too large: a scenario has at most 100000 nodes",
                                     0) == 0,
             r.error().message.c_str());
    const std::string split =
        "mode: continuous\ncluster:\n  nodes: [{count: 60000}, {count: 40000, namePrefix: b-}]\n"
        "steps:\n  - addNodes: {count: 1, namePrefix: c-}\n";
    r = ScenarioParser::parseText(split, "s.yaml");
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.find("count is too large: a scenario has at most 100000 nodes (100000 defined "
                                    "before this spec)") != std::string::npos,
             r.error().message.c_str());
    const std::string exact =
        "mode: continuous\ncluster:\n  nodes: [{count: 60000}, {count: 40000, namePrefix: b-}]\n"
        "steps:\n  - advance: 1s\n";
    QVERIFY2(ScenarioParser::parseText(exact, "s.yaml").ok(), "100000 nodes in all are allowed");
}

void TestBadInput::commandsExitTwoOnBadScenarios_data()
{
    QTest::addColumn<QByteArray>("podSpec");
    QTest::addColumn<QByteArray>("steps");
    QTest::addColumn<QByteArray>("stderrPart");
    QTest::newRow("a timeout out of range")
        << QByteArray(kGoodPodSpec.c_str())
        << QByteArray("  - run: {until: rolloutComplete default/web, timeout: 10000000000000000000ms}\n")
        << QByteArray(":15:56: timeout: invalid duration");
    QTest::newRow("a container name that is a number")
        << QByteArray("{containers: [{name: 5, image: x}]}") << QByteArray("  - sync: default/web\n")
        << QByteArray("spec.template.spec.containers[0].name: Invalid value: 5: must be a string");
    QTest::newRow("a container that is null")
        << QByteArray("{containers: [null]}") << QByteArray("  - sync: default/web\n")
        << QByteArray("spec.template.spec.containers[0].name: Required value");
    QTest::newRow("a restart policy that is a map")
        << QByteArray("{containers: [{name: a, image: x}], restartPolicy: {a: 1}}")
        << QByteArray("  - sync: default/web\n")
        << QByteArray("spec.template.spec.restartPolicy: Invalid value: {\"a\":1}: must be a string");
}

void TestBadInput::commandsExitTwoOnBadScenarios()
{
    QFETCH(QByteArray, podSpec);
    QFETCH(QByteArray, steps);
    QFETCH(QByteArray, stderrPart);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("s.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(scenarioText(podSpec.toStdString(), steps.toStdString())));
    file.close();
    const QString part = QString::fromUtf8(stderrPart);
    const Run sim = runBinary({QStringLiteral("sim"), QStringLiteral("run"), path});
    QVERIFY2(sim.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(sim.exitCode).arg(sim.err)));
    QVERIFY2(sim.err.contains(path + QLatin1Char(':')) && sim.err.contains(part), qPrintable(sim.err));
    const Run history = runBinary(
        {QStringLiteral("history"), QStringLiteral("daemonset/web"), QStringLiteral("--scenario"), path});
    QVERIFY2(history.exitCode == 2,
             qPrintable(QStringLiteral("exit %1: %2").arg(history.exitCode).arg(history.err)));
    QVERIFY2(history.err.contains(part), qPrintable(history.err));
}

QTEST_APPLESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
