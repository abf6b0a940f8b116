// The API schema table (kube::schema): complete for the kinds it names, every type resolved and
// described, the markers kubectl's strategic merge needs, and the unknown-field walk the API
// server's strict decoding and pruning follow (Go's decoder reports paths such as
// "spec.template.spec.containers[0].imagePullPolcy").

#include "models/kube/apischema.h"
#include "models/kube/fieldtypes.h"
#include "models/kube/quantity.h"

#include <QtTest>

#include <set>

using kube::Json;
namespace schema = kube::schema;

class TstApiSchema : public QObject
{
    Q_OBJECT

private slots:
    void repeatedKeysAreFoundWithTheirPaths();
    void servedKindsHaveSchemas_data();
    void servedKindsHaveSchemas();
    void everyTypeAndFieldIsDescribed();
    void strategicMergeMarkersAreThere();
    void unknownFieldsAreNamedByTheirPath();
    void pruningKeepsEveryKnownField();
    void freeFormValuesAreNotLookedInto();
    void typeChecksFollowTheTable();
    void quantitiesTakeTheirCanonicalForm_data();
    void quantitiesTakeTheirCanonicalForm();
    void normalizeDropsEmptyOmittedFields();
};

void TstApiSchema::servedKindsHaveSchemas_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("kind");
    const char *rows[][3] = {{"", "v1", "Pod"},
                             {"", "v1", "Node"},
                             {"", "v1", "Namespace"},
                             {"", "v1", "Event"},
                             {"", "v1", "Service"},
                             {"apps", "v1", "DaemonSet"},
                             {"apps", "v1", "ControllerRevision"},
                             {"apps", "v1", "ReplicaSet"},
                             {"policy", "v1", "PodDisruptionBudget"},
                             {"policy", "v1", "Eviction"},
                             {"coordination.k8s.io", "v1", "Lease"},
                             {"authorization.k8s.io", "v1", "SelfSubjectAccessReview"},
                             {"authentication.k8s.io", "v1", "SelfSubjectReview"},
                             {"upgrade.daemonscope.io", "v1alpha1", "NodeUpgradeRollout"}};
    for (const auto &r : rows)
        QTest::newRow(r[2]) << QString::fromLatin1(r[0]) << QString::fromLatin1(r[1])
                            << QString::fromLatin1(r[2]);
}

