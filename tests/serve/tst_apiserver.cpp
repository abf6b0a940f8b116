// The embedded API server's wire behaviour, checked in process through the client library's
// libcurl transport: discovery negotiation, Tables, selectors, paging, optimistic concurrency,
// patches, Status bodies, watch resume, bookmarks, streaming lists, 410 Expired, TLS and token
// authentication. The clock is frozen (speed 0) so nothing changes unless a test changes it.

#include "models/api/selector.h"
#include "models/client/httptransport.h"
#include "models/kube/apischema.h"
#include "models/kube/fieldtypes.h"
#include "models/kube/jsonfield.h"
#include "models/kube/yamldocument.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"

#include <QFile>
#include <QtTest>

#include <atomic>
#include <map>
#include <memory>
#include <set>

using kube::Json;

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<sim::Cluster> testCluster()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "web.yaml");
    return c ? std::move(*c) : nullptr;
}

struct Running
{
    std::unique_ptr<server::ApiServer> server;
    std::unique_ptr<client::HttpTransport> transport;
};

Running startServer(server::ServerOptions options = {}, const std::string &clientToken = {})
{
    Running r;
    options.speed = 0;
    if (options.bookmarkInterval == std::chrono::milliseconds(1000))
        options.bookmarkInterval = std::chrono::milliseconds(100);
    r.server = std::make_unique<server::ApiServer>(testCluster(), options);
    if (auto s = r.server->start(); !s) {
        qWarning("start: %s", s.error().message.c_str());
        r.server.reset();
        return r;
    }
    client::RestConfig config;
    config.server = r.server->url();
    config.caPem = r.server->caCertificatePem();
    config.token = clientToken;
    r.transport = std::make_unique<client::HttpTransport>(config);
    return r;
}

// Lines of a watch until `count` arrived or the server ended the stream.
std::vector<Json> watchLines(client::Transport &t, const std::string &path, const client::Query &query,
                             std::size_t count, kube::ApiStatus *error = nullptr)
{
    std::vector<Json> lines;
    std::atomic<bool> cancel{false};
    client::RequestOptions options;
    options.totalTimeout = std::chrono::seconds(20);
    auto r = t.watch(
        path, query,
        [&](std::string_view line) {
            lines.push_back(Json::parse(line));
            return lines.size() < count;
        },
        cancel, options);
    if (!r && error)
        *error = r.error();
    return lines;
}

Json getJson(client::Transport &t, const std::string &path, const client::Query &query = {},
             const std::string &accept = "application/json")
{
    auto r = t.request("GET", path, query, {}, {}, accept);
    if (!r)
        return Json{{"error", r.error().message}, {"code", r.error().code}};
    return Json::parse(r->body);
}

std::vector<std::string> columnNames(const Json &table)
{
    std::vector<std::string> out;
    for (const auto &c : table["columnDefinitions"])
        out.push_back(c["name"].get<std::string>());
    return out;
}

QStringList toList(const std::vector<std::string> &v)
{
    QStringList out;
    for (const auto &s : v)
        out << QString::fromStdString(s);
    return out;
}

// Protobuf encoding, as client-go writes it: varint keys and lengths, the "k8s\0" envelope
// around a runtime.Unknown {typeMeta{apiVersion, kind}, raw}.
std::string pbVarint(std::uint64_t v)
{
    std::string out;
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
    return out;
}

std::string pbBytes(int field, const std::string &bytes)
{
    return pbVarint(static_cast<std::uint64_t>(field) << 3 | 2) + pbVarint(bytes.size()) + bytes;
}

std::string pbInt(int field, std::int64_t v)
{
    return pbVarint(static_cast<std::uint64_t>(field) << 3) + pbVarint(static_cast<std::uint64_t>(v));
}

std::string pbEnvelope(const std::string &apiVersion, const std::string &kind, const std::string &raw)
{
    return std::string("k8s\0", 4) + pbBytes(1, pbBytes(1, apiVersion) + pbBytes(2, kind)) + pbBytes(2, raw);
}

// policy/v1 Eviction {metadata{name, namespace}, deleteOptions{dryRun...}}.
std::string pbEviction(const std::string &name, const std::string &ns, bool dryRun)
{
    const std::string meta = pbBytes(1, name) + pbBytes(3, ns);
    const std::string options = dryRun ? pbBytes(5, "All") : pbInt(1, 30);
    return pbEnvelope("policy/v1", "Eviction", pbBytes(1, meta) + pbBytes(2, options));
}

// A protobuf message read back: its length-delimited fields (bytes) and varints by field number,
// in order. `ok` is false when the bytes are not a well-formed message.
struct PbMessage
{
    std::multimap<int, std::string> bytes;
    std::multimap<int, std::uint64_t> varints;
    bool ok = true;

    std::vector<std::string> all(int field) const
    {
        std::vector<std::string> out;
        for (auto [it, end] = bytes.equal_range(field); it != end; ++it)
            out.push_back(it->second);
        return out;
    }
    // The one value of a field ("" when it is absent or repeated).
    std::string one(int field) const
    {
        const auto v = all(field);
        return v.size() == 1 ? v[0] : std::string();
    }
    bool has(int field) const { return bytes.count(field) + varints.count(field) > 0; }
};

PbMessage pbRead(const std::string &data)
{
    PbMessage m;
    std::size_t pos = 0;
    auto varint = [&](std::uint64_t &v) {
        v = 0;
        for (int shift = 0; shift < 64 && pos < data.size(); shift += 7) {
            const auto b = static_cast<unsigned char>(data[pos++]);
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return true;
        }
        return false;
    };
    while (m.ok && pos < data.size()) {
        std::uint64_t key = 0, v = 0;
        if (!varint(key) || (key >> 3) == 0) {
            m.ok = false;
            break;
        }
        const int field = static_cast<int>(key >> 3);
        const auto wire = key & 7;
        if (wire == 0) {
            m.ok = varint(v);
            m.varints.emplace(field, v);
        } else if (wire == 1 || wire == 5 || wire == 2) {
            if (wire == 2)
                m.ok = varint(v);
            else
                v = wire == 1 ? 8 : 4;
            if (!m.ok || v > data.size() - pos) {
                m.ok = false;
                break;
            }
            m.bytes.emplace(field, data.substr(pos, static_cast<std::size_t>(v)));
            pos += static_cast<std::size_t>(v);
        } else {
            m.ok = false;
        }
    }
    return m;
}

// A map encoded as repeated Named* pairs {name = 1, value = 2}: name -> the value's bytes.
std::map<std::string, std::string> pbNamed(const PbMessage &m, int field)
{
    std::map<std::string, std::string> out;
    for (const auto &pair : m.all(field)) {
        const PbMessage p = pbRead(pair);
        out[p.one(1)] = p.one(2);
    }
    return out;
}

std::set<std::string> keysOf(const Json &object)
{
    std::set<std::string> out;
    for (auto it = object.begin(); it != object.end(); ++it)
        out.insert(it.key());
    return out;
}

template <typename Map> std::set<std::string> keysOf(const Map &map)
{
    std::set<std::string> out;
    for (const auto &[k, v] : map)
        out.insert(k);
    return out;
}

QString joined(const std::set<std::string> &names)
{
    return QString::fromStdString(Json(names).dump());
}

// The value of a vendor extension: the YAML its Any (field 2 of the NamedAny) carries, read back.
Json pbExtension(const PbMessage &m, int field, const std::string &name)
{
    const auto named = pbNamed(m, field);
    const auto it = named.find(name);
    if (it == named.end())
        return nullptr;
    auto docs = kube::parseYamlDocuments(pbRead(it->second).one(2), name);
    return docs && docs->size() == 1 ? (*docs)[0].value : Json(nullptr);
}

const char *kTableAccept =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g="
    "meta.k8s.io,application/json";

} // namespace

class TstApiServer : public QObject
{
    Q_OBJECT

private slots:
    void discoveryFollowsTheAcceptHeader_data();
    void discoveryFollowsTheAcceptHeader();
    void discoveryListsShortNamesAndCategories();
    void openApiV2IsServedInJsonAndProtobuf();
    void tablesCarryKubectlColumns_data();
    void tablesCarryKubectlColumns();
    void selectorsFilterLists_data();
    void selectorsFilterLists();
    void unsupportedFieldSelectorIsABadRequest();
    void pagedListsShareOneResourceVersion();
    void abandonedListsExpireOldestFirst();
    void pagedPodListsReadOneVersionWhileTheEngineWrites_data();
    void pagedPodListsReadOneVersionWhileTheEngineWrites();
    void podPagesReadPinnedVersionsAndLetThemGo();
    void errorsAreStatusObjects_data();
    void errorsAreStatusObjects();
    void wronglyTypedBodiesAreClientErrors_data();
    void wronglyTypedBodiesAreClientErrors();
    void putWithAStaleResourceVersionConflicts();
    void patchTypesAndNoOpPatches();
    void unknownPatchTypeIsUnsupportedMediaType();
    void statusSubresourceWritesOnlyStatus();
    void createThenCreateAgainIsAlreadyExists();
    void deleteHonoursPreconditionsAndGracePeriods();
    void dryRunDeleteChangesNothing_data();
    void dryRunDeleteChangesNothing();
    void orphanDeleteKeepsTheDependents_data();
    void orphanDeleteKeepsTheDependents();
    void reviewsAnswerWithoutStoring();
    void dryRunWritesChangeNothing_data();
    void dryRunWritesChangeNothing();
    void evictionHonoursTheBudgetInJsonAndProtobuf();
    void protobufBodiesAreCheckedBeforeUse_data();
    void protobufBodiesAreCheckedBeforeUse();
    void servicesAllocateAndKeepTheirAddresses();
    void openApiV3DescribesEveryServedResource();
    void openApiV2DescribesWhatV3Does();
    void servedObjectsHaveOnlySchemaFields();
    void fieldValidationDecidesOnUnknownFields();
    void writesRecordTheirManagers();
    void deletedKubernetesServiceComesBack();
    void replicaSetsScaleThroughTheirSubresource();
    void podSelectorsAgreeOnRecordsAndJson();
    void podListPagesAreCanonicalAndMatchTheirObjects();
    void nodeListsPageSelectAndMatchTheirObjects();
    void serverSideApplyMergesOwnsAndConflicts();
    void serviceErrorsNameTheField_data();
    void serviceErrorsNameTheField();
    void leasesAreCheckedAndKeptInMicroTime();
    void nodeLeasesFollowTheKubelets();
    void nodesReportTheirMachine();
    void watchWindowsArePerKind();
    void watchResumesAfterTheResourceVersion();
    void watchFromATooOldResourceVersionIsExpired();
    void watchTurnsSelectorChangesIntoAddedAndDeleted();
    void watchSendsBookmarksWhenAllowed();
    void streamingListEndsInitialEventsWithABookmark();
    void streamingListNeedsNotOlderThan();
    void tlsServerRequiresTheToken();
    void jobsRunTheirPodsToCompletion();
    void nonLoopbackAddressesAreRefused_data();
    void nonLoopbackAddressesAreRefused();
};

void TstApiServer::discoveryFollowsTheAcceptHeader_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("accept");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("apiVersion");
    const QString agg =
        QStringLiteral("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                       "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
                       "application/json");
    const QString agg127 = QStringLiteral(
        "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json");
    const QString v2 = QStringLiteral("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
    const QString v2beta1 =
        QStringLiteral("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList");
    QTest::newRow("kubectl 1.32 gets aggregated v2 for the core group")
        << u"/api"_s << agg << v2 << u"APIGroupDiscoveryList"_s << u"apidiscovery.k8s.io/v2"_s;
    QTest::newRow("kubectl 1.32 gets aggregated v2 for named groups")
        << u"/apis"_s << agg << v2 << u"APIGroupDiscoveryList"_s << u"apidiscovery.k8s.io/v2"_s;
    QTest::newRow("kubectl 1.27 gets aggregated v2beta1")
        << u"/apis"_s << agg127 << v2beta1 << u"APIGroupDiscoveryList"_s << u"apidiscovery.k8s.io/v2beta1"_s;
    QTest::newRow("plain JSON gets the legacy APIVersions")
        << u"/api"_s << u"application/json, */*"_s << u"application/json"_s << u"APIVersions"_s << u""_s;
    QTest::newRow("plain JSON gets the legacy APIGroupList")
        << u"/apis"_s << u"application/json"_s << u"application/json"_s << u"APIGroupList"_s << u"v1"_s;
    QTest::newRow("legacy resource list of apps/v1")
        << u"/apis/apps/v1"_s << u"application/json, */*"_s << u"application/json"_s << u"APIResourceList"_s
        << u"v1"_s;
    QTest::newRow("legacy resource list of the node-upgrade group")
        << u"/apis/upgrade.daemonscope.io/v1alpha1"_s << u"application/json, */*"_s << u"application/json"_s
        << u"APIResourceList"_s << u"v1"_s;
    QTest::newRow("legacy group of the node-upgrade kind")
        << u"/apis/upgrade.daemonscope.io"_s << u"application/json"_s << u"application/json"_s
        << u"APIGroup"_s << u"v1"_s;
}

void TstApiServer::discoveryFollowsTheAcceptHeader()
{
    QFETCH(QString, path);
    QFETCH(QString, accept);
    QFETCH(QString, contentType);
    QFETCH(QString, kind);
    QFETCH(QString, apiVersion);
    auto s = startServer();
    QVERIFY(s.server);
    auto r = s.transport->request("GET", path.toStdString(), {}, {}, {}, accept.toStdString());
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(QString::fromStdString(r->contentType), contentType);
    const Json doc = Json::parse(r->body);
    QCOMPARE(QString::fromStdString(doc.value("kind", "")), kind);
    QCOMPARE(QString::fromStdString(doc.value("apiVersion", "")), apiVersion);
}

// kubectl fetches /openapi/v2 in protobuf (`kubectl explain --output=plaintext-openapiv2`, and
// strategic-merge metadata where it still reads v2): the document is gnostic's
// openapi.v2.Document, or JSON when asked. Both say the same: read back field by field, the
// protobuf names the same paths, operations, definitions, properties and extensions.
void TstApiServer::openApiV2IsServedInJsonAndProtobuf()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json doc = getJson(*s.transport, "/openapi/v2");
    QCOMPARE(doc["swagger"], "2.0");
    QCOMPARE(doc["info"]["title"], "Kubernetes");
    QCOMPARE(doc["info"]["version"], getJson(*s.transport, "/version")["gitVersion"]);
    QVERIFY(doc["paths"].size() > 30);
    QVERIFY(doc["definitions"].size() > 200);

    auto pb = s.transport->request("GET", "/openapi/v2", {}, {}, {},
                                   "application/com.github.proto-openapi.spec.v2@v1.0+protobuf");
    QVERIFY2(pb.ok(), pb.ok() ? "" : pb.error().message.c_str());
    QCOMPARE(QString::fromStdString(pb->contentType),
             u"application/com.github.proto-openapi.spec.v2.v1.0+protobuf"_s);
    // Document: swagger = 1, info = 2 (title = 1, version = 2), paths = 8, definitions = 9,
    // security = 12, security_definitions = 13.
    const PbMessage pdoc = pbRead(pb->body);
    QVERIFY(pdoc.ok);
    QCOMPARE(pdoc.one(1), "2.0");
    const PbMessage info = pbRead(pdoc.one(2));
    QCOMPARE(info.one(1), "Kubernetes");
    QCOMPARE(info.one(2), doc["info"]["version"].get<std::string>());

    // Paths: repeated NamedPathItem = 2; PathItem: get = 2, put = 3, post = 4, delete = 5,
    // patch = 8.
    const PbMessage paths = pbRead(pdoc.one(8));
    QCOMPARE(paths.all(2).size(), doc["paths"].size());
    const auto pathItems = pbNamed(paths, 2);
    QCOMPARE(joined(keysOf(pathItems)), joined(keysOf(doc["paths"])));
    const std::string dsPath = "/apis/apps/v1/namespaces/{namespace}/daemonsets/{name}";
    const PbMessage ds = pbRead(pathItems.at(dsPath));
    const std::pair<const char *, int> verbs[] = {{"get", 2}, {"put", 3}, {"delete", 5}, {"patch", 8}};
    for (const auto &[verb, field] : verbs) {
        // Operation: operation_id = 5, consumes = 7, parameters = 8, responses = 9, vendor
        // extensions = 13.
        const PbMessage op = pbRead(ds.one(field));
        const Json &jop = doc["paths"][dsPath][verb];
        QCOMPARE(op.one(5), jop["operationId"].get<std::string>());
        QCOMPARE(pbExtension(op, 13, "x-kubernetes-group-version-kind"),
                 Json({{"group", "apps"}, {"version", "v1"}, {"kind", "DaemonSet"}}));
        QCOMPARE(pbExtension(op, 13, "x-kubernetes-action"), jop["x-kubernetes-action"]);
        QCOMPARE(op.all(8).size(), jop.value("parameters", Json::array()).size());
        QVERIFY(pbNamed(pbRead(op.one(9)), 1).count("200"));
    }
    QVERIFY(!ds.has(4));
    // The patch's parameters: the body first (ParametersItem.parameter = 1, Parameter.body = 1:
    // name = 2, in = 3, required = 4, schema = 5), then the query parameters
    // (Parameter.non_body = 2, NonBodyParameter.query = 3: name = 4, type = 6, unique_items = 20).
    const PbMessage patch = pbRead(ds.one(8));
    const PbMessage body = pbRead(pbRead(pbRead(patch.all(8).at(0)).one(1)).one(1));
    QCOMPARE(body.one(2), "body");
    QCOMPARE(body.one(3), "body");
    QCOMPARE(body.varints.find(4)->second, 1u);
    QCOMPARE(pbRead(body.one(5)).one(1), "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch");
    QCOMPARE(patch.all(7).size(), 4u);
    const PbMessage dryRun = pbRead(pbRead(pbRead(pbRead(patch.all(8).at(1)).one(1)).one(2)).one(3));
    QCOMPARE(dryRun.one(4), "dryRun");
    QCOMPARE(dryRun.one(6), "string");
    QCOMPARE(dryRun.varints.find(20)->second, 1u);

    // Definitions: repeated NamedSchema = 1. Schema: $ref = 1, description = 4, required = 19,
    // type = 22 (TypeItem: value = 1), items = 23 (ItemsItem: schema = 1), properties = 25
    // (repeated NamedSchema = 1), vendor extensions = 31.
    const PbMessage definitions = pbRead(pdoc.one(9));
    QCOMPARE(definitions.all(1).size(), doc["definitions"].size());
    const auto schemas = pbNamed(definitions, 1);
    QCOMPARE(joined(keysOf(schemas)), joined(keysOf(doc["definitions"])));
    for (const auto &[name, bytes] : schemas) {
        const Json &j = doc["definitions"][name];
        const PbMessage schema = pbRead(bytes);
        QVERIFY2(schema.ok, name.c_str());
        QCOMPARE(joined(keysOf(pbNamed(pbRead(schema.one(25)), 1))),
                 joined(keysOf(j.value("properties", Json::object()))));
        QCOMPARE(Json(schema.all(19)), j.value("required", Json::array()));
        QCOMPARE(pbRead(schema.one(22)).one(1), j.value("type", ""));
        QCOMPARE(schema.one(4), j.value("description", ""));
        if (j.contains("x-kubernetes-group-version-kind"))
            QCOMPARE(pbExtension(schema, 31, "x-kubernetes-group-version-kind"),
                     j["x-kubernetes-group-version-kind"]);
    }
    const auto spec = pbNamed(pbRead(pbRead(schemas.at("io.k8s.api.apps.v1.DaemonSetSpec")).one(25)), 1);
    const PbMessage selector = pbRead(spec.at("selector"));
    QCOMPARE(selector.one(1), "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector");
    QVERIFY(!selector.one(4).empty());
    const auto podSpec = pbNamed(pbRead(pbRead(schemas.at("io.k8s.api.core.v1.PodSpec")).one(25)), 1);
    const PbMessage containers = pbRead(podSpec.at("containers"));
    QCOMPARE(pbRead(containers.one(22)).one(1), "array");
    QCOMPARE(pbRead(pbRead(containers.one(23)).one(1)).one(1), "#/definitions/io.k8s.api.core.v1.Container");
    QCOMPARE(pbExtension(containers, 31, "x-kubernetes-patch-merge-key"), "name");
    QCOMPARE(pbExtension(containers, 31, "x-kubernetes-list-map-keys"), Json::array({"name"}));
    // A map: additional_properties = 21 (AdditionalPropertiesItem: schema = 1).
    const PbMessage nodeSelector = pbRead(podSpec.at("nodeSelector"));
    QCOMPARE(pbRead(pbRead(pbRead(nodeSelector.one(21)).one(1)).one(22)).one(1), "string");
    QCOMPARE(pbExtension(nodeSelector, 31, "x-kubernetes-map-type"), "atomic");

    // SecurityDefinitions: BearerToken as an ApiKeySecurity (item field 2: type = 1, name = 2,
    // in = 3); security: one requirement naming it.
    const auto security = pbNamed(pbRead(pdoc.one(13)), 1);
    QCOMPARE(joined(keysOf(security)), u"[\"BearerToken\"]"_s);
    const PbMessage apiKey = pbRead(pbRead(security.at("BearerToken")).one(2));
    QCOMPARE(apiKey.one(1), "apiKey");
    QCOMPARE(apiKey.one(2), "authorization");
    QCOMPARE(apiKey.one(3), "header");
    QCOMPARE(pdoc.all(12).size(), 1u);
    QCOMPARE(joined(keysOf(pbNamed(pbRead(pdoc.one(12)), 1))), u"[\"BearerToken\"]"_s);

    auto post = s.transport->request("POST", "/openapi/v2", {}, "{}", "application/json", "application/json");
    QVERIFY(!post.ok());
    QCOMPARE(post.error().code, 405);
}

