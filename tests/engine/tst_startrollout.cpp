// Starting a rollout, as pure decisions (api/startrollout.h): the PATCH bodies of kubectl set
// image, kubectl rollout restart and a strategy edit, their refusals, and the strategy edit of a
// DaemonSet the app paused (the saved strategy changes, it stays paused).
#include "models/api/kubectlrollout.h"
#include "models/api/startrollout.h"
#include "models/api/strategicmerge.h"

#include <QTest>

using kube::Json;
using namespace api;

Q_DECLARE_METATYPE(std::string)

namespace {

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

kube::DaemonSet makeDs(const Json &strategy = {{"type", "RollingUpdate"},
                                               {"rollingUpdate", {{"maxUnavailable", 1}, {"maxSurge", 0}}}})
{
    Json j = {{"apiVersion", "apps/v1"},
              {"kind", "DaemonSet"},
              {"metadata", {{"name", "web"}, {"namespace", "default"}, {"uid", "ds-uid"}}},
              {"spec",
               {{"selector", {{"matchLabels", {{"app", "web"}}}}},
                {"updateStrategy", strategy},
                {"template",
                 {{"metadata", {{"labels", {{"app", "web"}}}}},
                  {"spec",
                   {{"initContainers", Json::array({{{"name", "init"}, {"image", "busybox:1.36"}}})},
                    {"containers", Json::array({{{"name", "nginx"}, {"image", "nginx:1.27"}},
                                                {{"name", "sidecar"}, {"image", "envoy:1.30"}}})}}}}}}}};
    return *kube::DaemonSet::fromJson(j);
}

kube::DaemonSet paused(kube::DaemonSet ds)
{
    auto p = pausePatch(ds);
    auto applied = mergePatch(ds.toJson(), *p);
    return *kube::DaemonSet::fromJson(applied);
}

} // namespace

class TestStartRollout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void setImagePatches_data();
    void setImagePatches();
    void setImageAppliedChangesOnlyTheImage();
    void restartStampsTheTemplate();
    void restartRefusals();
    void strategyValidation_data();
    void strategyValidation();
    void strategyOfAPausedDaemonSetEditsTheSavedOneAndStaysPaused();
    void textBecomesIntOrString_data();
    void textBecomesIntOrString();
};

void TestStartRollout::setImagePatches_data()
{
    QTest::addColumn<QString>("images"); // "name=image;name=image"
    QTest::addColumn<QString>("patch");  // the patch's dump, or "error: ..." or "none"
    QTest::newRow("one container by name")
        << S("nginx=nginx:1.28")
        << S(R"({"spec":{"template":{"spec":{"containers":[{"image":"nginx:1.28","name":"nginx"}]}}}})");
    QTest::newRow("two containers keep the template's order")
        << S("sidecar=envoy:1.31;nginx=nginx:1.28")
        << S(R"({"spec":{"template":{"spec":{"containers":[{"image":"nginx:1.28","name":"nginx"},{"image":"envoy:1.31","name":"sidecar"}]}}}})");
    QTest::newRow("an init container goes in its own list")
        << S("init=busybox:1.37")
        << S(R"({"spec":{"template":{"spec":{"initContainers":[{"image":"busybox:1.37","name":"init"}]}}}})");
    QTest::newRow("an image already set is left out")
        << S("nginx=nginx:1.27;sidecar=envoy:1.31")
        << S(R"({"spec":{"template":{"spec":{"containers":[{"image":"envoy:1.31","name":"sidecar"}]}}}})");
    QTest::newRow("every image already set sends nothing") << S("nginx=nginx:1.27") << S("none");
    QTest::newRow("a star sets every container")
        << S("*=img:2")
        << S(R"({"spec":{"template":{"spec":{"containers":[{"image":"img:2","name":"nginx"},{"image":"img:2","name":"sidecar"}],"initContainers":[{"image":"img:2","name":"init"}]}}}})");
    QTest::newRow("a missing container fails the whole action")
        << S("nginx=nginx:1.28;web=nginx:1.28") << S(R"(error: unable to find container named "web")");
    QTest::newRow("an empty image is refused")
        << S("nginx=") << S(R"(error: invalid image update: "nginx=")");
}