void TstApiSchema::servedKindsHaveSchemas()
{
    QFETCH(QString, group);
    QFETCH(QString, version);
    QFETCH(QString, kind);
    const schema::Struct *s =
        schema::structForKind(group.toStdString(), version.toStdString(), kind.toStdString());
    QVERIFY(s);
    QCOMPARE(QString::fromStdString(s->gvk.kind), kind);
    for (const char *f : {"apiVersion", "kind", "metadata"})
        QVERIFY2(s->field(f), f);
    QCOMPARE(s->field("metadata")->type.type,
             schema::structNamed("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
    const Json object = {
        {"apiVersion", group.isEmpty() ? version.toStdString() : (group + u'/' + version).toStdString()},
        {"kind", kind.toStdString()}};
    QCOMPARE(schema::structForObject(object), s);
    QCOMPARE(s->builtIn, group != u"upgrade.daemonscope.io"_qs);
}

void TstApiSchema::everyTypeAndFieldIsDescribed()
{
    // kubectl explain prints these; a field added to apitypes.txt needs its text too.
    QStringList missing;
    std::set<std::string> names;
    for (const schema::Struct *s : schema::structs()) {
        QVERIFY2(names.insert(s->definition).second, s->definition.c_str());
        if (s->description.empty())
            missing << QString::fromStdString(s->name);
        for (const auto &f : s->fields) {
            if (f.description.empty())
                missing << QString::fromStdString(s->name + "." + f.name);
            if (f.type.form == schema::TypeRef::Form::Struct)
                QVERIFY(f.type.type);
            if (f.type.form == schema::TypeRef::Form::List || f.type.form == schema::TypeRef::Form::Map)
                QVERIFY(f.type.element);
        }
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(u", ")));
    QVERIFY(schema::structs().size() > 200);
}

void TstApiSchema::strategicMergeMarkersAreThere()
{
    const schema::Struct *podSpec = schema::structNamed("io.k8s.api.core.v1.PodSpec");
    QVERIFY(podSpec);
    const schema::Field *containers = podSpec->field("containers");
    QVERIFY(containers && containers->required);
    QCOMPARE(QString::fromStdString(containers->patchMergeKey), u"name"_qs);
    QCOMPARE(QString::fromStdString(containers->patchStrategy), u"merge"_qs);
    QCOMPARE(QString::fromStdString(containers->listType), u"map"_qs);
    QCOMPARE(containers->type.element->type, schema::structNamed("io.k8s.api.core.v1.Container"));
    QCOMPARE(QString::fromStdString(podSpec->field("volumes")->patchStrategy), u"merge,retainKeys"_qs);
    QCOMPARE(QString::fromStdString(podSpec->field("nodeSelector")->mapType), u"atomic"_qs);
    const schema::Field *ports = schema::structNamed("io.k8s.api.core.v1.Container")->field("ports");
    QCOMPARE(QString::fromStdString(ports->patchMergeKey), u"containerPort"_qs);
    QCOMPARE(ports->listMapKeys, (std::vector<std::string>{"containerPort", "protocol"}));
    const schema::Struct *spec = schema::structNamed("io.k8s.api.apps.v1.DaemonSetSpec");
    QVERIFY(spec->field("selector")->required && spec->field("template")->required);
    QVERIFY(!spec->field("minReadySeconds")->required);
    QVERIFY(schema::structNamed("io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector")->atomic);
}

void TstApiSchema::unknownFieldsAreNamedByTheirPath()
{
    const Json ds = Json::parse(R"({
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "x", "labels": {"any": "label"}, "colour": "red"},
        "spec": {"foo": 1, "selector": {"matchLabels": {"a": "b"}},
                 "template": {"spec": {"containers": [
                     {"name": "c", "image": "i"},
                     {"name": "d", "imagePullPolcy": "Always", "env": [{"name": "A", "valu": "1"}]}]}}}})");
    const schema::Struct *type = schema::structForObject(ds);
    QVERIFY(type);
    QStringList paths;
    for (const auto &u : schema::unknownFields(ds, *type))
        paths << QString::fromStdString(u.path);
    QCOMPARE(paths, (QStringList{u"metadata.colour"_qs, u"spec.foo"_qs,
                                 u"spec.template.spec.containers[1].env[0].valu"_qs,
                                 u"spec.template.spec.containers[1].imagePullPolcy"_qs}));
}

void TstApiSchema::pruningKeepsEveryKnownField()
{
    Json pod = Json::parse(R"({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "annotations": {"a": "1"}},
        "spec": {"nodeName": "n", "extra": true, "containers": [{"name": "c", "image": "i", "bogus": 1,
                 "resources": {"limits": {"cpu": "1"}}}], "tolerations": [{"operator": "Exists"}]},
        "status": {"phase": "Running", "made": "up"}})");
    const schema::Struct *type = schema::structForObject(pod);
    QVERIFY(type);
    schema::pruneUnknownFields(pod, *type);
    QVERIFY(schema::unknownFields(pod, *type).empty());
    const Json expected = Json::parse(R"({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "annotations": {"a": "1"}},
        "spec": {"nodeName": "n", "containers": [{"name": "c", "image": "i",
                 "resources": {"limits": {"cpu": "1"}}}], "tolerations": [{"operator": "Exists"}]},
        "status": {"phase": "Running"}})");
    QCOMPARE(QString::fromStdString(pod.dump()), QString::fromStdString(expected.dump()));
}