void TstApiServer::discoveryListsShortNamesAndCategories()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json doc = getJson(*s.transport, "/apis", {},
                             "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
    QCOMPARE(doc["items"].size(), 7u);
    QCOMPARE(doc["items"][0]["metadata"]["name"], "apps");
    QCOMPARE(doc["items"][1]["metadata"]["name"], "authentication.k8s.io");
    QCOMPARE(doc["items"][2]["metadata"]["name"], "authorization.k8s.io");
    QCOMPARE(doc["items"][2]["versions"][0]["resources"][0]["scope"], "Cluster");
    // Jobs (the node-upgrade controller's restart mechanism Job), in kubectl's category "all".
    QCOMPARE(doc["items"][3]["metadata"]["name"], "batch");
    const Json &jobs = doc["items"][3]["versions"][0]["resources"][0];
    QCOMPARE(jobs["resource"], "jobs");
    QCOMPARE(jobs["categories"], Json::array({"all"}));
    QCOMPARE(jobs["subresources"][0]["subresource"], "status");
    // Leases (node heartbeats, leader election).
    QCOMPARE(doc["items"][4]["metadata"]["name"], "coordination.k8s.io");
    const Json &lease = doc["items"][4]["versions"][0]["resources"][0];
    QCOMPARE(lease["resource"], "leases");
    QCOMPARE(lease["scope"], "Namespaced");
    QVERIFY(!lease.contains("subresources"));
    // PodDisruptionBudgets (kubectl drain reads them), with their short name.
    QCOMPARE(doc["items"][5]["metadata"]["name"], "policy");
    const Json &pdb = doc["items"][5]["versions"][0]["resources"][0];
    QCOMPARE(pdb["resource"], "poddisruptionbudgets");
    QCOMPARE(pdb["shortNames"], Json::array({"pdb"}));
    QCOMPARE(pdb["scope"], "Namespaced");
    QCOMPARE(pdb["subresources"][0]["subresource"], "status");
    // The node-agent upgrade's custom kind, in its own group and version.
    QCOMPARE(doc["items"][6]["metadata"]["name"], "upgrade.daemonscope.io");
    QCOMPARE(doc["items"][6]["versions"][0]["version"], "v1alpha1");
    const Json &nur = doc["items"][6]["versions"][0]["resources"][0];
    QCOMPARE(nur["resource"], "nodeupgraderollouts");
    QCOMPARE(nur["shortNames"], Json::array({"nur"}));
    QCOMPARE(nur["scope"], "Cluster");
    QCOMPARE(nur["responseKind"]["version"], "v1alpha1");
    QCOMPARE(nur["subresources"][0]["subresource"], "status");
    Json ds;
    for (const auto &r : doc["items"][0]["versions"][0]["resources"])
        if (r["resource"] == "daemonsets")
            ds = r;
    QCOMPARE(ds["shortNames"], Json::array({"ds"}));
    QCOMPARE(ds["categories"], Json::array({"all"}));
    QCOMPARE(ds["scope"], "Namespaced");
    QCOMPARE(ds["responseKind"]["kind"], "DaemonSet");
    QCOMPARE(ds["subresources"][0]["subresource"], "status");
    const Json core = getJson(*s.transport, "/api/v1");
    bool nodesClusterScoped = false;
    for (const auto &r : core["resources"])
        if (r["name"] == "nodes")
            nodesClusterScoped = r["namespaced"] == false && r["shortNames"] == Json::array({"no"});
    QVERIFY(nodesClusterScoped);
    // Pods list their eviction subresource in the aggregated form too (kubectl drain's
    // CheckEvictionSupport reads it).
    const Json coreAgg = getJson(*s.transport, "/api", {},
                                 "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
    Json podSubresources;
    for (const auto &r : coreAgg["items"][0]["versions"][0]["resources"])
        if (r["resource"] == "pods")
            podSubresources = r["subresources"];
    QCOMPARE(podSubresources.size(), 3u);
    QCOMPARE(podSubresources[1]["subresource"], "eviction");
    QCOMPARE(podSubresources[1]["responseKind"]["group"], "policy");
    QCOMPARE(podSubresources[1]["verbs"], Json::array({"create"}));
    // ... and their log (kubectl logs), a Pod's subresource read with get.
    QCOMPARE(podSubresources[2]["subresource"], "log");
    QCOMPARE(podSubresources[2]["responseKind"]["kind"], "Pod");
    QCOMPARE(podSubresources[2]["verbs"], Json::array({"get"}));
}

void TstApiServer::tablesCarryKubectlColumns_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("columns");
    QTest::addColumn<QString>("firstRow");
    QTest::newRow("daemonsets show desired, current, ready, up-to-date and available")
        << u"/apis/apps/v1/namespaces/default/daemonsets/web"_s
        << QStringList{u"Name"_s,       u"Desired"_s,   u"Current"_s,       u"Ready"_s,
                       u"Up-to-date"_s, u"Available"_s, u"Node Selector"_s, u"Age"_s,
                       u"Containers"_s, u"Images"_s,    u"Selector"_s}
        << uR"(["web",3,3,3,3,3,"<none>",)"_s;
    QTest::newRow("pods show ready, status and restarts")
        << u"/api/v1/namespaces/default/pods?labelSelector=app%3Dsolo"_s
        << QStringList{u"Name"_s, u"Ready"_s, u"Status"_s,         u"Restarts"_s,       u"Age"_s,
                       u"IP"_s,   u"Node"_s,  u"Nominated Node"_s, u"Readiness Gates"_s}
        << uR"(1/1","Running","0",)"_s;
    QTest::newRow("nodes show status, roles and version")
        << u"/api/v1/nodes"_s
        << QStringList{u"Name"_s,           u"Status"_s,           u"Roles"_s,       u"Age"_s,
                       u"Version"_s,        u"Internal-IP"_s,      u"External-IP"_s, u"OS-Image"_s,
                       u"Kernel-Version"_s, u"Container-Runtime"_s}
        << uR"(["node-0","Ready","<none>",)"_s;
    QTest::newRow("controller revisions show their controller and revision")
        << u"/apis/apps/v1/namespaces/default/controllerrevisions?labelSelector=app%3Dweb"_s
        << QStringList{u"Name"_s, u"Controller"_s, u"Revision"_s, u"Age"_s}
        << uR"("daemonset.apps/web",1,)"_s;
    QTest::newRow("namespaces show their phase")
        << u"/api/v1/namespaces/default"_s << QStringList{u"Name"_s, u"Status"_s, u"Age"_s}
        << uR"(["default","Active",)"_s;
}

void TstApiServer::tablesCarryKubectlColumns()
{
    QFETCH(QString, path);
    QFETCH(QStringList, columns);
    QFETCH(QString, firstRow);
    auto s = startServer();
    QVERIFY(s.server);
    const std::string p = path.toStdString();
    const auto q = p.find('?');
    client::Query query;
    if (q != std::string::npos) {
        const std::string kv = p.substr(q + 1);
        query.push_back({kv.substr(0, kv.find('=')),
                         QUrl::fromPercentEncoding(QByteArray::fromStdString(kv.substr(kv.find('=') + 1)))
                             .toStdString()});
    }
    const Json table = getJson(*s.transport, p.substr(0, q), query, kTableAccept);
    QCOMPARE(QString::fromStdString(table.value("kind", "")), QStringLiteral("Table"));
    QCOMPARE(toList(columnNames(table)), columns);
    QVERIFY(!table["metadata"].value("resourceVersion", "").empty());
    QVERIFY(table["rows"].size() >= 1);
    const std::string cells = table["rows"][0]["cells"].dump();
    QVERIFY2(cells.find(firstRow.toStdString()) != std::string::npos, cells.c_str());
    QCOMPARE(table["rows"][0]["object"]["kind"], "PartialObjectMetadata");
}

void TstApiServer::selectorsFilterLists_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<int>("count");
    QTest::newRow("a label selector picks the pods of one DaemonSet")
        << u"/api/v1/namespaces/default/pods"_s << u"labelSelector"_s << u"app=web"_s << 3;
    QTest::newRow("a set-based label selector matches either value")
        << u"/api/v1/namespaces/default/pods"_s << u"labelSelector"_s << u"app in (web,solo)"_s << 6;
    QTest::newRow("a negated label selector excludes")
        << u"/api/v1/pods"_s << u"labelSelector"_s << u"app!=web"_s << 3;
    QTest::newRow("metadata.name selects one DaemonSet, as rollout status asks")
        << u"/apis/apps/v1/namespaces/default/daemonsets"_s << u"fieldSelector"_s << u"metadata.name=web"_s
        << 1;
    QTest::newRow("spec.nodeName selects the pods of one node")
        << u"/api/v1/pods"_s << u"fieldSelector"_s << u"spec.nodeName=node-1"_s << 2;
    QTest::newRow("a name that does not exist selects nothing")
        << u"/apis/apps/v1/daemonsets"_s << u"fieldSelector"_s << u"metadata.name=nope"_s << 0;
}

void TstApiServer::selectorsFilterLists()
{
    QFETCH(QString, path);
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(int, count);
    auto s = startServer();
    QVERIFY(s.server);
    const Json list = getJson(*s.transport, path.toStdString(), {{key.toStdString(), value.toStdString()}});
    QVERIFY2(list.contains("items"), list.dump().c_str());
    QCOMPARE(int(list["items"].size()), count);
}

void TstApiServer::unsupportedFieldSelectorIsABadRequest()
{
    auto s = startServer();
    QVERIFY(s.server);
    auto r = s.transport->request("GET", "/apis/apps/v1/daemonsets", {{"fieldSelector", "spec.nodeName=x"}},
                                  {}, {}, "application/json");
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 400);
    QCOMPARE(QString::fromStdString(r.error().reason), QStringLiteral("BadRequest"));
    QCOMPARE(QString::fromStdString(r.error().message),
             QStringLiteral("field label not supported: spec.nodeName"));
}

void TstApiServer::pagedListsShareOneResourceVersion()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json all = getJson(*s.transport, "/api/v1/pods");
    QCOMPARE(all["items"].size(), 6u);
    std::vector<std::string> names;
    std::string token, rv;
    int pages = 0;
    do {
        client::Query q = {{"limit", "4"}};
        if (!token.empty())
            q.push_back({"continue", token});
        const Json page = getJson(*s.transport, "/api/v1/pods", q);
        QVERIFY2(page.contains("items"), page.dump().c_str());
        if (rv.empty())
            rv = page["metadata"]["resourceVersion"];
        QCOMPARE(page["metadata"]["resourceVersion"].get<std::string>(), rv);
        for (const auto &i : page["items"])
            names.push_back(i["metadata"]["name"]);
        token = page["metadata"].value("continue", "");
        if (!token.empty())
            QCOMPARE(page["metadata"]["remainingItemCount"], 2);
        ++pages;
    } while (!token.empty() && pages < 10);
    QCOMPARE(pages, 2);
    std::vector<std::string> expected;
    for (const auto &i : all["items"])
        expected.push_back(i["metadata"]["name"]);
    QCOMPARE(names, expected);

    auto expired = s.transport->request("GET", "/api/v1/pods", {{"limit", "4"}, {"continue", "999-4"}}, {},
                                        {}, "application/json");
    QVERIFY(!expired.ok());
    QCOMPARE(expired.error().code, 410);
    QCOMPARE(QString::fromStdString(expired.error().reason), QStringLiteral("Expired"));
}

// More lists left open than the server keeps (64): the oldest lose their continue tokens
// (410), the newest — ids 100 and above included, which once sorted before "11" — keep theirs;
// a list read to its last page is let go.
void TstApiServer::abandonedListsExpireOldestFirst()
{
    auto s = startServer();
    QVERIFY(s.server);
    std::vector<std::string> tokens;
    for (int i = 0; i < 130; ++i) {
        const Json page = getJson(*s.transport, "/api/v1/pods", {{"limit", "1"}});
        tokens.push_back(page["metadata"].value("continue", ""));
        QVERIFY(!tokens.back().empty());
    }
    auto next = [&](const std::string &token, const std::string &limit) {
        return s.transport->request("GET", "/api/v1/pods", {{"limit", limit}, {"continue", token}}, {}, {},
                                    "application/json");
    };
    for (int i = 0; i < 130; ++i) {
        auto r = next(tokens[static_cast<std::size_t>(i)], "1");
        if (i < 130 - 64) {
            QVERIFY2(!r.ok() && r.error().code == 410, qPrintable(QString::number(i)));
        } else {
            QVERIFY2(r.ok() && r->status == 200, qPrintable(QString::number(i)));
        }
    }
    // The newest list read to its end (5 more pods) ...
    auto last = next(tokens.back(), "10");
    QVERIFY(last.ok());
    QVERIFY(!Json::parse(last->body)["metadata"].contains("continue"));
    QCOMPARE(Json::parse(last->body)["items"].size(), 5u);
    // ... is gone: its token does not answer again.
    auto again = next(tokens.back(), "10");
    QVERIFY(!again.ok());
    QCOMPARE(again.error().code, 410);
}

void TstApiServer::pagedPodListsReadOneVersionWhileTheEngineWrites_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("value");
    QTest::newRow("every pod") << QString() << QString();
    QTest::newRow("one DaemonSet's pods (labelSelector)") << u"labelSelector"_s << u"app=web"_s;
    QTest::newRow("one node's pods (fieldSelector)") << u"fieldSelector"_s << u"spec.nodeName=node-1"_s;
}