void TestStartRollout::setImagePatches()
{
    QFETCH(QString, images);
    QFETCH(QString, patch);
    std::map<std::string, std::string> wanted;
    for (const QString &pair : images.split(QLatin1Char(';')))
        wanted[pair.section(QLatin1Char('='), 0, 0).toStdString()] =
            pair.section(QLatin1Char('='), 1).toStdString();
    const auto r = setImagePatch(makeDs(), wanted);
    if (patch.startsWith(QLatin1String("error: "))) {
        QVERIFY(!r);
        QCOMPARE(QString::fromStdString(r.error().message), patch.mid(7));
        return;
    }
    QVERIFY(r);
    if (patch == QLatin1String("none")) {
        QVERIFY(!*r);
        return;
    }
    QVERIFY(*r);
    QCOMPARE(QString::fromStdString((*r)->dump()), patch);
}

// Applied as the API server applies a strategic merge patch: the image changes, the other
// container and every other field stay.
void TestStartRollout::setImageAppliedChangesOnlyTheImage()
{
    const kube::DaemonSet ds = makeDs();
    const auto patch = setImagePatch(ds, {{"nginx", "nginx:1.28"}});
    QVERIFY(patch && *patch);
    const auto applied = strategicMergePatch(ds.toJson(), **patch);
    QVERIFY(applied);
    Json expected = ds.toJson();
    expected["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:1.28";
    QCOMPARE(QString::fromStdString(applied->dump()), QString::fromStdString(expected.dump()));
}

void TestStartRollout::restartStampsTheTemplate()
{
    const kube::DaemonSet ds = makeDs();
    const auto patch = restartPatch(ds, "2026-12-04T10:30:00Z");
    QVERIFY(patch);
    QCOMPARE(
        QString::fromStdString(patch->dump()),
        QStringLiteral(
            R"({"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-12-04T10:30:00Z"}}}}})"));
    const auto applied = strategicMergePatch(ds.toJson(), *patch);
    QVERIFY(applied);
    QVERIFY((*applied)["spec"]["template"]["metadata"]["labels"]["app"] == Json("web"));
    // A later restart replaces the stamp.
    const auto again = restartPatch(*kube::DaemonSet::fromJson(*applied), "2026-12-04T10:31:00Z");
    QVERIFY(again);
}

void TestStartRollout::restartRefusals()
{
    kube::DaemonSet ds = makeDs();
    const auto first = restartPatch(ds, "2026-12-04T10:30:00Z");
    const auto restarted = *kube::DaemonSet::fromJson(*strategicMergePatch(ds.toJson(), *first));
    const auto sameSecond = restartPatch(restarted, "2026-12-04T10:30:00Z");
    QVERIFY(!sameSecond);
    QCOMPARE(
        QString::fromStdString(sameSecond.error().message),
        QStringLiteral("failed to create patch for web: if restart has already been triggered within the "
                       "past second, please wait before attempting to trigger another"));
    const auto whilePaused = restartPatch(paused(ds), "2026-12-04T10:30:00Z");
    QVERIFY(!whilePaused);
    QCOMPARE(QString::fromStdString(whilePaused.error().message),
             QStringLiteral("can't restart paused daemonset (run rollout resume first)"));
}

void TestStartRollout::strategyValidation_data()
{
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<QString>("maxSurge");
    QTest::addColumn<QString>("result"); // the patch's rollingUpdate, or the error
    QTest::newRow("a number") << S("2") << S("0") << S(R"({"maxSurge":0,"maxUnavailable":2})");
    QTest::newRow("a percentage stays a string")
        << S("10%") << S("0") << S(R"({"maxSurge":0,"maxUnavailable":"10%"})");
    QTest::newRow("surge alone") << S("0") << S("25%") << S(R"({"maxSurge":"25%","maxUnavailable":0})");
    QTest::newRow("both zero")
        << S("0") << S("0")
        << S(R"(DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0)");
    QTest::newRow("110 percent")
        << S("110%") << S("0")
        << S(R"(DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%)");
    QTest::newRow("both non-zero")
        << S("1") << S("1")
        << S(R"(DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero)");
    QTest::newRow("negative")
        << S("-1") << S("0")
        << S(R"(DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0)");
    QTest::newRow("not a number")
        << S("two") << S("0")
        << S(R"(DaemonSet.apps "web" is invalid: [spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"two"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0])");
}

void TestStartRollout::strategyValidation()
{
    QFETCH(QString, maxUnavailable);
    QFETCH(QString, maxSurge);
    QFETCH(QString, result);
    const auto r =
        strategyPatch(makeDs({{"type", "OnDelete"}}), intOrStringFromText(maxUnavailable.toStdString()),
                      intOrStringFromText(maxSurge.toStdString()));
    if (!result.startsWith(QLatin1Char('{'))) {
        QVERIFY(!r);
        QCOMPARE(r.error().code, 422);
        QCOMPARE(QString::fromStdString(r.error().message), result);
        return;
    }
    QVERIFY(r);
    QVERIFY(!r->editsSavedStrategy);
    QVERIFY(r->patch["spec"]["updateStrategy"]["type"] == Json("RollingUpdate"));
    QCOMPARE(QString::fromStdString(r->patch["spec"]["updateStrategy"]["rollingUpdate"].dump()), result);
    // The API server accepts what was decided: the same validation runs on the patched object.
    const auto applied = strategicMergePatch(makeDs({{"type", "OnDelete"}}).toJson(), r->patch);
    QVERIFY(applied);
    QVERIFY((*applied)["spec"]["updateStrategy"] == r->strategy);
}

void TestStartRollout::strategyOfAPausedDaemonSetEditsTheSavedOneAndStaysPaused()
{
    const kube::DaemonSet ds = paused(makeDs());
    QVERIFY(isPaused(ds));
    const auto r = strategyPatch(ds, intOrStringFromText("2"), intOrStringFromText("0"));
    QVERIFY(r);
    QVERIFY(r->editsSavedStrategy);
    QVERIFY(!r->patch.contains("spec")); // the strategy in force (OnDelete) is left alone
    const auto applied = strategicMergePatch(ds.toJson(), r->patch);
    QVERIFY(applied);
    const kube::DaemonSet after = *kube::DaemonSet::fromJson(*applied);
    QVERIFY(isPaused(after));
    QCOMPARE(after.updateStrategyType(), std::string("OnDelete"));
    QCOMPARE(after.metadata.annotation(kPausedStrategyAnnotation),
             std::string(R"({"rollingUpdate":{"maxSurge":0,"maxUnavailable":2},"type":"RollingUpdate"})"));
    // Resume brings the edited strategy back.
    const auto resume = resumePatch(after);
    QVERIFY(resume && *resume);
    const kube::DaemonSet resumed = *kube::DaemonSet::fromJson(mergePatch(after.toJson(), **resume));
    QVERIFY(!isPaused(resumed));
    QCOMPARE(resumed.maxUnavailable()->toString(), std::string("2"));
    // Invalid values are refused while paused too.
    QVERIFY(!strategyPatch(ds, intOrStringFromText("0"), intOrStringFromText("0")));
}

void TestStartRollout::textBecomesIntOrString_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("json");
    QTest::newRow("digits are an int") << S("3") << S("3");
    QTest::newRow("a percentage is a string") << S("25%") << S(R"("25%")");
    QTest::newRow("empty is zero") << S("") << S("0");
    QTest::newRow("negative is an int") << S("-2") << S("-2");
    QTest::newRow("too large for 32 bits stays text") << S("99999999999") << S(R"("99999999999")");
}

void TestStartRollout::textBecomesIntOrString()
{
    QFETCH(QString, text);
    QFETCH(QString, json);
    QCOMPARE(QString::fromStdString(intOrStringFromText(text.toStdString()).toJson().dump()), json);
}

QTEST_GUILESS_MAIN(TestStartRollout)
#include "tst_startrollout.moc"