void TstApiSchema::freeFormValuesAreNotLookedInto()
{
    // A ControllerRevision's data is a RawExtension; managedFields' fieldsV1 is free-form; the
    // custom kind's status is its controller's business.
    const Json rev = Json::parse(R"({"apiVersion": "apps/v1", "kind": "ControllerRevision",
        "metadata": {"name": "r", "managedFields": [{"manager": "m", "fieldsV1": {"f:spec": {}}}]},
        "revision": 1, "data": {"spec": {"anything": {"goes": 1}}}})");
    QVERIFY(schema::unknownFields(rev, *schema::structForObject(rev)).empty());
    const Json nur =
        Json::parse(R"({"apiVersion": "upgrade.daemonscope.io/v1alpha1", "kind": "NodeUpgradeRollout",
        "metadata": {"name": "u"}, "spec": {"targetVersion": "1.2", "unmanagedPodPolicy": {"afterTimeout": "1h"},
        "typo": 1}, "status": {"whatever": [1, 2]}})");
    const auto unknown = schema::unknownFields(nur, *schema::structForObject(nur));
    QCOMPARE(unknown.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(unknown[0].path), u"spec.typo"_qs);
}

void TstApiSchema::typeChecksFollowTheTable()
{
    // Fields the type check did not look into before the table (a volume's source, a pod's
    // security context) are checked like the API server's decoder does.
    const Json pod = Json::parse(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c"}], "securityContext": {"runAsUser": "root"},
                 "volumes": [{"name": "v", "hostPath": {"path": 7}}]}})");
    QStringList errors;
    for (const auto &e : kube::fieldTypeErrors(pod))
        errors << QString::fromStdString(e.text());
    QCOMPARE(errors,
             (QStringList{
                 u"spec.volumes[0].hostPath.path: Invalid value: 7: must be a string"_qs,
                 u"spec.securityContext.runAsUser: Invalid value: \"root\": must be a 64-bit integer"_qs}));
    // The custom kind's spec is checked by its own parser, not here.
    const Json nur =
        Json::parse(R"({"apiVersion": "upgrade.daemonscope.io/v1alpha1", "kind": "NodeUpgradeRollout",
        "metadata": {"name": "u"}, "spec": {"targetVersion": 5}})");
    QVERIFY(kube::fieldTypeErrors(nur).empty());
}

void TstApiSchema::quantitiesTakeTheirCanonicalForm_data()
{
    // resource.ParseQuantity then Quantity.String (CanonicalizeBytes): decimal values in the
    // largest SI suffix with an integral mantissa, binary ones in the largest power of 1024 they
    // are a multiple of, binary values below 1024 or with a fraction in decimal SI.
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    const char *rows[][2] = {{"1000m", "1"},
                             {"1", "1"},
                             {"0.5", "500m"},
                             {"1.5", "1500m"},
                             {"100m", "100m"},
                             {"2000", "2k"},
                             {"1500", "1500"},
                             {"0", "0"},
                             {"0m", "0"},
                             {"1024Mi", "1Gi"},
                             {"1536Mi", "1536Mi"},
                             {"1.5Gi", "1536Mi"},
                             {"0.5Gi", "512Mi"},
                             {"1Ki", "1Ki"},
                             {"512Ki", "512Ki"},
                             {"1024Ki", "1Mi"},
                             {"100Mi", "100Mi"},
                             {"1000Mi", "1000Mi"},
                             {"0.5Ki", "512"},
                             {"0.1Ki", "102400m"},
                             {"1e3", "1e3"},
                             {"1E3", "1e3"},
                             {"1.5e3", "1500"},
                             {"12e-3", "12e-3"},
                             {"1G", "1G"},
                             {"1000M", "1G"},
                             {"0.001", "1m"},
                             {"0.0000000001", "1n"},
                             {"1.0000000001", "1000000001n"},
                             {"-100m", "-100m"},
                             {"+1", "1"},
                             {"1E", "1E"},
                             {"128974848", "128974848"},
                             {"129e6", "129e6"},
                             {"129M", "129M"},
                             {"123Mi", "123Mi"},
                             {"7.5", "7500m"}};
    for (const auto &r : rows)
        QTest::newRow(r[0]) << QString::fromLatin1(r[0]) << QString::fromLatin1(r[1]);
}