// A list read a pod a page while pods are relabelled, deleted and created between its pages:
// the pages together are exactly the list as it was at the first page's resourceVersion.
void TstApiServer::pagedPodListsReadOneVersionWhileTheEngineWrites()
{
    QFETCH(QString, selector);
    QFETCH(QString, value);
    auto s = startServer();
    QVERIFY(s.server);
    client::Query base;
    if (!selector.isEmpty())
        base.push_back({selector.toStdString(), value.toStdString()});
    const Json before = getJson(*s.transport, "/api/v1/pods", base);
    QVERIFY2(before["items"].size() >= 2, before.dump().c_str());
    const std::string rv = before["metadata"]["resourceVersion"];
    const std::string podsPath = "/api/v1/namespaces/default/pods";
    auto request = [&](const std::string &method, const std::string &path, const client::Query &q,
                       const std::string &body, const std::string &type) {
        auto r = s.transport->request(method, path, q, body, type, "application/json");
        return r.ok() && r->status < 300;
    };
    auto nameAt = [&](std::size_t i) { return before["items"][i]["metadata"]["name"].get<std::string>(); };
    const std::size_t n = before["items"].size();

    Json items = Json::array();
    std::string token;
    int pages = 0;
    do {
        client::Query q = base;
        q.push_back({"limit", "1"});
        if (!token.empty())
            q.push_back({"continue", token});
        const Json page = getJson(*s.transport, "/api/v1/pods", q);
        QVERIFY2(page.contains("items"), page.dump().c_str());
        QCOMPARE(page["metadata"]["resourceVersion"].get<std::string>(), rv);
        for (const auto &i : page["items"])
            items.push_back(i);
        token = page["metadata"].value("continue", "");
        if (!token.empty()) {
            QCOMPARE(page["metadata"].contains("remainingItemCount"), selector.isEmpty());
            if (selector.isEmpty())
                QCOMPARE(page["metadata"]["remainingItemCount"].get<std::size_t>(), n - items.size());
        }
        if (pages == 0) {
            // The last pod loses the selected label, then goes; one not yet served goes at once;
            // a pod that sorts after every other one appears.
            const std::string last = podsPath + "/" + nameAt(n - 1);
            QVERIFY(request("PATCH", last, {}, R"({"metadata":{"labels":{"app":"moved"}}})",
                            "application/merge-patch+json"));
            QVERIFY(request("DELETE", last, {{"gracePeriodSeconds", "0"}}, {}, {}));
            if (n >= 3)
                QVERIFY(request("DELETE", podsPath + "/" + nameAt(n - 2), {}, {}, {}));
            QVERIFY(request(
                "POST", podsPath, {},
                R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"zzz-late","labels":{"app":"web"}},)"
                R"("spec":{"nodeName":"node-1","containers":[{"name":"c","image":"busybox:1.36"}]}})",
                "application/json"));
        } else if (!token.empty() && items.size() + 2 < n) {
            // Every later page: the pod after it changes (up to the two deleted above).
            QVERIFY(request("PATCH", podsPath + "/" + nameAt(items.size()), {},
                            R"({"metadata":{"annotations":{"example.com/page":")" + std::to_string(pages) +
                                R"("}}})",
                            "application/merge-patch+json"));
        }
        ++pages;
    } while (!token.empty() && pages < 20);
    QCOMPARE(items, before["items"]);
    QCOMPARE(std::size_t(pages), n); // one pod a page, no empty page at the end
    // The writes were made: the list now differs.
    const Json after = getJson(*s.transport, "/api/v1/pods", base);
    QVERIFY(after["metadata"]["resourceVersion"] != before["metadata"]["resourceVersion"]);
    QVERIFY(after["items"] != before["items"]);
}

// The store under the pager: a pinned version reads as it was while its pods are written, and
// the old versions kept for it go when it is let go (none are kept while nothing is pinned).
void TstApiServer::podPagesReadPinnedVersionsAndLetThemGo()
{
    auto c = testCluster();
    QVERIFY(c);
    const auto all = c->podPage(c->resourceVersion(), {}, {}, 0, {}).pods;
    QVERIFY(all.size() >= 3);
    auto key = [](const kube::Pod &p) { return p.metadata.namespace_ + "/" + p.metadata.name; };
    QVERIFY(c->setPodLabels({key(all[0])}, {{"x", "1"}}));
    QCOMPARE(c->keptPodVersions(), std::size_t(0)); // nothing pinned, nothing kept

    const auto before = c->podPage(c->resourceVersion(), {}, {}, 0, {}).pods;
    const std::uint64_t rv = c->pinPods();
    QVERIFY(c->setPodLabels({key(before[1])}, {{"x", "2"}}));
    QVERIFY(c->setPodLabels({key(before[1])}, {{"x", "3"}}));
    QVERIFY(c->remove(api::Kind::Pod, before[2].metadata.namespace_, before[2].metadata.name, 0));
    QVERIFY(c->keptPodVersions() >= 2);
    // Page by page, two at a time, from the last key of the page before.
    std::vector<kube::Pod> read;
    std::string after;
    for (int i = 0; i < 10; ++i) {
        auto page = c->podPage(rv, {}, after, 2, {});
        read.insert(read.end(), page.pods.begin(), page.pods.end());
        after = page.lastKey;
        if (!page.more)
            break;
    }
    QCOMPARE(read.size(), before.size());
    for (std::size_t i = 0; i < read.size(); ++i)
        QCOMPARE(read[i].toJson(), before[i].toJson());
    // The current version reads the writes.
    std::map<std::string, kube::Pod> now;
    for (auto &p : c->podPage(c->resourceVersion(), {}, {}, 0, {}).pods)
        now[key(p)] = p;
    QCOMPARE(now.count(key(before[2])), std::size_t(0));
    QCOMPARE(now.at(key(before[1])).metadata.labels.at("x"), std::string("3"));

    c->unpinPods(rv);
    QCOMPARE(c->keptPodVersions(), std::size_t(0));
}

void TstApiServer::errorsAreStatusObjects_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("message");
    QTest::newRow("a missing DaemonSet is NotFound with its qualified resource")
        << u"GET"_s << u"/apis/apps/v1/namespaces/default/daemonsets/nope"_s << 404 << u"NotFound"_s
        << uR"(daemonsets.apps "nope" not found)"_s;
    QTest::newRow("a missing pod names the core resource without a group")
        << u"GET"_s << u"/api/v1/namespaces/default/pods/nope"_s << 404 << u"NotFound"_s
        << uR"(pods "nope" not found)"_s;
    QTest::newRow("an unknown resource is NotFound")
        << u"GET"_s << u"/apis/apps/v1/namespaces/default/deployments"_s << 404 << u"NotFound"_s
        << u"the server could not find the requested resource"_s;
    QTest::newRow("an unknown group is NotFound")
        << u"GET"_s << u"/apis/networking.k8s.io/v1/ingresses"_s << 404 << u"NotFound"_s
        << u"the server could not find the requested resource"_s;
    QTest::newRow("deleting a collection is not allowed")
        << u"DELETE"_s << u"/api/v1/namespaces/default/pods"_s << 405 << u"MethodNotAllowed"_s
        << u"the server does not allow this method on the requested resource"_s;
}

void TstApiServer::errorsAreStatusObjects()
{
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(int, code);
    QFETCH(QString, reason);
    QFETCH(QString, message);
    auto s = startServer();
    QVERIFY(s.server);
    auto r = s.transport->request(method.toStdString(), path.toStdString(), {}, {}, {}, "application/json");
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, code);
    QCOMPARE(QString::fromStdString(r.error().reason), reason);
    QCOMPARE(QString::fromStdString(r.error().message), message);
}

// Bodies whose members have the wrong JSON types used to reach the JSON library's exceptions
// (500 with its text) or, for a JSON Patch that adds below a string, an assertion that ended the
// process. Each is a client error with a message of our own, and the server goes on serving.
void TstApiServer::wronglyTypedBodiesAreClientErrors_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<QString>("body");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("messagePart");
    const QString merge = u"application/merge-patch+json"_s;
    QTest::newRow("a JSON Patch adding below a string")
        << u"PATCH"_s << u"application/json-patch+json"_s
        << uR"([{"op":"add","path":"/metadata/name/-","value":"x"}])"_s << 422
        << uR"(the parent "/metadata/name" is a string, not an object or an array)"_s;
    QTest::newRow("a JSON Patch copying below a number")
        << u"PATCH"_s << u"application/json-patch+json"_s
        << uR"([{"op":"copy","from":"/metadata/name","path":"/metadata/generation/x"}])"_s << 422
        << uR"(the parent "/metadata/generation" is a number)"_s;
    QTest::newRow("a merge patch turning metadata into a string")
        << u"PATCH"_s << merge << uR"({"metadata":"x"})"_s << 400 << u"does not match"_s;
    QTest::newRow("a merge patch giving the name a number")
        << u"PATCH"_s << merge << uR"({"metadata":{"name":5}})"_s << 400 << u"does not match"_s;
    QTest::newRow("a PUT whose name is a number")
        << u"PUT"_s << u"application/json"_s
        << uR"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":5}})"_s << 400
        << u"does not match"_s;
}

void TstApiServer::wronglyTypedBodiesAreClientErrors()
{
    QFETCH(QString, method);
    QFETCH(QString, contentType);
    QFETCH(QString, body);
    QFETCH(int, code);
    QFETCH(QString, messagePart);
    auto s = startServer();
    QVERIFY(s.server);
    const std::string path = "/apis/apps/v1/namespaces/default/daemonsets/web";
    const Json before = getJson(*s.transport, path);
    auto r = s.transport->request(method.toStdString(), path, {}, body.toStdString(),
                                  contentType.toStdString(), "application/json");
    QVERIFY(!r.ok());
    const QString message = QString::fromStdString(r.error().message);
    QCOMPARE(r.error().code, code);
    QVERIFY2(message.contains(messagePart), qPrintable(message));
    QVERIFY2(!message.contains(u"json.exception"_s) && !message.contains(u"type_error"_s),
             qPrintable(message));
    // Nothing was written and the server still answers.
    QCOMPARE(getJson(*s.transport, path), before);
}

void TstApiServer::putWithAStaleResourceVersionConflicts()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string path = "/apis/apps/v1/namespaces/default/daemonsets/web";
    Json ds = getJson(*s.transport, path);
    const std::string staleRv = ds["metadata"]["resourceVersion"];
    ds["metadata"]["labels"]["tier"] = "frontend";
    auto first = s.transport->request("PUT", path, {}, ds.dump(), "application/json", "application/json");
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
    const Json updated = Json::parse(first->body);
    QCOMPARE(updated["metadata"]["labels"]["tier"], "frontend");
    QVERIFY(updated["metadata"]["resourceVersion"] != staleRv);

    ds["metadata"]["labels"]["tier"] = "backend"; // still carries the stale resourceVersion
    auto second = s.transport->request("PUT", path, {}, ds.dump(), "application/json", "application/json");
    QVERIFY(!second.ok());
    QCOMPARE(second.error().code, 409);
    QCOMPARE(QString::fromStdString(second.error().reason), QStringLiteral("Conflict"));
    QCOMPARE(QString::fromStdString(second.error().message),
             QStringLiteral(
                 "Operation cannot be fulfilled on daemonsets.apps \"web\": the object has been modified; "
                 "please apply your changes to the latest version and try again"));
    QCOMPARE(getJson(*s.transport, path)["metadata"]["labels"]["tier"], "frontend");
}

void TstApiServer::patchTypesAndNoOpPatches()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string path = "/apis/apps/v1/namespaces/default/daemonsets/web";
    auto patch = [&](const std::string &type, const std::string &body) {
        auto r = s.transport->request("PATCH", path, {}, body, type, "application/json");
        return r.ok() ? Json::parse(r->body) : Json{{"error", r.error().message}};
    };
    const Json before = getJson(*s.transport, path);
    const Json merged = patch("application/merge-patch+json", R"({"metadata":{"labels":{"tier":"a"}}})");
    QCOMPARE(merged["metadata"]["labels"]["tier"], "a");
    QVERIFY(merged["metadata"]["resourceVersion"] != before["metadata"]["resourceVersion"]);
    // The same patch again changes nothing: the resourceVersion stays (kubectl prints "(no change)").
    const Json again = patch("application/merge-patch+json", R"({"metadata":{"labels":{"tier":"a"}}})");
    QCOMPARE(again["metadata"]["resourceVersion"], merged["metadata"]["resourceVersion"]);
    const Json jsonPatched = patch("application/json-patch+json",
                                   R"([{"op":"replace","path":"/metadata/labels/tier","value":"b"}])");
    QCOMPARE(jsonPatched["metadata"]["labels"]["tier"], "b");
    const Json strategic =
        patch("application/strategic-merge-patch+json",
              R"({"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.29"}]}}}})");
    QCOMPARE(strategic["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.29");
    // Strategic merge kept the container's other fields.
    QCOMPARE(strategic["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"], 80);
    QCOMPARE(strategic["metadata"]["generation"].get<int>(), before["metadata"]["generation"].get<int>() + 1);
}

void TstApiServer::unknownPatchTypeIsUnsupportedMediaType()
{
    auto s = startServer();
    QVERIFY(s.server);
    auto r = s.transport->request("PATCH", "/apis/apps/v1/namespaces/default/daemonsets/web", {}, "{}",
                                  "application/x-yaml-patch", "application/json");
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 415);
    QCOMPARE(QString::fromStdString(r.error().reason), QStringLiteral("UnsupportedMediaType"));
}

void TstApiServer::statusSubresourceWritesOnlyStatus()
{
    auto s = startServer();
    QVERIFY(s.server);
    auto r =
        s.transport->request("PATCH", "/apis/apps/v1/namespaces/default/daemonsets/web/status", {},
                             R"({"metadata":{"labels":{"ignored":"yes"}},"status":{"numberMisscheduled":2}})",
                             "application/merge-patch+json", "application/json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const Json ds = getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/web");
    QCOMPARE(ds["status"]["numberMisscheduled"], 2);
    QVERIFY(!ds["metadata"]["labels"].contains("ignored"));
}

void TstApiServer::createThenCreateAgainIsAlreadyExists()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string ds = R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent"},
        "spec":{"selector":{"matchLabels":{"app":"agent"}},"template":{"metadata":{"labels":{"app":"agent"}},
        "spec":{"containers":[{"name":"agent","image":"agent:1"}]}}}})";
    auto created = s.transport->request("POST", "/apis/apps/v1/namespaces/default/daemonsets", {}, ds,
                                        "application/json", "application/json");
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    QCOMPARE(created->status, 201);
    const Json object = Json::parse(created->body);
    QCOMPARE(object["metadata"]["namespace"], "default"); // from the URL
    QCOMPARE(object["metadata"]["generation"], 1);
    QCOMPARE(object["spec"]["updateStrategy"]["type"], "RollingUpdate"); // API defaulting
    QVERIFY(!object["metadata"].value("uid", "").empty());

    auto again = s.transport->request("POST", "/apis/apps/v1/namespaces/default/daemonsets", {}, ds,
                                      "application/json", "application/json");
    QVERIFY(!again.ok());
    QCOMPARE(again.error().code, 409);
    QCOMPARE(QString::fromStdString(again.error().reason), QStringLiteral("AlreadyExists"));
    QCOMPARE(QString::fromStdString(again.error().message),
             QStringLiteral(R"(daemonsets.apps "agent" already exists)"));

    Json inDefault = Json::parse(ds);
    inDefault["metadata"]["name"] = "agent2";
    inDefault["metadata"]["namespace"] = "default";
    // The body names another namespace than the URL.
    auto elsewhere = s.transport->request("POST", "/apis/apps/v1/namespaces/kube-system/daemonsets", {},
                                          inDefault.dump(), "application/json", "application/json");
    QVERIFY(!elsewhere.ok());
    QCOMPARE(elsewhere.error().code, 400);
}

void TstApiServer::deleteHonoursPreconditionsAndGracePeriods()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json solo = getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/solo");
    auto wrongUid = s.transport->request("DELETE", "/apis/apps/v1/namespaces/default/daemonsets/solo", {},
                                         R"({"preconditions":{"uid":"not-the-uid"}})", "application/json",
                                         "application/json");
    QVERIFY(!wrongUid.ok());
    QCOMPARE(wrongUid.error().code, 409);
    QVERIFY(wrongUid.error().message.rfind("Precondition failed: UID in precondition: not-the-uid", 0) == 0);

    // A pod is deleted gracefully: it stays, with a deletionTimestamp, until the kubelet is done.
    const std::string pod = getJson(*s.transport, "/api/v1/namespaces/default/pods",
                                    {{"labelSelector", "app=solo"}})["items"][0]["metadata"]["name"];
    auto graceful = s.transport->request("DELETE", "/api/v1/namespaces/default/pods/" + pod, {}, {}, {},
                                         "application/json");
    QVERIFY2(graceful.ok(), graceful.ok() ? "" : graceful.error().message.c_str());
    QVERIFY(Json::parse(graceful->body)["metadata"].contains("deletionTimestamp"));
    QVERIFY(getJson(*s.transport, "/api/v1/namespaces/default/pods/" + pod)["metadata"].contains(
        "deletionTimestamp"));
    // gracePeriodSeconds=0 removes it at once.
    auto now = s.transport->request("DELETE", "/api/v1/namespaces/default/pods/" + pod,
                                    {{"gracePeriodSeconds", "0"}}, {}, {}, "application/json");
    QVERIFY2(now.ok(), now.ok() ? "" : now.error().message.c_str());
    QCOMPARE(getJson(*s.transport, "/api/v1/namespaces/default/pods/" + pod)["code"], 404);

    auto removed = s.transport->request("DELETE", "/apis/apps/v1/namespaces/default/daemonsets/solo", {},
                                        Json{{"preconditions", {{"uid", solo["metadata"]["uid"]}}}}.dump(),
                                        "application/json", "application/json");
    QVERIFY2(removed.ok(), removed.ok() ? "" : removed.error().message.c_str());
    QCOMPARE(getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/solo")["code"], 404);
}

// kubectl delete --dry-run=server sends dryRun in the DeleteOptions body (curl users put it in
// the query): the object, its pods and its namespace must all still be there afterwards.
void TstApiServer::dryRunDeleteChangesNothing_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("body");
    QTest::addColumn<bool>("inQuery");
    QTest::newRow("a DaemonSet, dryRun in the body")
        << u"/apis/apps/v1/namespaces/default/daemonsets/solo"_s
        << uR"({"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background","dryRun":["All"]})"_s
        << false;
    QTest::newRow("a DaemonSet, dryRun in the query")
        << u"/apis/apps/v1/namespaces/default/daemonsets/solo"_s << QString() << true;
    QTest::newRow("the namespace") << u"/api/v1/namespaces/default"_s
                                   << uR"({"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]})"_s
                                   << false;
}

void TstApiServer::dryRunDeleteChangesNothing()
{
    QFETCH(QString, path);
    QFETCH(QString, body);
    QFETCH(bool, inQuery);
    auto s = startServer();
    QVERIFY(s.server);
    const std::size_t podsBefore = getJson(*s.transport, "/api/v1/namespaces/default/pods")["items"].size();
    QVERIFY(podsBefore > 0);
    const Json before = getJson(*s.transport, path.toStdString());
    auto r = s.transport->request(
        "DELETE", path.toStdString(), inQuery ? client::Query{{"dryRun", "All"}} : client::Query{},
        body.toStdString(), body.isEmpty() ? "" : "application/json", "application/json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(Json::parse(r->body)["metadata"]["name"], before["metadata"]["name"]);
    const Json after = getJson(*s.transport, path.toStdString());
    QCOMPARE(after["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"]);
    QVERIFY(!after["metadata"].contains("deletionTimestamp"));
    QCOMPARE(getJson(*s.transport, "/api/v1/namespaces/default/pods")["items"].size(), podsBefore);
    QVERIFY(getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/solo")["metadata"].contains(
        "uid"));

    // A value other than All is refused, and nothing happens either.
    auto bad =
        s.transport->request("DELETE", path.toStdString(), {{"dryRun", "Some"}}, {}, {}, "application/json");
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().code, 400);
    QVERIFY(getJson(*s.transport, path.toStdString())["metadata"].contains("uid"));
}

// kubectl delete --cascade=orphan: propagationPolicy Orphan in the body; the pods stay and lose
// the owner reference. The deprecated orphanDependents flag does the same.
void TstApiServer::orphanDeleteKeepsTheDependents_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<bool>("orphan");
    QTest::newRow("propagationPolicy Orphan")
        << uR"({"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan"})"_s << true;
    QTest::newRow("orphanDependents true") << uR"({"orphanDependents":true})"_s << true;
    QTest::newRow("propagationPolicy Foreground") << uR"({"propagationPolicy":"Foreground"})"_s << false;
    QTest::newRow("no options: background") << QString() << false;
}

void TstApiServer::orphanDeleteKeepsTheDependents()
{
    QFETCH(QString, body);
    QFETCH(bool, orphan);
    auto s = startServer();
    QVERIFY(s.server);
    const Json solo = getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/solo");
    const std::string uid = solo["metadata"]["uid"];
    const client::Query bySelector{{"labelSelector", "app=solo"}};
    const std::size_t pods =
        getJson(*s.transport, "/api/v1/namespaces/default/pods", bySelector)["items"].size();
    QVERIFY(pods > 0);
    auto r = s.transport->request("DELETE", "/apis/apps/v1/namespaces/default/daemonsets/solo", {},
                                  body.toStdString(), body.isEmpty() ? "" : "application/json",
                                  "application/json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/solo")["code"], 404);
    const Json left = getJson(*s.transport, "/api/v1/namespaces/default/pods", bySelector);
    if (!orphan) {
        // Background and foreground: the pods go (gracefully: terminating or gone).
        for (const auto &p : left["items"])
            QVERIFY(p["metadata"].contains("deletionTimestamp"));
        return;
    }
    QCOMPARE(left["items"].size(), pods);
    for (const auto &p : left["items"]) {
        QVERIFY(!p["metadata"].contains("deletionTimestamp"));
        for (const auto &ref : p["metadata"].value("ownerReferences", Json::array()))
            QVERIFY(ref.value("uid", "") != uid);
    }
    // An unknown policy is refused before anything happens.
    auto bad =
        s.transport->request("DELETE", "/apis/apps/v1/namespaces/default/daemonsets/web", {},
                             R"({"propagationPolicy":"Sometimes"})", "application/json", "application/json");
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().code, 422);
    QVERIFY(
        getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/web")["metadata"].contains("uid"));
}

// The self-subject reviews (kubectl auth can-i / whoami), in JSON and in protobuf: answered with
// their status, 201, nothing stored; discovery lists them.
void TstApiServer::reviewsAnswerWithoutStoring()
{
    auto s = startServer();
    QVERIFY(s.server);
    std::uint64_t before = 0;
    s.server->withCluster([&](sim::Cluster &c) { before = c.resourceVersion(); });
    const Json ssar = {{"apiVersion", "authorization.k8s.io/v1"},
                       {"kind", "SelfSubjectAccessReview"},
                       {"spec", {{"resourceAttributes", {{"verb", "delete"}, {"resource", "pods"}}}}}};
    auto r = s.transport->request("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {},
                                  ssar.dump(), "application/json", "application/json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->status, 201);
    const Json answer = Json::parse(r->body);
    QCOMPARE(answer["status"]["allowed"], Json(true));
    QCOMPARE(answer["spec"]["resourceAttributes"]["verb"], Json("delete"));

    // kubectl 1.32+ sends the review as protobuf.
    const std::string attrs = pbBytes(2, "get") + pbBytes(5, "nodes");
    auto pb = s.transport->request(
        "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {},
        pbEnvelope("authorization.k8s.io/v1", "SelfSubjectAccessReview", pbBytes(2, pbBytes(1, attrs))),
        "application/vnd.kubernetes.protobuf", "application/json");
    QVERIFY2(pb.ok(), pb.ok() ? "" : pb.error().message.c_str());
    QCOMPARE(Json::parse(pb->body)["spec"]["resourceAttributes"]["resource"], Json("nodes"));

    // Neither attribute set: invalid, as upstream's validation has it.
    Json empty = ssar;
    empty["spec"] = Json::object();
    auto invalid = s.transport->request("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {},
                                        empty.dump(), "application/json", "application/json");
    QVERIFY(!invalid.ok());
    QCOMPARE(invalid.error().code, 422);

    auto who = s.transport->request("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {},
                                    pbEnvelope("authentication.k8s.io/v1", "SelfSubjectReview", ""),
                                    "application/vnd.kubernetes.protobuf", "application/json");
    QVERIFY2(who.ok(), who.ok() ? "" : who.error().message.c_str());
    QCOMPARE(Json::parse(who->body)["status"]["userInfo"]["username"], Json("system:anonymous"));
    QCOMPARE(getJson(*s.transport, "/apis/authentication.k8s.io/v1/selfsubjectreviews")["code"], Json(405));

    const Json resources = getJson(*s.transport, "/apis/authorization.k8s.io/v1");
    QCOMPARE(resources["resources"].size(), 2u);
    QCOMPARE(resources["resources"][0]["name"], Json("selfsubjectaccessreviews"));
    QCOMPARE(resources["resources"][0]["verbs"], Json::array({"create"}));
    std::uint64_t after = 0;
    s.server->withCluster([&](sim::Cluster &c) { after = c.resourceVersion(); });
    QCOMPARE(after, before);
}

// ?dryRun=All on POST, PUT and PATCH (kubectl diff, --dry-run=server): the answer is the object
// as it would be stored, and the server's resourceVersion and objects stay as they were; another
// value is a 400.
void TstApiServer::dryRunWritesChangeNothing_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<QString>("body");
    QTest::addColumn<int>("code");
    const QString ds = u"/apis/apps/v1/namespaces/default/daemonsets"_s;
    QTest::newRow("create a DaemonSet")
        << u"POST"_s << ds << u"application/json"_s
        << uR"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"probe"},"spec":{"selector":{"matchLabels":{"app":"p"}},"template":{"metadata":{"labels":{"app":"p"}},"spec":{"containers":[{"name":"p","image":"p:1"}]}}}})"_s
        << 201;
    QTest::newRow("strategic patch of a template")
        << u"PATCH"_s << ds + u"/web"_s << u"application/strategic-merge-patch+json"_s
        << uR"({"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:9"}]}}}})"_s << 200;
    QTest::newRow("merge patch of the status subresource")
        << u"PATCH"_s << ds + u"/web/status"_s << u"application/merge-patch+json"_s
        << uR"({"status":{"numberReady":0}})"_s << 200;
    QTest::newRow("create a namespace")
        << u"POST"_s << u"/api/v1/namespaces"_s << u"application/json"_s
        << uR"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"dry"}})"_s << 201;
    QTest::newRow("an invalid create is refused as without the dry run")
        << u"POST"_s << ds << u"application/json"_s
        << uR"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"probe"},"spec":{}})"_s << 422;
}

void TstApiServer::dryRunWritesChangeNothing()
{
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(QString, contentType);
    QFETCH(QString, body);
    QFETCH(int, code);
    auto s = startServer();
    QVERIFY(s.server);
    auto rv = [&] {
        std::uint64_t v = 0;
        s.server->withCluster([&](sim::Cluster &c) { v = c.resourceVersion(); });
        return v;
    };
    const std::uint64_t before = rv();
    const Json webBefore = getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/web");
    auto r = s.transport->request(method.toStdString(), path.toStdString(), {{"dryRun", "All"}},
                                  body.toStdString(), contentType.toStdString(), "application/json");
    if (code >= 400) {
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, code);
    } else {
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->status, code);
        const Json answer = Json::parse(r->body);
        QVERIFY(answer["metadata"].is_object());
        if (method == u"PATCH"_s && path.endsWith(u"/web"_s))
            QCOMPARE(answer["spec"]["template"]["spec"]["containers"][0]["image"], Json("nginx:9"));
    }
    QCOMPARE(rv(), before);
    QCOMPARE(getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/web"), webBefore);
    QCOMPARE(getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/probe")["code"], Json(404));
    QCOMPARE(getJson(*s.transport, "/api/v1/namespaces/dry")["code"], Json(404));

    auto bad = s.transport->request(method.toStdString(), path.toStdString(), {{"dryRun", "Some"}},
                                    body.toStdString(), contentType.toStdString(), "application/json");
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().code, 400);
    QCOMPARE(bad.error().message, std::string("Invalid dry run value: Some (supported values: \"All\")"));
    QCOMPARE(rv(), before);
}

// policy/v1 PodDisruptionBudgets and pods/eviction over HTTP (kubectl drain's requests): the
// budget's status is kept by the disruption controller, an eviction it allows is 201 Success,
// one it refuses is 429 with a DisruptionBudget cause; kubectl 1.32+ sends the Eviction as
// protobuf, older versions as JSON, and both are understood. Discovery names the subresource.
void TstApiServer::evictionHonoursTheBudgetInJsonAndProtobuf()
{
    auto s = startServer();
    QVERIFY(s.server);
    auto settle = [&] { s.server->withCluster([](sim::Cluster &c) { c.advance(0); }); };

    const Json core = getJson(*s.transport, "/api/v1");
    bool eviction = false;
    for (const auto &r : core["resources"])
        eviction = eviction || (r["name"] == "pods/eviction" && r["group"] == "policy" &&
                                r["version"] == "v1" && r["kind"] == "Eviction");
    QVERIFY(eviction);
    bool policy = false;
    const Json groups = getJson(*s.transport, "/apis");
    for (const auto &g : groups["groups"])
        policy = policy || g["name"] == "policy";
    QVERIFY(policy);

    const Json pdb = {{"apiVersion", "policy/v1"},
                      {"kind", "PodDisruptionBudget"},
                      {"metadata", {{"name", "web"}}},
                      {"spec", {{"minAvailable", 2}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}}};
    auto created = s.transport->request("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets", {},
                                        pdb.dump(), "application/json", "application/json");
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    QCOMPARE(created->status, 201);
    settle();
    const Json status =
        getJson(*s.transport, "/apis/policy/v1/namespaces/default/poddisruptionbudgets/web")["status"];
    QCOMPARE(status["currentHealthy"], Json(3));
    QCOMPARE(status["disruptionsAllowed"], Json(1));
    const Json table =
        getJson(*s.transport, "/apis/policy/v1/namespaces/default/poddisruptionbudgets", {}, kTableAccept);
    QCOMPARE(toList(columnNames(table)), (QStringList{u"Name"_s, u"Min Available"_s, u"Max Unavailable"_s,
                                                      u"Allowed Disruptions"_s, u"Age"_s}));
    QCOMPARE(table["rows"][0]["cells"][1], Json("2"));
    QCOMPARE(table["rows"][0]["cells"][2], Json("N/A"));

    std::vector<std::string> web;
    const Json webPods =
        getJson(*s.transport, "/api/v1/namespaces/default/pods", {{"labelSelector", "app=web"}});
    for (const auto &p : webPods["items"])
        web.push_back(p["metadata"]["name"].get<std::string>());
    QCOMPARE(web.size(), std::size_t(3));
    auto podPath = [](const std::string &name) { return "/api/v1/namespaces/default/pods/" + name; };

    // JSON (kubectl up to 1.31): allowed, the budget is spent.
    const Json ev = {{"apiVersion", "policy/v1"},
                     {"kind", "Eviction"},
                     {"metadata", {{"name", web[0]}, {"namespace", "default"}}}};
    auto first = s.transport->request("POST", podPath(web[0]) + "/eviction", {}, ev.dump(),
                                      "application/json", "application/json");
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
    QCOMPARE(first->status, 201);
    QCOMPARE(Json::parse(first->body)["status"], Json("Success"));
    const Json gone = getJson(*s.transport, podPath(web[0]));
    QVERIFY(gone.contains("error") || gone["metadata"].contains("deletionTimestamp"));
    settle();

    // Protobuf (kubectl 1.32+): refused by the budget, with the numbers in the cause.
    auto second = s.transport->request(
        "POST", podPath(web[1]) + "/eviction", {}, pbEviction(web[1], "default", false),
        "application/vnd.kubernetes.protobuf", "application/vnd.kubernetes.protobuf, */*");
    QVERIFY(!second.ok());
    QCOMPARE(second.error().code, 429);
    QCOMPARE(second.error().reason, std::string("TooManyRequests"));
    QCOMPARE(second.error().causes.size(), std::size_t(1));
    QCOMPARE(second.error().causes[0].type, std::string("DisruptionBudget"));
    QCOMPARE(second.error().causes[0].message,
             std::string("The disruption budget web needs 2 healthy pods and has 2 currently"));
    QVERIFY(!getJson(*s.transport, podPath(web[1]))["metadata"].contains("deletionTimestamp"));

    // A dry run in protobuf of a pod no budget covers: allowed, nothing deleted.
    const Json solo =
        getJson(*s.transport, "/api/v1/namespaces/default/pods", {{"labelSelector", "app=solo"}});
    const std::string soloPod = solo["items"][0]["metadata"]["name"].get<std::string>();
    auto dry =
        s.transport->request("POST", podPath(soloPod) + "/eviction", {}, pbEviction(soloPod, "default", true),
                             "application/vnd.kubernetes.protobuf", "application/json");
    QVERIFY2(dry.ok(), dry.ok() ? "" : dry.error().message.c_str());
    QVERIFY(!getJson(*s.transport, podPath(soloPod))["metadata"].contains("deletionTimestamp"));

    // A protobuf DeleteOptions (kubectl 1.32+ drain --disable-eviction, typed deletes): dry run.
    auto del = s.transport->request("DELETE", podPath(soloPod), {},
                                    pbEnvelope("v1", "DeleteOptions", pbBytes(5, "All") + pbInt(1, 0)),
                                    "application/vnd.kubernetes.protobuf", "application/json");
    QVERIFY2(del.ok(), del.ok() ? "" : del.error().message.c_str());
    QVERIFY(!getJson(*s.transport, podPath(soloPod))["metadata"].contains("deletionTimestamp"));
    // The same without the dry run deletes (grace 0: at once).
    auto del2 =
        s.transport->request("DELETE", podPath(soloPod), {}, pbEnvelope("v1", "DeleteOptions", pbInt(1, 0)),
                             "application/vnd.kubernetes.protobuf", "application/json");
    QVERIFY2(del2.ok(), del2.ok() ? "" : del2.error().message.c_str());
    QCOMPARE(getJson(*s.transport, podPath(soloPod))["code"], Json(404));
}

void TstApiServer::protobufBodiesAreCheckedBeforeUse_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    auto bytes = [](const std::string &s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); };
    QTest::newRow("no envelope") << QByteArray("{\"kind\":\"Eviction\"}") << 400 << u"envelope prefix"_s;
    QTest::newRow("length past the end")
        << bytes(std::string("k8s\0", 4) + "\x0a\x7f") << 400 << u"longer than the message"_s;
    QTest::newRow("unterminated varint")
        << bytes(std::string("k8s\0", 4) + "\x10\xff\xff") << 400 << u"varint ends early"_s;
    QTest::newRow("group wire type") << bytes(std::string("k8s\0", 4) + "\x0b") << 400 << u"wire type 3"_s;
    QTest::newRow("another kind") << bytes(pbEnvelope("v1", "Pod", "")) << 415 << u"Kind=Pod"_s;
    QTest::newRow("name is not a string")
        << bytes(pbEnvelope("policy/v1", "Eviction", pbBytes(1, pbInt(1, 7)))) << 400
        << u"name is not a string"_s;
    QTest::newRow("other pod's name")
        << bytes(pbEviction("someone-else", "default", false)) << 400 << u"name in URL does not match"_s;
}

void TstApiServer::protobufBodiesAreCheckedBeforeUse()
{
    QFETCH(QByteArray, body);
    QFETCH(int, code);
    QFETCH(QString, message);
    auto s = startServer();
    QVERIFY(s.server);
    const Json pods =
        getJson(*s.transport, "/api/v1/namespaces/default/pods", {{"labelSelector", "app=web"}});
    const std::string pod = pods["items"][0]["metadata"]["name"].get<std::string>();
    const std::string rvBefore = pods["metadata"]["resourceVersion"].get<std::string>();
    auto r =
        s.transport->request("POST", "/api/v1/namespaces/default/pods/" + pod + "/eviction", {},
                             body.toStdString(), "application/vnd.kubernetes.protobuf", "application/json");
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, code);
    QVERIFY2(QString::fromStdString(r.error().message).contains(message), r.error().message.c_str());
    const Json after =
        getJson(*s.transport, "/api/v1/namespaces/default/pods", {{"labelSelector", "app=web"}});
    QCOMPARE(after["metadata"]["resourceVersion"].get<std::string>(), rvBefore);
}