void TstApiSchema::quantitiesTakeTheirCanonicalForm()
{
    QFETCH(QString, in);
    QFETCH(QString, out);
    const auto canonical = kube::canonicalQuantity(in.toStdString());
    QVERIFY(canonical);
    QCOMPARE(QString::fromStdString(*canonical), out);
    // Canonical text is a fixed point.
    QCOMPARE(QString::fromStdString(*kube::canonicalQuantity(*canonical)), out);
    // And means the same amount (MilliValue, rounded up).
    QCOMPARE(kube::quantityMilli(in.toStdString()), kube::quantityMilli(*canonical));
    QCOMPARE(kube::quantityMilli("500m"), std::optional<long long>(500));
    QCOMPARE(kube::quantityMilli("1Gi"), std::optional<long long>(1073741824000LL));
    QCOMPARE(kube::quantityMilli("1.5"), std::optional<long long>(1500));
    QCOMPARE(kube::quantityMilli("1n"), std::optional<long long>(1));
    QCOMPARE(kube::quantityMilli("2k"), std::optional<long long>(2000000));
    QVERIFY(!kube::quantityMilli("lots"));
}

void TstApiSchema::normalizeDropsEmptyOmittedFields()
{
    Json ds = Json::parse(R"({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "x", "annotations": {}, "labels": {"a": "b"}},
        "spec": {"minReadySeconds": 0, "revisionHistoryLimit": 0, "selector": {"matchLabels": {"a": "b"}},
                 "template": {"metadata": {"labels": {"a": "b"}, "creationTimestamp": null},
                     "spec": {"nodeSelector": {}, "tolerations": [], "hostNetwork": false,
                              "terminationGracePeriodSeconds": 0, "securityContext": {},
                              "containers": [{"name": "c", "image": "i", "env": [], "args": [],
                                  "resources": {"limits": {"cpu": "1000m", "memory": "1024Mi"},
                                                "requests": {"cpu": 0.5}}}]}}}})");
    const schema::Struct *type = schema::structForObject(ds);
    schema::normalize(ds, *type);
    // Pointers (revisionHistoryLimit, terminationGracePeriodSeconds, securityContext) keep their
    // zero values, as do structs (resources) and times (creationTimestamp).
    const Json expected = Json::parse(R"({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "x", "labels": {"a": "b"}},
        "spec": {"revisionHistoryLimit": 0, "selector": {"matchLabels": {"a": "b"}},
                 "template": {"metadata": {"labels": {"a": "b"}, "creationTimestamp": null},
                     "spec": {"terminationGracePeriodSeconds": 0, "securityContext": {},
                              "containers": [{"name": "c", "image": "i",
                                  "resources": {"limits": {"cpu": "1", "memory": "1Gi"},
                                                "requests": {"cpu": "500m"}}}]}}}})");
    QCOMPARE(QString::fromStdString(ds.dump()), QString::fromStdString(expected.dump()));
    // Invalid quantities are left for validation.
    Json bad = Json::parse(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "resources": {"limits": {"cpu": "lots"}}}]}})");
    schema::normalize(bad, *schema::structForObject(bad));
    QCOMPARE(bad["spec"]["containers"][0]["resources"]["limits"]["cpu"], "lots");
}

// The strict decoder's duplicate check (sigs.k8s.io/json, UnmarshalStrict): every object keeps
// its own key set, paths name array elements by index, and the search goes into free-form maps.
void TstApiSchema::repeatedKeysAreFoundWithTheirPaths()
{
    auto paths = [](std::string_view text) {
        std::vector<std::string> out;
        for (const auto &d : kube::schema::duplicateFields(text))
            out.push_back(d.path);
        return out;
    };
    QCOMPARE(paths(R"({"a":1,"b":{"a":2},"c":[{"a":1},{"a":1,"a":2}]})"), std::vector<std::string>{"c[1].a"});
    QCOMPARE(paths(R"({"kind":"x","kind":"y","m":{"labels":{"k":"1","k":"2"}},"l":[[1,{"z":0,"z":1}]]})"),
             (std::vector<std::string>{"kind", "m.labels.k", "l[0][1].z"}));
    QVERIFY(paths(R"({"a":1,"b":[1,2,3],"c":{"d":null}})").empty());
    QVERIFY(paths(R"({"a":1,"a":)").empty()); // not JSON: the parse says so, not this
    QVERIFY(paths("").empty());
}

QTEST_APPLESS_MAIN(TstApiSchema)
#include "tst_apischema.moc"