namespace {

kube::Result<client::HttpResponse> send(client::Transport &t, const char *method, const std::string &path,
                                        const Json &body, const client::Query &query = {})
{
    return t.request(method, path, query, body.dump(), "application/json", "application/json");
}

Json service(const std::string &name, const Json &spec)
{
    return {{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", name}}}, {"spec", spec}};
}

} // namespace

// SetDefaults_Service and the allocators: the bootstrap `kubernetes` Service holds the range's
// first address; later ones get the lowest free address and node port; requested addresses are
// refused when taken, addresses never change, and a deleted Service gives its address back.
void TstApiServer::servicesAllocateAndKeepTheirAddresses()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/api/v1/namespaces/default/services";
    const Json kubernetes = getJson(*s.transport, base + "/kubernetes");
    QCOMPARE(kubernetes["spec"]["clusterIP"], "10.96.0.1");
    QCOMPARE(kubernetes["metadata"]["labels"]["provider"], "kubernetes");
    QCOMPARE(kubernetes["spec"]["ports"][0]["targetPort"], s.server->port());

    auto web =
        send(*s.transport, "POST", base,
             service("web", {{"selector", {{"app", "web"}}}, {"ports", Json::array({{{"port", 80}}})}}));
    QVERIFY2(web.ok(), web.ok() ? "" : web.error().message.c_str());
    const Json w = Json::parse(web->body);
    QCOMPARE(w["spec"]["clusterIP"], "10.96.0.2");
    QCOMPARE(w["spec"]["clusterIPs"], Json::array({"10.96.0.2"}));
    QCOMPARE(w["spec"]["type"], "ClusterIP");
    QCOMPARE(w["spec"]["sessionAffinity"], "None");
    QCOMPARE(w["spec"]["internalTrafficPolicy"], "Cluster");
    QCOMPARE(w["spec"]["ipFamilies"], Json::array({"IPv4"}));
    QCOMPARE(w["spec"]["ports"][0]["protocol"], "TCP");
    QCOMPARE(w["spec"]["ports"][0]["targetPort"], 80);
    QCOMPARE(w["status"], Json({{"loadBalancer", Json::object()}}));

    // A NodePort Service over protobuf, as kubectl 1.32+ creates it.
    const std::string port =
        pbBytes(1, "http") + pbInt(3, 8080) + pbBytes(4, pbInt(1, 1) + pbBytes(3, "web"));
    const std::string spec = pbBytes(1, port) + pbBytes(4, "NodePort");
    auto np = s.transport->request(
        "POST", base, {}, pbEnvelope("v1", "Service", pbBytes(1, pbBytes(1, "np")) + pbBytes(2, spec)),
        "application/vnd.kubernetes.protobuf", "application/json");
    QVERIFY2(np.ok(), np.ok() ? "" : np.error().message.c_str());
    const Json n = Json::parse(np->body);
    QCOMPARE(n["spec"]["clusterIP"], "10.96.0.3");
    QCOMPARE(n["spec"]["ports"][0]["nodePort"], 30000);
    QCOMPARE(n["spec"]["ports"][0]["targetPort"], "web");
    QCOMPARE(n["spec"]["externalTrafficPolicy"], "Cluster");

    auto taken =
        send(*s.transport, "POST", base,
             service("other", {{"clusterIP", "10.96.0.2"}, {"ports", Json::array({{{"port", 80}}})}}));
    QVERIFY(!taken.ok());
    QCOMPARE(taken.error().code, 422);
    QVERIFY2(QString::fromStdString(taken.error().message).contains(u"provided IP is already allocated"_s),
             taken.error().message.c_str());
    auto outside =
        send(*s.transport, "POST", base,
             service("other", {{"clusterIP", "10.0.0.1"}, {"ports", Json::array({{{"port", 80}}})}}));
    QVERIFY(!outside.ok());
    QVERIFY(QString::fromStdString(outside.error().message).contains(u"is not in the valid range"_s));
    auto portTaken = send(*s.transport, "POST", base,
                          service("other", {{"type", "NodePort"},
                                            {"ports", Json::array({{{"port", 80}, {"nodePort", 30000}}})}}));
    QVERIFY(!portTaken.ok());
    QVERIFY(
        QString::fromStdString(portTaken.error().message).contains(u"provided port is already allocated"_s));

    // An update without the address keeps it; one that changes it is refused.
    Json put = w;
    put["spec"].erase("clusterIP");
    put["spec"].erase("clusterIPs");
    put["metadata"]["labels"] = {{"tier", "front"}};
    auto kept = send(*s.transport, "PUT", base + "/web", put);
    QVERIFY2(kept.ok(), kept.ok() ? "" : kept.error().message.c_str());
    QCOMPARE(Json::parse(kept->body)["spec"]["clusterIP"], "10.96.0.2");
    auto moved = s.transport->request("PATCH", base + "/web", {}, R"({"spec":{"clusterIP":"10.96.0.9"}})",
                                      "application/merge-patch+json", "application/json");
    QVERIFY(!moved.ok());
    QCOMPARE(moved.error().code, 422);
    QVERIFY(QString::fromStdString(moved.error().message).contains(u"may not change once set"_s));

    // A deleted Service frees its address; the next one takes the lowest free address.
    QVERIFY(s.transport->request("DELETE", base + "/web", {}, {}, {}, "application/json").ok());
    auto again =
        send(*s.transport, "POST", base, service("again", {{"ports", Json::array({{{"port", 81}}})}}));
    QVERIFY(again.ok());
    QCOMPARE(Json::parse(again->body)["spec"]["clusterIP"], "10.96.0.2");

    const Json table = getJson(*s.transport, base, {}, kTableAccept);
    QCOMPARE(toList(columnNames(table)).mid(0, 6),
             QStringList({u"Name"_s, u"Type"_s, u"Cluster-IP"_s, u"External-IP"_s, u"Port(s)"_s, u"Age"_s}));
    bool sawNodePort = false;
    for (const auto &row : table["rows"])
        if (row["cells"][0] == "np")
            sawNodePort = row["cells"][4] == "8080:30000/TCP" && row["cells"][3] == "<none>";
    QVERIFY(sawNodePort);
}

void TstApiServer::serviceErrorsNameTheField_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("port zero") << QByteArray(R"({"ports":[{"port":0}]})") << 422 << u"spec.ports[0].port"_s
                               << u"must be between 1 and 65535, inclusive"_s;
    QTest::newRow("two unnamed ports") << QByteArray(R"({"ports":[{"port":80,"name":"a"},{"port":81}]})")
                                       << 422 << u"spec.ports[1].name"_s << u"Required value"_s;
    QTest::newRow("duplicate names") << QByteArray(
                                            R"({"ports":[{"port":80,"name":"a"},{"port":81,"name":"a"}]})")
                                     << 422 << u"spec.ports[1].name"_s << u"Duplicate value"_s;
    QTest::newRow("protocol") << QByteArray(R"({"ports":[{"port":80,"protocol":"HTTP"}]})") << 422
                              << u"spec.ports[0].protocol"_s << u"Unsupported value: \"HTTP\""_s;
    QTest::newRow("type") << QByteArray(R"({"type":"Mesh","ports":[{"port":80}]})") << 422 << u"spec.type"_s
                          << u"Unsupported value: \"Mesh\""_s;
    QTest::newRow("no ports") << QByteArray(R"({"selector":{"app":"web"}})") << 422 << u"spec.ports"_s
                              << u"Required value"_s;
    QTest::newRow("external name") << QByteArray(R"({"type":"ExternalName"})") << 422
                                   << u"spec.externalName"_s << u"Required value"_s;
    QTest::newRow("port as text")
        << QByteArray(R"({"ports":[{"port":"80"}]})") << 400 << QString()
        << u"cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32"_s;
}

void TstApiServer::serviceErrorsNameTheField()
{
    QFETCH(QByteArray, spec);
    QFETCH(int, code);
    QFETCH(QString, field);
    QFETCH(QString, message);
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/api/v1/namespaces/default/services";
    auto r = send(*s.transport, "POST", base, service("bad", Json::parse(spec.toStdString())));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, code);
    QVERIFY2(QString::fromStdString(r.error().message).contains(message), r.error().message.c_str());
    if (!field.isEmpty()) {
        QVERIFY(!r.error().causes.empty());
        QCOMPARE(QString::fromStdString(r.error().causes.front().field), field);
    }
    QCOMPARE(getJson(*s.transport, base + "/bad")["code"], 404);
    // Nothing was allocated: the next Service gets the second address.
    auto ok = send(*s.transport, "POST", base, service("ok", {{"ports", Json::array({{{"port", 80}}})}}));
    QVERIFY(ok.ok());
    QCOMPARE(Json::parse(ok->body)["spec"]["clusterIP"], "10.96.0.2");
}

// LeaseSpec's Go types and ValidateLeaseSpec; MicroTime comes back in UTC with six digits.
void TstApiServer::leasesAreCheckedAndKeptInMicroTime()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    const Json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                        {"kind", "Lease"},
                        {"metadata", {{"name", "controller"}}},
                        {"spec",
                         {{"holderIdentity", "a"},
                          {"leaseDurationSeconds", 15},
                          {"acquireTime", "2026-12-03T10:00:00.5+01:00"},
                          {"renewTime", "2026-12-03T09:00:01.123456Z"},
                          {"leaseTransitions", 0},
                          {"unknownField", 1}}}};
    auto created = send(*s.transport, "POST", base, lease);
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    const Json c = Json::parse(created->body);
    QCOMPARE(c["spec"]["acquireTime"], "2026-12-03T09:00:00.500000Z");
    QCOMPARE(c["spec"]["renewTime"], "2026-12-03T09:00:01.123456Z");
    QVERIFY(!c["spec"].contains("unknownField"));
    QVERIFY(!c["metadata"]["uid"].get<std::string>().empty());

    // Leader election's renewal: an update with the resourceVersion it read.
    Json renew = c;
    renew["spec"]["renewTime"] = "2026-12-03T09:00:11.000000Z";
    auto renewed = send(*s.transport, "PUT", base + "/controller", renew);
    QVERIFY(renewed.ok());
    QCOMPARE(Json::parse(renewed->body)["spec"]["renewTime"], "2026-12-03T09:00:11.000000Z");
    auto stale = send(*s.transport, "PUT", base + "/controller", renew); // the same, older resourceVersion
    QVERIFY(!stale.ok());
    QCOMPARE(stale.error().code, 409);

    Json bad = lease;
    bad["metadata"]["name"] = "bad";
    bad["spec"]["leaseDurationSeconds"] = 0;
    auto zero = send(*s.transport, "POST", base, bad);
    QVERIFY(!zero.ok());
    QCOMPARE(zero.error().code, 422);
    QVERIFY(QString::fromStdString(zero.error().message)
                .contains(u"spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"_s));
    bad["spec"]["leaseDurationSeconds"] = "15";
    auto text = send(*s.transport, "POST", base, bad);
    QVERIFY(!text.ok());
    QCOMPARE(text.error().code, 400);
    QVERIFY(
        QString::fromStdString(text.error().message)
            .contains(
                u"cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32"_s));
    bad["spec"]["leaseDurationSeconds"] = 15;
    bad["spec"]["renewTime"] = "yesterday";
    auto time = send(*s.transport, "POST", base, bad);
    QVERIFY(!time.ok());
    QCOMPARE(time.error().code, 400);
    QCOMPARE(getJson(*s.transport, base + "/bad")["code"], 404);

    const Json table = getJson(*s.transport, base, {}, kTableAccept);
    QCOMPARE(toList(columnNames(table)), QStringList({u"Name"_s, u"Holder"_s, u"Age"_s}));
    QCOMPARE(table["rows"][0]["cells"][1], "a");
}

// Kubelet's node lease controller: one Lease per node in kube-node-lease, owned by the Node,
// renewed every 10 s while the kubelet reaches the server; gone with its Node.
void TstApiServer::nodeLeasesFollowTheKubelets()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases";
    const Json leases = getJson(*s.transport, base);
    QCOMPARE(leases["items"].size(), 3u);
    const Json first = leases["items"][0];
    QCOMPARE(first["metadata"]["name"], "node-0");
    QCOMPARE(first["spec"]["holderIdentity"], "node-0");
    QCOMPARE(first["spec"]["leaseDurationSeconds"], 40);
    const Json node = getJson(*s.transport, "/api/v1/nodes/node-0");
    QCOMPARE(first["metadata"]["ownerReferences"][0]["kind"], "Node");
    QCOMPARE(first["metadata"]["ownerReferences"][0]["uid"], node["metadata"]["uid"]);
    const std::string renewed = first["spec"]["renewTime"];

    s.server->withCluster([](sim::Cluster &c) {
        (void)c.fault("node-1", sim::FaultKind::Unreachable);
        c.advance(10'000);
        (void)c.remove(api::Kind::Node, "", "node-2");
        c.advance(10'000);
    });
    const Json after = getJson(*s.transport, base);
    QCOMPARE(after["items"].size(), 2u); // node-2's Lease went with it
    QCOMPARE(after["items"][0]["metadata"]["name"], "node-0");
    const auto t0 = kube::parseRfc3339(after["items"][0]["spec"]["renewTime"].get<std::string>());
    const auto before = kube::parseRfc3339(renewed);
    QVERIFY(t0 && before);
    QCOMPARE(*t0 - *before, kube::Duration{20'000});
    QCOMPARE(after["items"][1]["metadata"]["name"], "node-1");
    QCOMPARE(after["items"][1]["spec"]["renewTime"].get<std::string>(), renewed); // unreachable: not renewed
}

void TstApiServer::nodesReportTheirMachine()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json node = getJson(*s.transport, "/api/v1/nodes/node-1");
    QCOMPARE(node["status"]["capacity"]["cpu"], "4");
    QCOMPARE(node["status"]["capacity"]["pods"], "110");
    QCOMPARE(node["status"]["allocatable"]["memory"], "15Gi");
    QCOMPARE(node["status"]["addresses"][0], Json({{"type", "InternalIP"}, {"address", "10.0.0.2"}}));
    QCOMPARE(node["status"]["addresses"][1]["address"], "node-1");
    QCOMPARE(node["status"]["nodeInfo"]["osImage"], "Debian GNU/Linux 12 (bookworm)");
    QCOMPARE(node["status"]["nodeInfo"]["bootID"].get<std::string>().size(), 36u);
    QCOMPARE(node["status"]["daemonEndpoints"]["kubeletEndpoint"]["Port"], 10250);
    QCOMPARE(node["spec"]["podCIDR"], "10.244.1.0/24");
    // The fields survive a write that does not name them (kubectl label does a merge patch).
    auto labelled =
        s.transport->request("PATCH", "/api/v1/nodes/node-1", {}, R"({"metadata":{"labels":{"x":"1"}}})",
                             "application/merge-patch+json", "application/json");
    QVERIFY(labelled.ok());
    const Json after = Json::parse(labelled->body);
    QCOMPARE(after["status"], node["status"]);
    QCOMPARE(after["spec"]["podCIDR"], "10.244.1.0/24");
    const Json table =
        getJson(*s.transport, "/api/v1/nodes", {{"fieldSelector", "metadata.name=node-1"}}, kTableAccept);
    const Json &cells = table["rows"][0]["cells"];
    QCOMPARE(cells[5], "10.0.0.2");
    QCOMPARE(cells[7], "Debian GNU/Linux 12 (bookworm)");
    QCOMPARE(cells[9], "containerd://1.6.20");
}

// One watch window per kind, as kube-apiserver keeps a watch cache per resource: many Lease
// writes do not expire a pod watch's resourceVersion.
void TstApiServer::watchWindowsArePerKind()
{
    server::ServerOptions o;
    o.watchWindow = 4;
    auto s = startServer(o);
    QVERIFY(s.server);
    const std::string rv =
        getJson(*s.transport, "/api/v1/namespaces/default/pods")["metadata"]["resourceVersion"];
    s.server->withCluster([](sim::Cluster &c) {
        for (int i = 0; i < 8; ++i)
            (void)c.patch(api::Kind::Lease, "kube-node-lease", "node-0", api::PatchType::Merge,
                          Json{{"metadata", {{"labels", {{"round", std::to_string(i)}}}}}});
        (void)c.patch(api::Kind::Pod, "default", c.pods().front()->metadata.name, api::PatchType::Merge,
                      Json{{"metadata", {{"labels", {{"seen", "yes"}}}}}});
    });
    const auto pods = watchLines(*s.transport, "/api/v1/namespaces/default/pods",
                                 {{"watch", "true"}, {"resourceVersion", rv}}, 1);
    QCOMPARE(pods.size(), 1u);
    QCOMPARE(pods[0]["type"], "MODIFIED");
    QCOMPARE(pods[0]["object"]["metadata"]["labels"]["seen"], "yes");
    const auto leases = watchLines(*s.transport, "/apis/coordination.k8s.io/v1/leases",
                                   {{"watch", "true"}, {"resourceVersion", rv}}, 1);
    QCOMPARE(leases.size(), 1u);
    QCOMPARE(leases[0]["type"], "ERROR");
    QCOMPARE(leases[0]["object"]["code"], 410);
}

void TstApiServer::watchResumesAfterTheResourceVersion()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json list = getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets",
                              {{"fieldSelector", "metadata.name=web"}});
    const std::string rv = list["metadata"]["resourceVersion"];
    s.server->withCluster([](sim::Cluster &c) {
        (void)c.patch(api::Kind::DaemonSet, "default", "solo", api::PatchType::Merge,
                      Json::parse(R"({"metadata":{"labels":{"x":"1"}}})"));
        (void)c.patch(api::Kind::DaemonSet, "default", "web", api::PatchType::Merge,
                      Json::parse(R"({"metadata":{"labels":{"x":"2"}}})"));
    });
    const auto lines =
        watchLines(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets",
                   {{"watch", "true"}, {"resourceVersion", rv}, {"fieldSelector", "metadata.name=web"}}, 1);
    QCOMPARE(lines.size(), 1u);
    QCOMPARE(lines[0]["type"], "MODIFIED");
    QCOMPARE(lines[0]["object"]["metadata"]["name"], "web");
    QCOMPARE(lines[0]["object"]["metadata"]["labels"]["x"], "2");
    QVERIFY(std::stoull(lines[0]["object"]["metadata"]["resourceVersion"].get<std::string>()) >
            std::stoull(rv));
}

void TstApiServer::watchFromATooOldResourceVersionIsExpired()
{
    server::ServerOptions o;
    o.watchWindow = 4;
    auto s = startServer(o);
    QVERIFY(s.server);
    const std::string rv = getJson(*s.transport, "/api/v1/nodes")["metadata"]["resourceVersion"];
    s.server->withCluster([](sim::Cluster &c) {
        for (int i = 0; i < 6; ++i)
            (void)c.patch(api::Kind::Node, "", "node-0", api::PatchType::Merge,
                          Json{{"metadata", {{"labels", {{"round", std::to_string(i)}}}}}});
    });
    const auto lines =
        watchLines(*s.transport, "/api/v1/nodes", {{"watch", "true"}, {"resourceVersion", rv}}, 5);
    QCOMPARE(lines.size(), 1u); // the server ends the stream after the ERROR event
    QCOMPARE(lines[0]["type"], "ERROR");
    QCOMPARE(lines[0]["object"]["kind"], "Status");
    QCOMPARE(lines[0]["object"]["code"], 410);
    QCOMPARE(lines[0]["object"]["reason"], "Expired");
    QVERIFY(lines[0]["object"]["message"].get<std::string>().rfind("too old resource version: " + rv, 0) ==
            0);
}

void TstApiServer::watchTurnsSelectorChangesIntoAddedAndDeleted()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string rv = getJson(*s.transport, "/api/v1/namespaces/default/pods",
                                   {{"labelSelector", "app=solo"}})["metadata"]["resourceVersion"];
    std::string pod;
    s.server->withCluster([&](sim::Cluster &c) {
        pod = c.podsOf("default", "solo").front()->metadata.name;
        (void)c.patch(api::Kind::Pod, "default", pod, api::PatchType::Merge,
                      Json::parse(R"({"metadata":{"labels":{"app":"moved"}}})"));
        (void)c.patch(api::Kind::Pod, "default", pod, api::PatchType::Merge,
                      Json::parse(R"({"metadata":{"labels":{"app":"solo"}}})"));
    });
    const auto lines =
        watchLines(*s.transport, "/api/v1/namespaces/default/pods",
                   {{"watch", "true"}, {"resourceVersion", rv}, {"labelSelector", "app=solo"}}, 2);
    QCOMPARE(lines.size(), 2u);
    QCOMPARE(lines[0]["type"], "DELETED");
    QCOMPARE(lines[0]["object"]["metadata"]["name"].get<std::string>(), pod);
    QCOMPARE(lines[1]["type"], "ADDED");
    QCOMPARE(lines[1]["object"]["metadata"]["name"].get<std::string>(), pod);
}

void TstApiServer::watchSendsBookmarksWhenAllowed()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string rv =
        getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets")["metadata"]["resourceVersion"];
    const auto lines =
        watchLines(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets",
                   {{"watch", "true"}, {"resourceVersion", rv}, {"allowWatchBookmarks", "true"}}, 1);
    QCOMPARE(lines.size(), 1u);
    QCOMPARE(lines[0]["type"], "BOOKMARK");
    QCOMPARE(lines[0]["object"]["kind"], "DaemonSet");
    QCOMPARE(lines[0]["object"]["metadata"]["resourceVersion"].get<std::string>(), rv);
    // A watch without allowWatchBookmarks that times out ends with no event at all.
    const auto quiet = watchLines(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets",
                                  {{"watch", "true"}, {"resourceVersion", rv}, {"timeoutSeconds", "1"}}, 1);
    QCOMPARE(quiet.size(), 0u);
}

void TstApiServer::streamingListEndsInitialEventsWithABookmark()
{
    auto s = startServer();
    QVERIFY(s.server);
    const auto lines = watchLines(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets",
                                  {{"watch", "true"},
                                   {"sendInitialEvents", "true"},
                                   {"resourceVersionMatch", "NotOlderThan"},
                                   {"allowWatchBookmarks", "true"}},
                                  3);
    QCOMPARE(lines.size(), 3u);
    QCOMPARE(lines[0]["type"], "ADDED");
    QCOMPARE(lines[0]["object"]["metadata"]["name"], "solo");
    QCOMPARE(lines[1]["type"], "ADDED");
    QCOMPARE(lines[1]["object"]["metadata"]["name"], "web");
    QCOMPARE(lines[2]["type"], "BOOKMARK");
    QCOMPARE(lines[2]["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"], "true");
}

void TstApiServer::streamingListNeedsNotOlderThan()
{
    auto s = startServer();
    QVERIFY(s.server);
    kube::ApiStatus error;
    const auto lines = watchLines(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets",
                                  {{"watch", "true"}, {"sendInitialEvents", "true"}}, 1, &error);
    QCOMPARE(lines.size(), 0u);
    QCOMPARE(error.code, 422);
    QCOMPARE(QString::fromStdString(error.reason), QStringLiteral("Invalid"));
}

void TstApiServer::tlsServerRequiresTheToken()
{
    server::ServerOptions o;
    o.tls = true;
    o.token = "s3cret-token";
    auto good = startServer(o, "s3cret-token");
    QVERIFY(good.server);
    QVERIFY(good.server->url().rfind("https://127.0.0.1:", 0) == 0);
    QVERIFY(good.server->caCertificatePem().rfind("-----BEGIN CERTIFICATE-----", 0) == 0);
    const Json ds = getJson(*good.transport, "/apis/apps/v1/namespaces/default/daemonsets/web");
    QCOMPARE(ds["metadata"]["name"], "web");

    client::RestConfig wrong;
    wrong.server = good.server->url();
    wrong.caPem = good.server->caCertificatePem();
    wrong.token = "guessed";
    client::HttpTransport wrongToken(wrong);
    auto r = wrongToken.request("GET", "/apis/apps/v1/namespaces/default/daemonsets/web", {}, {}, {},
                                "application/json");
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 401);
    QCOMPARE(QString::fromStdString(r.error().reason), QStringLiteral("Unauthorized"));
    // /version stays public, as on kube-apiserver (kubectl dispatchers read it).
    QCOMPARE(getJson(wrongToken, "/version")["minor"], "32");

    client::RestConfig untrusted = wrong;
    untrusted.caPem.clear(); // the system store does not know the generated CA
    client::HttpTransport noCa(untrusted);
    auto tlsFail = noCa.request("GET", "/version", {}, {}, {}, "application/json");
    QVERIFY(!tlsFail.ok());
    QCOMPARE(tlsFail.error().code, 0);
}

void TstApiServer::nonLoopbackAddressesAreRefused_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("every interface is refused") << u"0.0.0.0"_s << false;
    QTest::newRow("a LAN address is refused") << u"192.168.1.10"_s << false;
    QTest::newRow("a host name other than localhost is refused") << u"example.com"_s << false;
    QTest::newRow("IPv6 any is refused") << u"::"_s << false;
    QTest::newRow("127.0.0.1 is served") << u"127.0.0.1"_s << true;
    QTest::newRow("the rest of 127/8 is loopback too") << u"127.0.0.2"_s << true;
    QTest::newRow("localhost is served") << u"localhost"_s << true;
    QTest::newRow("::1 is loopback") << u"::1"_s << true;
}

void TstApiServer::nonLoopbackAddressesAreRefused()
{
    QFETCH(QString, host);
    QFETCH(bool, accepted);
    QCOMPARE(server::ApiServer::isLoopback(host.toStdString()), accepted);
    if (accepted)
        return;
    server::ServerOptions o;
    o.host = host.toStdString();
    server::ApiServer s(testCluster(), o);
    auto r = s.start();
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.find("loopback") != std::string::npos);
}

namespace {

// Every "$ref" below `j`.
void collectRefs(const Json &j, std::set<std::string> &out)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (it.key() == "$ref" && it->is_string())
                out.insert(it->get<std::string>());
            else
                collectRefs(*it, out);
        }
    } else if (j.is_array()) {
        for (const auto &e : j)
            collectRefs(e, out);
    }
}

bool hasQueryParam(const Json &op, const char *name)
{
    for (const auto &p : op.value("parameters", Json::array()))
        if (p.value("name", "") == name && p.value("in", "") == "query")
            return true;
    return false;
}

Json daemonSetWith(const std::string &name, const Json &extraSpec, const Json &extraContainer)
{
    Json container = {{"name", "c"}, {"image", "busybox"}};
    container.update(extraContainer);
    Json spec = {{"selector", {{"matchLabels", {{"app", name}}}}},
                 {"template",
                  {{"metadata", {{"labels", {{"app", name}}}}},
                   {"spec", {{"containers", Json::array({container})}}}}}};
    spec.update(extraSpec);
    return {{"apiVersion", "apps/v1"}, {"kind", "DaemonSet"}, {"metadata", {{"name", name}}}, {"spec", spec}};
}

} // namespace

void TstApiServer::openApiV3DescribesEveryServedResource()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json index = getJson(*s.transport, "/openapi/v3");
    QVERIFY2(index.contains("paths"), index.dump().c_str());
    // One document per served group-version, as /apis lists them.
    std::set<std::string> expected = {"api/v1"};
    const Json groups = getJson(*s.transport, "/apis");
    for (const auto &g : groups["groups"])
        expected.insert("apis/" + g["preferredVersion"]["groupVersion"].get<std::string>());
    std::set<std::string> listed;
    for (auto it = index["paths"].begin(); it != index["paths"].end(); ++it)
        listed.insert(it.key());
    QCOMPARE(QString::fromStdString(Json(listed).dump()), QString::fromStdString(Json(expected).dump()));

    for (const auto &gv : expected) {
        const std::string url = index["paths"][gv]["serverRelativeURL"].get<std::string>();
        const auto q = url.find("?hash=");
        QVERIFY2(q != std::string::npos, url.c_str());
        const Json doc = getJson(*s.transport, url.substr(0, q), {{"hash", url.substr(q + 6)}});
        QCOMPARE(doc.value("openapi", ""), "3.0.0");
        // Every reference resolves inside the document.
        std::set<std::string> refs;
        collectRefs(doc, refs);
        for (const auto &ref : refs) {
            QVERIFY2(ref.rfind("#/components/schemas/", 0) == 0, ref.c_str());
            QVERIFY2(doc["components"]["schemas"].contains(ref.substr(21)), ref.c_str());
        }
        // Every resource discovery lists has its operations, each naming its kind, and PATCH
        // takes fieldValidation and dryRun (kubectl's check before it sends fieldValidation=Strict).
        const std::string group = gv == "api/v1" ? std::string() : gv.substr(5, gv.rfind('/') - 5);
        const Json resources = getJson(*s.transport, "/" + gv)["resources"];
        QVERIFY(!resources.empty());
        for (const auto &r : resources) {
            const std::string name = r["name"];
            if (name.find('/') != std::string::npos && name.substr(name.find('/')) != "/status")
                continue;
            const std::string resource = name.substr(0, name.find('/'));
            const std::string prefix =
                "/" + gv + (r["namespaced"].get<bool>() ? "/namespaces/{namespace}/" : "/");
            const bool createOnly = r["verbs"] == Json::array({"create"});
            const std::string path = prefix + resource + (createOnly ? "" : "/{name}") +
                                     (name.find('/') != std::string::npos ? "/status" : "");
            QVERIFY2(doc["paths"].contains(path), path.c_str());
            const Json &item = doc["paths"][path];
            const Json &op = createOnly ? item["post"] : item["patch"];
            QVERIFY2(op.is_object(), path.c_str());
            QCOMPARE(
                op["x-kubernetes-group-version-kind"],
                Json({{"group", group}, {"version", gv.substr(gv.rfind('/') + 1)}, {"kind", r["kind"]}}));
            if (!createOnly) {
                QVERIFY2(hasQueryParam(op, "fieldValidation") && hasQueryParam(op, "dryRun"), path.c_str());
                const Json &kind = doc["components"]["schemas"];
                bool found = false;
                for (auto it = kind.begin(); it != kind.end(); ++it)
                    if (it->contains("x-kubernetes-group-version-kind") &&
                        (*it)["x-kubernetes-group-version-kind"][0]["kind"] == r["kind"])
                        found = true;
                QVERIFY2(found, name.c_str());
                // Built-in kinds take strategic merge patches, the custom kind does not.
                QCOMPARE(op["requestBody"]["content"].contains("application/strategic-merge-patch+json"),
                         group != "upgrade.daemonscope.io");
            }
        }
    }

    const Json apps = getJson(*s.transport, "/openapi/v3/apis/apps/v1");
    const Json &schemas = apps["components"]["schemas"];
    const Json &containers = schemas["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
    QCOMPARE(containers["x-kubernetes-patch-merge-key"], "name");
    QCOMPARE(containers["x-kubernetes-patch-strategy"], "merge");
    QCOMPARE(containers["items"]["$ref"], "#/components/schemas/io.k8s.api.core.v1.Container");
    QCOMPARE(schemas["io.k8s.api.apps.v1.DaemonSetSpec"]["required"], Json::array({"selector", "template"}));
    QCOMPARE(schemas["io.k8s.api.apps.v1.DaemonSetSpec"]["properties"]["minReadySeconds"]["type"], "integer");
    QVERIFY(!schemas["io.k8s.api.apps.v1.DaemonSet"].value("description", "").empty());

    auto missing =
        s.transport->request("GET", "/openapi/v3/apis/networking.k8s.io/v1", {}, {}, {}, "application/json");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, 404);
}

// The Swagger 2.0 document is the v3 documents merged, in v2's dialect: every path and
// operation of every group-version, every schema under the same name with the same properties,
// required fields and markers, and a definition for every type of the schema table.
void TstApiServer::openApiV2DescribesWhatV3Does()
{
    auto s = startServer();
    QVERIFY(s.server);
    const Json v2 = getJson(*s.transport, "/openapi/v2");
    const Json &definitions = v2["definitions"];
    QVERIFY2(definitions.is_object() && v2["paths"].is_object(), v2.dump().substr(0, 300).c_str());

    const Json index = getJson(*s.transport, "/openapi/v3");
    std::set<std::string> v3Paths;
    std::set<std::string> v3Kinds;
    for (auto gv = index["paths"].begin(); gv != index["paths"].end(); ++gv) {
        const Json v3 = getJson(*s.transport, "/openapi/v3/" + gv.key());
        QVERIFY2(v3.contains("paths") && v3.contains("components"), gv.key().c_str());
        for (auto it = v3["paths"].begin(); it != v3["paths"].end(); ++it) {
            v3Paths.insert(it.key());
            QVERIFY2(v2["paths"].contains(it.key()), it.key().c_str());
            const Json &item = v2["paths"][it.key()];
            for (const char *verb : {"get", "put", "post", "patch", "delete"}) {
                QCOMPARE(item.contains(verb), it->contains(verb));
                if (!it->contains(verb))
                    continue;
                const Json &op = item[verb];
                const Json &op3 = (*it)[verb];
                QVERIFY2(op.contains("produces") && op.contains("responses"), it.key().c_str());
                for (const char *key :
                     {"operationId", "x-kubernetes-action", "x-kubernetes-group-version-kind"})
                    QCOMPARE(op[key], op3[key]);
                // A body is a body parameter, the answer a schema, with the media types beside.
                if (op3.contains("requestBody")) {
                    QVERIFY2(op.contains("consumes") && op.contains("parameters"), it.key().c_str());
                    QCOMPARE(op["parameters"][0]["in"], "body");
                    QCOMPARE(op["parameters"][0]["schema"]["$ref"].get<std::string>().substr(14),
                             op3["requestBody"]["content"]
                                 .begin()
                                 .value()["schema"]["$ref"]
                                 .get<std::string>()
                                 .substr(21));
                    QCOMPARE(op["consumes"].size(), op3["requestBody"]["content"].size());
                }
                QCOMPARE(op["produces"], Json::array({"application/json", "application/yaml"}));
                QVERIFY(op["responses"]["200"]["schema"].contains("$ref"));
                for (const auto &p : op.value("parameters", Json::array()))
                    QVERIFY2(p["in"] == "body" ? p.contains("schema")
                                               : p.contains("type") && !p.contains("schema"),
                             p.dump().c_str());
            }
        }
        const Json &schemas = v3["components"]["schemas"];
        for (auto it = schemas.begin(); it != schemas.end(); ++it) {
            QVERIFY2(definitions.contains(it.key()), it.key().c_str());
            const Json &d = definitions[it.key()];
            QCOMPARE(joined(keysOf(d.value("properties", Json::object()))),
                     joined(keysOf(it->value("properties", Json::object()))));
            QCOMPARE(d.value("required", Json::array()), it->value("required", Json::array()));
            QCOMPARE(d.value("x-kubernetes-group-version-kind", Json()),
                     it->value("x-kubernetes-group-version-kind", Json()));
            if (it->contains("x-kubernetes-group-version-kind"))
                v3Kinds.insert((*it)["x-kubernetes-group-version-kind"][0]["kind"].get<std::string>());
            const Json properties = it->value("properties", Json::object());
            for (auto f = properties.begin(); f != properties.end(); ++f)
                for (const char *marker :
                     {"x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key", "x-kubernetes-list-type",
                      "x-kubernetes-list-map-keys", "x-kubernetes-map-type", "description", "type", "format"})
                    QCOMPARE(d["properties"][f.key()].value(marker, Json()), f->value(marker, Json()));
        }
    }
    QCOMPARE(joined(keysOf(v2["paths"])), joined(v3Paths));
    for (const auto &kind :
         {"DaemonSet", "Pod", "Node", "NodeUpgradeRollout", "Eviction", "SelfSubjectAccessReview"})
        QVERIFY2(v3Kinds.count(kind), kind);
    for (const kube::schema::Struct *type : kube::schema::structs())
        QVERIFY2(definitions.contains(type->definition), type->definition.c_str());
    QCOMPARE(
        joined(keysOf(definitions["io.k8s.api.apps.v1.DaemonSetSpec"]["properties"])),
        u"[\"minReadySeconds\",\"revisionHistoryLimit\",\"selector\",\"template\",\"updateStrategy\"]"_s);
    QVERIFY(definitions["io.k8s.api.core.v1.PodSpec"]["properties"].size() > 30);

    // Every reference points into the definitions; v2 has no allOf or oneOf, so a described
    // reference keeps its description beside it.
    std::set<std::string> refs;
    collectRefs(v2, refs);
    for (const auto &ref : refs) {
        QVERIFY2(ref.rfind("#/definitions/", 0) == 0, ref.c_str());
        QVERIFY2(definitions.contains(ref.substr(14)), ref.c_str());
    }
    const std::string text = v2.dump();
    QVERIFY(text.find("allOf") == std::string::npos && text.find("oneOf") == std::string::npos);
    const Json &selector = definitions["io.k8s.api.apps.v1.DaemonSetSpec"]["properties"]["selector"];
    QCOMPARE(selector["$ref"], "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector");
    QVERIFY(!selector.value("description", "").empty());
    const Json &containers = definitions["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
    QCOMPARE(containers["items"]["$ref"], "#/definitions/io.k8s.api.core.v1.Container");
    QCOMPARE(containers["x-kubernetes-patch-merge-key"], "name");
    QCOMPARE(definitions["io.k8s.apimachinery.pkg.api.resource.Quantity"]["type"], "string");
    QCOMPARE(definitions["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]["format"], "int-or-string");

    // The item path of a namespaced kind: read, replace, patch and delete, each naming the kind.
    const Json &ds = v2["paths"]["/apis/apps/v1/namespaces/{namespace}/daemonsets/{name}"];
    const std::pair<const char *, const char *> actions[] = {
        {"get", "get"}, {"put", "put"}, {"patch", "patch"}, {"delete", "delete"}};
    for (const auto &[verb, action] : actions) {
        QCOMPARE(ds[verb]["x-kubernetes-action"], action);
        QCOMPARE(ds[verb]["x-kubernetes-group-version-kind"],
                 Json({{"group", "apps"}, {"version", "v1"}, {"kind", "DaemonSet"}}));
    }
    QCOMPARE(ds["put"]["parameters"][0]["schema"]["$ref"], "#/definitions/io.k8s.api.apps.v1.DaemonSet");
    QCOMPARE(ds["parameters"][0], Json({{"name", "name"},
                                        {"in", "path"},
                                        {"description", "The object's name."},
                                        {"type", "string"},
                                        {"required", true}}));
    QVERIFY(v2["paths"].contains("/apis/apps/v1/daemonsets"));
    QVERIFY(v2["paths"].contains("/api/v1/namespaces/{namespace}/pods/{name}/eviction"));
    QVERIFY(v2["paths"].contains("/apis/upgrade.daemonscope.io/v1alpha1/nodeupgraderollouts/{name}/status"));
    QCOMPARE(v2["securityDefinitions"]["BearerToken"]["type"], "apiKey");
    QCOMPARE(v2["security"], Json::array({{{"BearerToken", Json::array()}}}));
}

void TstApiServer::servedObjectsHaveOnlySchemaFields()
{
    // What the server sends must survive kubectl's round trips (edit, replace, apply) under
    // Strict: no object may carry a field its schema lacks or has another type.
    auto s = startServer();
    QVERIFY(s.server);
    std::set<std::string> kinds;
    for (const auto &gv : {std::string("/api/v1"), std::string("/apis/apps/v1"),
                           std::string("/apis/policy/v1"), std::string("/apis/coordination.k8s.io/v1"),
                           std::string("/apis/upgrade.daemonscope.io/v1alpha1")}) {
        const Json resources = getJson(*s.transport, gv)["resources"];
        for (const auto &r : resources) {
            const std::string name = r["name"];
            if (name.find('/') != std::string::npos ||
                std::find(r["verbs"].begin(), r["verbs"].end(), "list") == r["verbs"].end())
                continue;
            const Json list = getJson(*s.transport, gv + "/" + name);
            QVERIFY2(list.contains("items"), (gv + "/" + name).c_str());
            for (Json item : list["items"]) {
                item["apiVersion"] = gv == "/api/v1" ? std::string("v1") : gv.substr(6);
                item["kind"] = r["kind"];
                const kube::schema::Struct *type = kube::schema::structForObject(item);
                QVERIFY2(type, name.c_str());
                for (const auto &u : kube::schema::unknownFields(item, *type))
                    QFAIL(qPrintable(QString::fromStdString(name + ": unknown field " + u.path)));
                for (const auto &e : kube::fieldTypeErrors(item))
                    QFAIL(qPrintable(QString::fromStdString(name + ": " + e.text())));
                kinds.insert(r["kind"].get<std::string>());
            }
        }
    }
    for (const char *kind :
         {"Pod", "Node", "Namespace", "Event", "Service", "DaemonSet", "ControllerRevision"})
        QVERIFY2(kinds.count(kind), kind);
}

void TstApiServer::fieldValidationDecidesOnUnknownFields()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/apis/apps/v1/namespaces/default/daemonsets";
    const Json body = daemonSetWith("probe", {{"foo", 1}}, {{"imagePullPolcy", "Always"}});

    // Strict: the decoder's error, and nothing is stored (a dry run neither).
    for (const auto &query : {client::Query{{"fieldValidation", "Strict"}},
                              client::Query{{"fieldValidation", "Strict"}, {"dryRun", "All"}}}) {
        auto strict = send(*s.transport, "POST", base, body, query);
        QVERIFY(!strict.ok());
        QCOMPARE(strict.error().code, 400);
        QCOMPARE(
            QString::fromStdString(strict.error().message),
            u"DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding error: unknown "
            "field \"spec.foo\", unknown field \"spec.template.spec.containers[0].imagePullPolcy\""_s);
    }
    QCOMPARE(getJson(*s.transport, base + "/probe")["code"], 404);

    auto wrong = send(*s.transport, "POST", base, body, {{"fieldValidation", "strict"}});
    QVERIFY(!wrong.ok());
    QCOMPARE(wrong.error().code, 422);
    QCOMPARE(QString::fromStdString(wrong.error().message),
             u"CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"strict\": "
             "supported values: \"Ignore\", \"Strict\", \"Warn\""_s);

    // Warn (the default) and Ignore store the object without the unknown fields.
    auto created = send(*s.transport, "POST", base, body);
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    Json stored = getJson(*s.transport, base + "/probe");
    QVERIFY(!stored["spec"].contains("foo"));
    QVERIFY(!stored["spec"]["template"]["spec"]["containers"][0].contains("imagePullPolcy"));
    QCOMPARE(stored["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"], "Always");
    stored["spec"]["colour"] = "red";
    auto replaced = send(*s.transport, "PUT", base + "/probe", stored, {{"fieldValidation", "Ignore"}});
    QVERIFY2(replaced.ok(), replaced.ok() ? "" : replaced.error().message.c_str());
    QVERIFY(!Json::parse(replaced->body)["spec"].contains("colour"));

    // A patch is decoded once applied: Strict refuses it as an invalid patch.
    auto patch =
        s.transport->request("PATCH", base + "/probe", {{"fieldValidation", "Strict"}},
                             R"({"spec":{"bar":2}})", "application/merge-patch+json", "application/json");
    QVERIFY(!patch.ok());
    QCOMPARE(patch.error().code, 422);
    const QString message = QString::fromStdString(patch.error().message);
    QVERIFY2(message.startsWith(u"DaemonSet.apps \"probe\" is invalid: patch: Invalid value: \"{"_s),
             qPrintable(message));
    QVERIFY2(message.endsWith(u"strict decoding error: unknown field \"spec.bar\""_s), qPrintable(message));
    QCOMPARE(patch.error().causes.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(patch.error().causes[0].field), u"patch"_s);
    auto statusPatch = s.transport->request("PATCH", base + "/probe/status", {{"fieldValidation", "Strict"}},
                                            R"({"status":{"numberReddy":2}})", "application/merge-patch+json",
                                            "application/json");
    QVERIFY(!statusPatch.ok());
    QCOMPARE(statusPatch.error().code, 422);
    QVERIFY(QString::fromStdString(statusPatch.error().message)
                .endsWith(u"unknown field \"status.numberReddy\""_s));
    auto lenient =
        s.transport->request("PATCH", base + "/probe", {}, R"({"spec":{"bar":2,"minReadySeconds":5}})",
                             "application/merge-patch+json", "application/json");
    QVERIFY2(lenient.ok(), lenient.ok() ? "" : lenient.error().message.c_str());
    const Json patched = Json::parse(lenient->body);
    QCOMPARE(patched["spec"]["minReadySeconds"], 5);
    QVERIFY(!patched["spec"].contains("bar"));

    // A key given twice in one object: Strict refuses it with its path (with the unknown fields,
    // repeated keys first); otherwise the last value is the one stored.
    const std::string twice =
        R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"twice","namespace":"default"},)"
        R"("spec":{"minReadySeconds":1,"minReadySeconds":2,"selector":{"matchLabels":{"app":"twice"}},)"
        R"("template":{"metadata":{"labels":{"app":"twice"}},"spec":{"containers":[{"name":"a","image":"x:1"},)"
        R"({"name":"b","image":"y:1","image":"y:2","colour":"red"}]}}}})";
    auto refused = s.transport->request("POST", base, {{"fieldValidation", "Strict"}}, twice,
                                        "application/json", "application/json");
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, 400);
    QCOMPARE(
        QString::fromStdString(refused.error().message),
        u"DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding error: duplicate "
        "field \"spec.minReadySeconds\", duplicate field \"spec.template.spec.containers[1].image\", unknown "
        "field \"spec.template.spec.containers[1].colour\""_s);
    auto kept = s.transport->request("POST", base, {}, twice, "application/json", "application/json");
    QVERIFY2(kept.ok(), kept.ok() ? "" : kept.error().message.c_str());
    const Json twiceStored = getJson(*s.transport, base + "/twice");
    QCOMPARE(twiceStored["spec"]["minReadySeconds"], 2);
    QCOMPARE(twiceStored["spec"]["template"]["spec"]["containers"][1]["image"].get<std::string>(),
             std::string("y:2"));
}

namespace {

kube::Result<client::HttpResponse> applyAs(client::Transport &t, const std::string &path, const Json &config,
                                           const std::string &manager, bool force = false)
{
    client::Query q;
    if (!manager.empty())
        q.push_back({"fieldManager", manager});
    if (force)
        q.push_back({"force", "true"});
    return t.request("PATCH", path, q, kube::goJson(config), "application/apply-patch+yaml",
                     "application/json");
}

// The managers of an object: "name/operation" -> its FieldsV1.
std::map<std::string, Json> managersOf(const Json &object)
{
    std::map<std::string, Json> out;
    for (const auto &e : object["metadata"].value("managedFields", Json::array()))
        out[e["manager"].get<std::string>() + "/" + e["operation"].get<std::string>()] = e["fieldsV1"];
    return out;
}

} // namespace

void TstApiServer::writesRecordTheirManagers()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/apis/apps/v1/namespaces/default/daemonsets";
    auto created = send(*s.transport, "POST", base, daemonSetWith("owned", Json::object(), Json::object()),
                        {{"fieldManager", "creator"}});
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    Json object = Json::parse(created->body);
    auto managers = managersOf(object);
    QCOMPARE(managers.size(), std::size_t(1));
    const Json &mine = managers["creator/Update"];
    // The creator owns what it sent and what the server defaulted, containers by their name.
    const Json &container = mine["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"c\"}"];
    QVERIFY2(container.contains(".") && container.contains("f:image") &&
                 container.contains("f:imagePullPolicy"),
             mine.dump().c_str());
    QVERIFY(mine["f:spec"].contains("f:selector"));
    QVERIFY(!mine.contains("f:status") && !mine["f:metadata"].contains("f:name"));
    QCOMPARE(object["metadata"]["managedFields"][0]["apiVersion"], "apps/v1");

    // Another manager changes the image: it takes the field over.
    auto patched = s.transport->request(
        "PATCH", base + "/owned", {{"fieldManager", "setter"}},
        R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox:2"}]}}}})",
        "application/strategic-merge-patch+json", "application/json");
    QVERIFY2(patched.ok(), patched.ok() ? "" : patched.error().message.c_str());
    managers = managersOf(Json::parse(patched->body));
    const std::string key = "k:{\"name\":\"c\"}";
    QVERIFY(
        managers["setter/Update"]["f:spec"]["f:template"]["f:spec"]["f:containers"][key].contains("f:image"));
    QVERIFY(!managers["creator/Update"]["f:spec"]["f:template"]["f:spec"]["f:containers"][key].contains(
        "f:image"));
    // A PUT without managedFields keeps them; the labeller adds its own entry.
    Json current = Json::parse(patched->body);
    current["metadata"].erase("managedFields");
    current["metadata"]["labels"] = {{"team", "a"}};
    auto put = send(*s.transport, "PUT", base + "/owned", current, {{"fieldManager", "labeller"}});
    QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());
    managers = managersOf(Json::parse(put->body));
    QCOMPARE(managers.size(), std::size_t(3));
    QCOMPARE(managers["labeller/Update"],
             Json({{"f:metadata", {{"f:labels", {{".", Json::object()}, {"f:team", Json::object()}}}}}}));
}

void TstApiServer::serverSideApplyMergesOwnsAndConflicts()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string item = "/apis/apps/v1/namespaces/default/daemonsets/applied";
    Json config = daemonSetWith("applied", Json::object(), Json::object());
    config["metadata"]["labels"] = {{"team", "a"}};

    auto noManager = applyAs(*s.transport, item, config, "");
    QVERIFY(!noManager.ok());
    QCOMPARE(noManager.error().code, 422);
    QCOMPARE(
        QString::fromStdString(noManager.error().message),
        u"PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"_s);

    // The first apply creates the object.
    auto first = applyAs(*s.transport, item, config, "alice");
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
    QCOMPARE(first->status, 201);
    auto managers = managersOf(Json::parse(first->body));
    QCOMPARE(managers.size(), std::size_t(1));
    const Json &applied = managers["alice/Apply"];
    QCOMPARE(applied["f:metadata"], Json({{"f:labels", {{"f:team", Json::object()}}}}));
    QVERIFY(!applied["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"c\"}"].contains(
        "f:imagePullPolicy")); // defaulted, not applied

    // Bob changes the image: Alice's apply of her old image conflicts, naming Bob and the field.
    auto bob = s.transport->request(
        "PATCH", item, {{"fieldManager", "bob"}},
        R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox:2"}]}}}})",
        "application/strategic-merge-patch+json", "application/json");
    QVERIFY2(bob.ok(), bob.ok() ? "" : bob.error().message.c_str());
    auto conflict = applyAs(*s.transport, item, config, "alice");
    QVERIFY(!conflict.ok());
    QCOMPARE(conflict.error().code, 409);
    QCOMPARE(QString::fromStdString(conflict.error().message),
             u"Apply failed with 1 conflict: conflict with \"bob\" using apps/v1: "
             ".spec.template.spec.containers[name=\"c\"].image"_s);
    QCOMPARE(conflict.error().causes.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(conflict.error().causes[0].type), u"FieldManagerConflict"_s);
    QCOMPARE(QString::fromStdString(conflict.error().causes[0].field),
             u".spec.template.spec.containers[name=\"c\"].image"_s);
    // Applying Bob's value co-owns the field without a conflict; forcing takes it over.
    Json same = config;
    same["spec"]["template"]["spec"]["containers"][0]["image"] = "busybox:2";
    auto shared = applyAs(*s.transport, item, same, "alice");
    QVERIFY2(shared.ok(), shared.ok() ? "" : shared.error().message.c_str());
    QVERIFY(managersOf(Json::parse(shared->body)).count("bob/Update"));
    auto forced = applyAs(*s.transport, item, config, "alice", true);
    QVERIFY2(forced.ok(), forced.ok() ? "" : forced.error().message.c_str());
    Json object = Json::parse(forced->body);
    QCOMPARE(object["spec"]["template"]["spec"]["containers"][0]["image"], "busybox");
    QVERIFY(!managersOf(object).count("bob/Update")); // it owned nothing else

    // What Alice no longer applies goes, unless someone else owns it.
    auto label = s.transport->request("PATCH", item, {{"fieldManager", "carol"}},
                                      R"({"metadata":{"labels":{"tier":"web"}}})",
                                      "application/merge-patch+json", "application/json");
    QVERIFY(label.ok());
    Json smaller = config;
    smaller["metadata"].erase("labels");
    auto reapplied = applyAs(*s.transport, item, smaller, "alice");
    QVERIFY2(reapplied.ok(), reapplied.ok() ? "" : reapplied.error().message.c_str());
    object = Json::parse(reapplied->body);
    QCOMPARE(object["metadata"]["labels"], Json({{"tier", "web"}}));
    QCOMPARE(object["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"], "Always");

    // A second container by apply merges into the list by name; force is for apply only.
    Json two = smaller;
    two["spec"]["template"]["spec"]["containers"].push_back({{"name", "d"}, {"image", "pause"}});
    auto merged = applyAs(*s.transport, item, two, "alice");
    QVERIFY(merged.ok());
    QCOMPARE(Json::parse(merged->body)["spec"]["template"]["spec"]["containers"].size(), std::size_t(2));
    auto forcedPatch = s.transport->request("PATCH", item, {{"force", "true"}}, "{}",
                                            "application/merge-patch+json", "application/json");
    QVERIFY(!forcedPatch.ok());
    QCOMPARE(forcedPatch.error().code, 422);

    // Strict validation of the configuration.
    Json typo = two;
    typo["spec"]["colour"] = "red";
    auto strict =
        s.transport->request("PATCH", item, {{"fieldManager", "alice"}, {"fieldValidation", "Strict"}},
                             kube::goJson(typo), "application/apply-patch+yaml", "application/json");
    QVERIFY(!strict.ok());
    QCOMPARE(strict.error().code, 400);
    QVERIFY(QString::fromStdString(strict.error().message).endsWith(u"unknown field \"spec.colour\""_s));

    // An associative list whose elements omit their key or repeat one cannot be applied (it
    // would merge differently each time); a key with a default (a port's protocol) may be left out.
    Json unnamed = two;
    unnamed["spec"]["template"]["spec"]["containers"][0]["env"] = Json::array({{{"value", "1"}}});
    auto omitted = applyAs(*s.transport, item, unnamed, "alice");
    QVERIFY(!omitted.ok());
    QCOMPARE(omitted.error().code, 500);
    QCOMPARE(QString::fromStdString(omitted.error().message),
             u"failed to create typed patch object (apps/v1, Kind=DaemonSet): "
             ".spec.template.spec.containers[name=\"c\"].env: element 0: associative list with keys has an "
             "element that omits key field \"name\" (and doesn't have default value)"_s);
    Json twice = two;
    twice["spec"]["template"]["spec"]["containers"][0]["env"] =
        Json::array({{{"name", "A"}, {"value", "1"}}, {{"name", "A"}, {"value", "2"}}});
    auto repeated = applyAs(*s.transport, item, twice, "alice");
    QVERIFY(!repeated.ok());
    QCOMPARE(QString::fromStdString(repeated.error().message),
             u"failed to create typed patch object (apps/v1, Kind=DaemonSet): "
             ".spec.template.spec.containers[name=\"c\"].env: duplicate entries for key [name=\"A\"]"_s);
    auto unchanged = s.transport->request("GET", item, {}, "", "", "application/json");
    QVERIFY(unchanged.ok());
    QVERIFY(!Json::parse(unchanged->body)["spec"]["template"]["spec"]["containers"][0].contains("env"));
    Json ports = two;
    ports["spec"]["template"]["spec"]["containers"][0]["ports"] =
        Json::array({{{"containerPort", 80}}, {{"containerPort", 80}, {"protocol", "UDP"}}});
    auto withPorts = applyAs(*s.transport, item, ports, "alice");
    QVERIFY2(withPorts.ok(), withPorts.ok() ? "" : withPorts.error().message.c_str());
    auto portsAgain = applyAs(*s.transport, item, ports, "alice");
    QVERIFY(portsAgain.ok());
    QCOMPARE(Json::parse(portsAgain->body)["spec"]["template"]["spec"]["containers"][0]["ports"].size(),
             std::size_t(2));
}

// kube-apiserver's bootstrap controller puts the `kubernetes` Service back (same cluster IP,
// a new uid) when someone deletes it.
void TstApiServer::deletedKubernetesServiceComesBack()
{
    server::ServerOptions options;
    options.bootstrapInterval = std::chrono::milliseconds(100);
    auto s = startServer(options);
    QVERIFY(s.server);
    const std::string path = "/api/v1/namespaces/default/services/kubernetes";
    const Json before = getJson(*s.transport, path);
    QCOMPARE(before["spec"]["clusterIP"], "10.96.0.1");
    auto deleted = s.transport->request("DELETE", path, {}, {}, {}, "application/json");
    QVERIFY2(deleted.ok(), deleted.ok() ? "" : deleted.error().message.c_str());
    Json after;
    for (int i = 0; i < 100; ++i) {
        after = getJson(*s.transport, path);
        if (!after.contains("code") && after["metadata"]["uid"] != before["metadata"]["uid"])
            break;
        QTest::qWait(50);
    }
    QVERIFY2(after.contains("metadata"), after.dump().c_str());
    QVERIFY(after["metadata"]["uid"] != before["metadata"]["uid"]);
    QCOMPARE(after["spec"]["clusterIP"], "10.96.0.1");
    QCOMPARE(after["spec"]["ports"], before["spec"]["ports"]);
}

// replicasets/NAME/scale (registry/apps/replicaset ScaleREST, autoscaling/v1 Scale): what kubectl
// scale reads and patches; the Scale's resourceVersion is the ReplicaSet's precondition.
void TstApiServer::replicaSetsScaleThroughTheirSubresource()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/apis/apps/v1/namespaces/default/replicasets";
    const Json rs = Json::parse(R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"api"},
        "spec":{"replicas":1,"selector":{"matchLabels":{"app":"api"}},
        "template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"a","image":"a:1"}]}}}})");
    auto created = send(*s.transport, "POST", base, rs);
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    Json scale = getJson(*s.transport, base + "/api/scale");
    QCOMPARE(scale["apiVersion"].get<std::string>(), std::string("autoscaling/v1"));
    QCOMPARE(scale["kind"].get<std::string>(), std::string("Scale"));
    QCOMPARE(scale["spec"]["replicas"], 1);
    QCOMPARE(scale["status"]["selector"].get<std::string>(), std::string("app=api"));
    QCOMPARE(scale["metadata"]["resourceVersion"],
             getJson(*s.transport, base + "/api")["metadata"]["resourceVersion"]);

    // kubectl scale's merge patch; a dry run changes nothing.
    auto dry =
        s.transport->request("PATCH", base + "/api/scale", {{"dryRun", "All"}}, R"({"spec":{"replicas":4}})",
                             "application/merge-patch+json", "application/json");
    QVERIFY2(dry.ok(), dry.ok() ? "" : dry.error().message.c_str());
    QCOMPARE(Json::parse(dry->body)["spec"]["replicas"], 4);
    QCOMPARE(getJson(*s.transport, base + "/api")["spec"]["replicas"], 1);
    auto patched = s.transport->request("PATCH", base + "/api/scale", {}, R"({"spec":{"replicas":3}})",
                                        "application/merge-patch+json", "application/json");
    QVERIFY2(patched.ok(), patched.ok() ? "" : patched.error().message.c_str());
    QCOMPARE(getJson(*s.transport, base + "/api")["spec"]["replicas"], 3);

    // PUT with the resourceVersion read before the patch: a conflict; with none: written.
    scale["spec"]["replicas"] = 2;
    auto stale = send(*s.transport, "PUT", base + "/api/scale", scale);
    QVERIFY(!stale.ok());
    QCOMPARE(stale.error().code, 409);
    scale["metadata"].erase("resourceVersion");
    auto put = send(*s.transport, "PUT", base + "/api/scale", scale);
    QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());
    QCOMPARE(getJson(*s.transport, base + "/api")["spec"]["replicas"], 2);

    scale["spec"]["replicas"] = -1;
    auto negative = send(*s.transport, "PUT", base + "/api/scale", scale);
    QVERIFY(!negative.ok());
    QCOMPARE(negative.error().code, 422);
    QVERIFY2(negative.error().message.find(
                 "spec.replicas: Invalid value: -1: must be greater than or equal to 0") != std::string::npos,
             negative.error().message.c_str());

    // Zero replicas: an empty spec (omitempty), which written back means zero.
    auto none = s.transport->request("PATCH", base + "/api/scale", {}, R"({"spec":{"replicas":0}})",
                                     "application/merge-patch+json", "application/json");
    QVERIFY2(none.ok(), none.ok() ? "" : none.error().message.c_str());
    Json zero = getJson(*s.transport, base + "/api/scale");
    QCOMPARE(zero["spec"], Json::object());
    zero["metadata"].erase("resourceVersion");
    auto back = send(*s.transport, "PUT", base + "/api/scale", zero);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(getJson(*s.transport, base + "/api")["spec"]["replicas"], 0);

    // DaemonSets have no scale subresource, and a missing ReplicaSet is not found.
    QCOMPARE(getJson(*s.transport, "/apis/apps/v1/namespaces/default/daemonsets/web/scale")["code"], 404);
    QCOMPARE(getJson(*s.transport, base + "/nothing/scale")["code"], 404);
}

// Pod lists select on the engine's records before encoding; the answer must be the one the
// selector gives on the pod's JSON (which watches use), for labels and for every pod field.
void TstApiServer::podSelectorsAgreeOnRecordsAndJson()
{
    std::vector<kube::Pod> pods;
    for (int i = 0; i < 4; ++i) {
        kube::Pod p;
        p.metadata.name = "web-" + std::to_string(i);
        p.metadata.namespace_ = i < 2 ? "default" : "kube-system";
        if (i != 3)
            p.metadata.labels = {{"app", i == 0 ? "web" : "db"}, {"tier", std::to_string(i)}};
        p.nodeName = i == 1 ? std::string() : "node-" + std::to_string(i);
        p.phase = i == 2 ? "Pending" : "Running";
        p.spec = std::make_shared<const Json>(
            Json{{"restartPolicy", i == 0 ? "Always" : "Never"}, {"containers", Json::array()}});
        pods.push_back(std::move(p));
    }
    const std::vector<std::string> labelSelectors = {
        "",     "app=web", "app!=web",       "app in (web,db)", "app notin (db)",
        "tier", "!tier",   "app=web,tier=0", "app=nothing"};
    const std::vector<std::string> fieldSelectors = {
        "metadata.name=web-1",      "metadata.namespace!=default",
        "spec.nodeName=",           "spec.nodeName=node-2",
        "status.phase=Running",     "status.phase!=Running,metadata.name=web-2",
        "spec.restartPolicy=Never", "status.podIP="};
    int matched = 0;
    for (const auto &text : labelSelectors) {
        auto sel = api::Selector::parseLabels(text);
        QVERIFY2(sel.ok(), text.c_str());
        for (const auto &p : pods) {
            QCOMPARE(sel->matchesPod(p), sel->matches(p.toJson()));
            matched += sel->matchesPod(p) ? 1 : 0;
        }
    }
    for (const auto &text : fieldSelectors) {
        auto sel = api::Selector::parseFields(text, api::Kind::Pod);
        QVERIFY2(sel.ok(), text.c_str());
        for (const auto &p : pods) {
            QCOMPARE(sel->matchesPod(p), sel->matches(p.toJson()));
            matched += sel->matchesPod(p) ? 1 : 0;
        }
    }
    QVERIFY(matched > 10 && matched < 68); // the selectors select, neither all nor nothing

    // Over HTTP: a label-selected, paged pod list gives the same pods as the unpaged one.
    auto s = startServer();
    QVERIFY(s.server);
    const Json all = getJson(*s.transport, "/api/v1/pods?labelSelector=app%3Dweb");
    QVERIFY(!all["items"].empty());
    std::vector<std::string> names, paged;
    for (const auto &p : all["items"])
        names.push_back(p["metadata"]["name"].get<std::string>());
    std::string cont;
    do {
        const Json page = getJson(*s.transport, "/api/v1/pods?labelSelector=app%3Dweb&limit=1" +
                                                    (cont.empty() ? std::string() : "&continue=" + cont));
        QCOMPARE(page["items"].size(), std::size_t(1));
        paged.push_back(page["items"][0]["metadata"]["name"].get<std::string>());
        cont = kube::stringOr(page["metadata"], "continue");
    } while (!cont.empty());
    QCOMPARE(paged, names);
}

// A pod list is written as text, without a JSON tree per pod: its bytes must be the canonical
// encoding of what they say (keys sorted at every depth, Go's escaping), its pods the same
// objects a GET of each returns, and its metadata the same as a list of any other kind.
void TstApiServer::podListPagesAreCanonicalAndMatchTheirObjects()
{
    auto s = startServer();
    QVERIFY(s.server);
    std::size_t seen = 0;
    std::string cont;
    for (int page = 0; page < 100; ++page) {
        auto r = s.transport->request("GET", "/api/v1/pods",
                                      cont.empty() ? client::Query{{"limit", "2"}}
                                                   : client::Query{{"limit", "2"}, {"continue", cont}},
                                      {}, {}, "application/json");
        QVERIFY(r);
        const Json body = Json::parse(r->body);
        QCOMPARE(r->body, kube::goJson(body));
        QCOMPARE(body["kind"], Json("PodList"));
        QCOMPARE(body["apiVersion"], Json("v1"));
        QVERIFY(body["metadata"]["resourceVersion"].is_string());
        for (const auto &item : body["items"]) {
            const std::string path = "/api/v1/namespaces/" +
                                     item["metadata"]["namespace"].get<std::string>() + "/pods/" +
                                     item["metadata"]["name"].get<std::string>();
            auto one = s.transport->request("GET", path, {}, {}, {}, "application/json");
            QVERIFY(one);
            QCOMPARE(kube::goJson(item), one->body);
            ++seen;
        }
        cont = kube::stringOr(body["metadata"], "continue");
        QCOMPARE(body["metadata"].contains("remainingItemCount"), !cont.empty());
        if (cont.empty())
            break;
    }
    QVERIFY(cont.empty());
    QVERIFY(seen >= 3); // web.yaml: a DaemonSet's pod on each of its three nodes at least
}

// Node lists are encoded a page at a time from the engine's records: each page canonical, each
// node the object a GET returns, the pages together the unpaged list, label and field selectors
// applied to the records, and a node list's continue token no token of another kind's list.
void TstApiServer::nodeListsPageSelectAndMatchTheirObjects()
{
    auto s = startServer();
    QVERIFY(s.server);
    auto patched =
        s.transport->request("PATCH", "/api/v1/nodes/node-1", {},
                             R"({"metadata":{"labels":{"pool":"b"}},"spec":{"unschedulable":true}})",
                             "application/merge-patch+json", "application/json");
    QVERIFY2(patched && patched->status == 200,
             patched ? patched->body.c_str() : patched.error().message.c_str());

    const auto names = [](const Json &list) {
        std::vector<std::string> out;
        for (const auto &n : list["items"])
            out.push_back(n["metadata"]["name"].get<std::string>());
        return out;
    };
    const Json all = getJson(*s.transport, "/api/v1/nodes");
    QCOMPARE(all["kind"], Json("NodeList"));
    QCOMPARE(names(all), (std::vector<std::string>{"node-0", "node-1", "node-2"}));

    std::vector<std::string> paged;
    std::string cont, rv;
    for (int page = 0; page < 10; ++page) {
        auto r = s.transport->request("GET", "/api/v1/nodes",
                                      cont.empty() ? client::Query{{"limit", "1"}}
                                                   : client::Query{{"limit", "1"}, {"continue", cont}},
                                      {}, {}, "application/json");
        QVERIFY(r);
        const Json body = Json::parse(r->body);
        QCOMPARE(r->body, kube::goJson(body));
        QCOMPARE(body["apiVersion"], Json("v1"));
        QCOMPARE(body["kind"], Json("NodeList"));
        if (rv.empty())
            rv = body["metadata"]["resourceVersion"].get<std::string>();
        QCOMPARE(body["metadata"]["resourceVersion"].get<std::string>(), rv);
        QCOMPARE(body["items"].size(), std::size_t(1));
        const Json &item = body["items"][0];
        auto one = s.transport->request("GET", "/api/v1/nodes/" + item["metadata"]["name"].get<std::string>(),
                                        {}, {}, {}, "application/json");
        QVERIFY(one);
        QCOMPARE(kube::goJson(item), one->body);
        paged.push_back(item["metadata"]["name"].get<std::string>());
        cont = kube::stringOr(body["metadata"], "continue");
        QCOMPARE(body["metadata"].contains("remainingItemCount"), !cont.empty());
        if (cont.empty())
            break;
        QCOMPARE(body["metadata"]["remainingItemCount"].get<int>(), 2 - page);
        // The token names a node list: another kind's list does not take it.
        auto other = s.transport->request("GET", "/apis/apps/v1/daemonsets",
                                          {{"limit", "1"}, {"continue", cont}}, {}, {}, "application/json");
        QVERIFY(!other);
        QCOMPARE(other.error().code, 410);
    }
    QCOMPARE(paged, names(all));

    const auto selected = [&](const std::string &param, const std::string &selector) {
        return names(getJson(*s.transport, "/api/v1/nodes", {{param, selector}}));
    };
    QCOMPARE(selected("labelSelector", "pool=b"), std::vector<std::string>{"node-1"});
    QCOMPARE(selected("labelSelector", "pool!=b"), (std::vector<std::string>{"node-0", "node-2"}));
    QCOMPARE(selected("fieldSelector", "spec.unschedulable=true"), std::vector<std::string>{"node-1"});
    QCOMPARE(selected("fieldSelector", "spec.unschedulable=false"),
             (std::vector<std::string>{"node-0", "node-2"}));
    QCOMPARE(selected("fieldSelector", "metadata.name!=node-0,spec.unschedulable=false"),
             std::vector<std::string>{"node-2"});
    QCOMPARE(selected("fieldSelector", "metadata.namespace="),
             (std::vector<std::string>{"node-0", "node-1", "node-2"}));
    // A table of a selected page (kubectl get nodes).
    const Json table = getJson(*s.transport, "/api/v1/nodes", {{"labelSelector", "pool=b"}, {"limit", "5"}},
                               "application/json;as=Table;v=v1;g=meta.k8s.io");
    QCOMPARE(table["kind"], Json("Table"));
    QCOMPARE(table["rows"].size(), std::size_t(1));
}

// batch/v1 Jobs as kube-apiserver and the job controller handle them: restartPolicy required,
// defaults and the generated selector, a pod per job pinned where the template says, the status
// counting it, Complete once it succeeded, the template immutable, deletion taking the pods.
void TstApiServer::jobsRunTheirPodsToCompletion()
{
    auto s = startServer();
    QVERIFY(s.server);
    const std::string base = "/apis/batch/v1/namespaces/default/jobs";
    Json job = {{"apiVersion", "batch/v1"},
                {"kind", "Job"},
                {"metadata", {{"name", "once"}}},
                {"spec",
                 {{"template",
                   {{"spec",
                     {{"nodeName", "node-1"},
                      {"containers", Json::array({{{"name", "c"}, {"image", "busybox"}}})}}}}}}}};
    auto refused = send(*s.transport, "POST", base, job);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, 422);
    QCOMPARE(
        QString::fromStdString(refused.error().message),
        u"Job.batch \"once\" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "
        "\"OnFailure\", \"Never\""_s);

    job["spec"]["template"]["spec"]["restartPolicy"] = "Never";
    auto created = send(*s.transport, "POST", base, job);
    QVERIFY2(created.ok(), created ? "" : created.error().message.c_str());
    Json object = Json::parse(created->body);
    const std::string uid = object["metadata"]["uid"];
    QCOMPARE(object["spec"]["parallelism"], 1);
    QCOMPARE(object["spec"]["completions"], 1);
    QCOMPARE(object["spec"]["backoffLimit"], 6);
    QCOMPARE(object["spec"]["completionMode"], "NonIndexed");
    QCOMPARE(object["spec"]["selector"],
             Json({{"matchLabels", {{"batch.kubernetes.io/controller-uid", uid}}}}));
    QCOMPARE(object["spec"]["template"]["metadata"]["labels"]["batch.kubernetes.io/job-name"], "once");

    s.server->withCluster([](sim::Cluster &c) { c.advance(10'000); });
    std::string podName;
    s.server->withCluster([&](sim::Cluster &c) {
        for (const auto *p : c.pods())
            if (const auto *ref = p->metadata.controllerRef();
                ref && ref->kind == "Job" && ref->uid == uid && p->nodeName == "node-1") {
                podName = p->metadata.name;
                QCOMPARE(p->phase, std::string("Running"));
            }
    });
    QVERIFY2(podName.rfind("once-", 0) == 0, podName.c_str());
    object = getJson(*s.transport, base + "/once");
    QCOMPARE(object["status"]["active"], 1);
    QVERIFY(object["status"].contains("startTime"));

    // The pod's work is done: the job completes.
    Json pod = getJson(*s.transport, "/api/v1/namespaces/default/pods/" + podName);
    pod["status"]["phase"] = "Succeeded";
    auto finished = send(*s.transport, "PUT", "/api/v1/namespaces/default/pods/" + podName + "/status", pod);
    QVERIFY2(finished.ok(), finished ? "" : finished.error().message.c_str());
    s.server->withCluster([](sim::Cluster &c) { c.advance(2'000); });
    object = getJson(*s.transport, base + "/once");
    QCOMPARE(object["status"]["succeeded"], 1);
    QCOMPARE(object["status"]["active"], 0);
    QVERIFY(object["status"].contains("completionTime"));
    QCOMPARE(object["status"]["conditions"].back()["type"], "Complete");
    const Json table = getJson(*s.transport, base, {}, kTableAccept);
    QCOMPARE(table["columnDefinitions"][1]["name"], "Status");
    QCOMPARE(table["rows"][0]["cells"][1], "Complete");
    QCOMPARE(table["rows"][0]["cells"][2], "1/1");

    // A status of the wrong JSON type is refused as kube-apiserver's decoder refuses it, naming
    // the type it got.
    Json badStatus = object;
    badStatus["status"] = 5;
    auto undecodable = send(*s.transport, "PUT", base + "/once/status", badStatus);
    QVERIFY(!undecodable.ok());
    QCOMPARE(undecodable.error().code, 400);
    QVERIFY2(
        undecodable.error().message.find("cannot unmarshal number into Go struct field Job.status of type "
                                         "v1.JobStatus") != std::string::npos,
        undecodable.error().message.c_str());

    // The template cannot change.
    Json changed = object;
    changed["spec"]["template"]["spec"]["containers"][0]["image"] = "busybox:2";
    auto immutable = send(*s.transport, "PUT", base + "/once", changed);
    QVERIFY(!immutable.ok());
    QCOMPARE(immutable.error().code, 422);
    QVERIFY(QString::fromStdString(immutable.error().message).endsWith(u"field is immutable"_s));

    auto deleted =
        send(*s.transport, "DELETE", base + "/once", Json::object(), {{"propagationPolicy", "Background"}});
    QVERIFY(deleted.ok());
    s.server->withCluster([](sim::Cluster &c) { c.advance(5'000); });
    auto gone = s.transport->request("GET", "/api/v1/namespaces/default/pods/" + podName, {}, {}, {},
                                     "application/json");
    QVERIFY(!gone.ok());
    QCOMPARE(gone.error().code, 404);
}

QTEST_GUILESS_MAIN(TstApiServer)
#include "tst_apiserver.moc"
