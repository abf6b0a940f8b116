// Kubeconfig loading, merging, validation and resolution, as kubectl does it. Every error must
// name the file (and line:column for YAML-level problems) and never contain a secret.

#include "models/client/base64.h"
#include "models/client/httptransport.h"
#include "models/client/kubeconfig.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace client;

namespace {

// Secret values used by the fixtures; no message may contain any of them.
const char *const kToken = "s3cr3t-token-value";
const char *const kPassword = "hunter2-password";
const char *const kKeyMarker = "SECRETKEYMATERIAL";
const char *const kEnvSecret = "env-secret-value";
const char *const kProxySecret = "proxy-secret";
const char *const kPlanted = "sha256~PLANTEDbearerTOKENvalue0123456789abcdefXYZ";
const char *const kPlantedEnv = "PLANTEDexecENVvalue0123456789";

const std::string kCaPem = "-----BEGIN CERTIFICATE-----\nMIIBfakeCA\n-----END CERTIFICATE-----\n";
const std::string kCertPem = "-----BEGIN CERTIFICATE-----\nMIIBfakeClient\n-----END CERTIFICATE-----\n";
const std::string kKeyPem =
    std::string("-----BEGIN PRIVATE KEY-----\n") + kKeyMarker + "\n-----END PRIVATE KEY-----\n";

std::vector<std::string> secrets()
{
    return {kToken, kPassword, kKeyMarker, encodeBase64(kKeyPem), kEnvSecret, kProxySecret};
}

std::string header(const std::string &current = "ctx")
{
    return "apiVersion: v1\nkind: Config\ncurrent-context: " + current + "\n";
}
const std::string kCluster = "clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:6443\n";
const std::string kUser = std::string("users:\n- name: u\n  user:\n    token: ") + kToken + "\n";
const std::string kContext = "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n";

std::string userWith(const std::string &body)
{
    return "users:\n- name: u\n  user:\n" + body;
}
std::string clusterWith(const std::string &body)
{
    return "clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:6443\n" + body;
}

void writeFile(const QString &path, const std::string &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text.data(), qint64(text.size()));
}

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestKubeconfig : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
    std::string spath(const QString &name) const { return path(name).toStdString(); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeFile(path(QStringLiteral("ca.pem")), kCaPem);
        writeFile(path(QStringLiteral("client.crt")), kCertPem);
        writeFile(path(QStringLiteral("client.key")), kKeyPem);
        writeFile(path(QStringLiteral("notpem.txt")), "just text\n");
        writeFile(path(QStringLiteral("token.txt")), std::string("  ") + kToken + "\n\n");
        writeFile(path(QStringLiteral("empty-token.txt")), "\n");
    }

    void brokenConfigsAreReportedClearly_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("fragment");
        QTest::addColumn<int>("line"); // 0: no line expected

        auto row = [](const char *name, const std::string &yaml, const std::string &fragment, int line = 0,
                      const std::string &context = {}) {
            QTest::newRow(name) << qs(yaml) << qs(context) << qs(fragment) << line;
        };
        const std::string ok = kCluster + kUser + kContext;
        row("a file that is not YAML names the line", header() + "clusters: [\n  - name: c\n",
            "not valid YAML", 0);
        row("a file that is a list is not a kubeconfig", "- a\n- b\n", "not a kubeconfig", 1);
        row("another kind is rejected", "apiVersion: v1\nkind: Pod\n", "expected Config", 2);
        row("clusters given as a mapping", header() + "clusters:\n  c:\n    server: x\n",
            "field clusters: expected a list", 5);
        row("a cluster entry without a name", header() + "clusters:\n- cluster:\n    server: https://x\n",
            "entry has no name", 5);
        row("a cluster body that is a string", header() + "clusters:\n- name: c\n  cluster: https://x\n",
            "field clusters[0].cluster: expected a mapping", 6);
        row("a server given as a list",
            header() + "clusters:\n- name: c\n  cluster:\n    server: [a, b]\n" + kUser + kContext,
            "field clusters[0].cluster.server: expected a string, found a list", 7);
        row("insecure-skip-tls-verify that is not a boolean",
            header() + clusterWith("    insecure-skip-tls-verify: maybe\n") + kUser + kContext,
            "insecure-skip-tls-verify: expected true or false", 8);
        row("a token written as a number", header() + kCluster + userWith("    token: 12345\n") + kContext,
            "field users[0].user.token: expected a string, found a number", 11);
        row("bad base64 in certificate-authority-data",
            header() + clusterWith("    certificate-authority-data: 'LS0t!!'\n") + kUser + kContext,
            "certificate-authority-data: not valid base64", 8);
        row("bad base64 in client-key-data does not echo the data",
            header() + kCluster +
                userWith(std::string("    client-certificate-data: ") + encodeBase64(kCertPem) +
                         "\n    client-key-data: " + kKeyMarker + "%%\n") +
                kContext,
            "client-key-data: not valid base64", 12);
        row("a cluster name defined twice in one file",
            header() + kCluster + "- name: c\n  cluster:\n    server: https://b\n" + kUser + kContext,
            "duplicate name \"c\" in clusters", 8);
        row("exec args given as a string",
            header() + kCluster + userWith("    exec:\n      command: x\n      args: --flag\n") + kContext,
            "field users[0].user.exec.args: expected a list of strings, found a string", 13);
        row("an exec env entry without a name",
            header() + kCluster +
                userWith(
                    std::string("    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      "
                                "command: x\n      interactiveMode: Never\n      env:\n      - value: ") +
                    kEnvSecret + "\n") +
                kContext,
            "an exec environment variable needs a name", 0);
        row("a current-context that does not exist", header("nope") + ok, "current-context \"nope\" (set in");
        row("no current-context at all", "apiVersion: v1\nkind: Config\n" + ok,
            "no current-context is set in");
        row("a --context that does not exist", header() + ok, "context \"other\" does not exist in", 0,
            "other");
        row("a context naming a missing cluster",
            header() + kCluster + kUser +
                "contexts:\n- name: ctx\n  context:\n    cluster: ghost\n    user: u\n",
            "names cluster \"ghost\", which is not defined in");
        row("a context naming a missing user",
            header() + kCluster + kUser +
                "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: ghost\n",
            "names user \"ghost\", which is not defined in");
        row("a context with no cluster",
            header() + kCluster + kUser + "contexts:\n- name: ctx\n  context:\n    user: u\n",
            "names no cluster");
        row("a cluster without a server",
            header() + "clusters:\n- name: c\n  cluster:\n    tls-server-name: x\n" + kUser + kContext,
            "cluster \"c\" has no server");
        row("a server with an unknown scheme",
            header() + "clusters:\n- name: c\n  cluster:\n    server: ftp://x\n" + kUser + kContext,
            "server URL scheme must be https or http");
        row("a server without a host",
            header() + "clusters:\n- name: c\n  cluster:\n    server: https://:6443\n" + kUser + kContext,
            "server URL has no host");
        row("a missing certificate-authority file",
            header() + clusterWith("    certificate-authority: missing-ca.pem\n") + kUser + kContext,
            "cannot read certificate-authority");
        row("a certificate-authority that is not PEM",
            header() + clusterWith("    certificate-authority: notpem.txt\n") + kUser + kContext,
            "contains no PEM certificate");
        row("certificate-authority-data that is not PEM",
            header() + clusterWith("    certificate-authority-data: " + encodeBase64("hello") + "\n") +
                kUser + kContext,
            "does not decode to a PEM certificate");
        row("a CA given as file and data",
            header() +
                clusterWith("    certificate-authority: ca.pem\n    certificate-authority-data: " +
                            encodeBase64(kCaPem) + "\n") +
                kUser + kContext,
            "certificate-authority-data and certificate-authority are both specified");
        row("insecure-skip-tls-verify together with a CA",
            header() +
                clusterWith("    certificate-authority: ca.pem\n    insecure-skip-tls-verify: true\n") +
                kUser + kContext,
            "specifying a root certificates file with the insecure flag is not allowed");
        row("a proxy-url with an unsupported scheme hides its credentials",
            header() + clusterWith(std::string("    proxy-url: ftp://user:") + kProxySecret + "@proxy:21\n") +
                kUser + kContext,
            "unsupported proxy-url scheme \"ftp\"");
        row("a namespace that is not a DNS label",
            header() + kCluster + kUser +
                "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n    namespace: Team_A\n",
            "does not conform to the kubernetes DNS_LABEL rules");
        row("a client certificate without a key",
            header() + kCluster + userWith("    client-certificate: client.crt\n") + kContext,
            "a client certificate needs client-key");
        row("a client key without a certificate",
            header() + kCluster + userWith("    client-key: client.key\n") + kContext,
            "a client key needs client-certificate");
        row("an unreadable client key file",
            header() + kCluster +
                userWith("    client-certificate: client.crt\n    client-key: nokey.pem\n") + kContext,
            "cannot read client-key");
        row("client-certificate-data that is not PEM",
            header() + kCluster +
                userWith("    client-certificate-data: " + encodeBase64("nope") +
                         "\n    client-key: client.key\n") +
                kContext,
            "the client certificate is not a PEM certificate");
        row("a token and basic auth together",
            header() + kCluster +
                userWith(std::string("    token: ") + kToken +
                         "\n    username: admin\n    password: " + kPassword + "\n") +
                kContext,
            "more than one authentication method found");
        row("a tokenFile that does not exist",
            header() + kCluster + userWith("    tokenFile: missing-token\n") + kContext,
            "cannot read tokenFile");
        row("an empty tokenFile",
            header() + kCluster + userWith("    tokenFile: empty-token.txt\n") + kContext, "is empty");
        row("an auth-provider",
            header() + kCluster +
                userWith("    auth-provider:\n      name: oidc\n      config:\n        id-token: " +
                         std::string(kToken) + "\n") +
                kContext,
            "unsupported auth-provider \"oidc\"; use an exec credential plugin");
        row("exec and auth-provider together",
            header() + kCluster +
                userWith("    auth-provider:\n      name: gcp\n    exec:\n      command: x\n") + kContext,
            "auth-provider cannot be provided in combination with an exec plugin");
        row("an exec plugin without a command",
            header() + kCluster +
                userWith("    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      "
                         "interactiveMode: Never\n") +
                kContext,
            "exec needs a command");
        row("an exec plugin without an apiVersion",
            header() + kCluster + userWith("    exec:\n      command: x\n") + kContext,
            "exec needs an apiVersion");
        row("an exec plugin with an unsupported apiVersion",
            header() + kCluster +
                userWith("    exec:\n      command: x\n      apiVersion: "
                         "client.authentication.k8s.io/v1alpha1\n") +
                kContext,
            "is not supported; use client.authentication.k8s.io/v1 or v1beta1");
        row("a v1 exec plugin without interactiveMode",
            header() + kCluster +
                userWith("    exec:\n      command: x\n      apiVersion: client.authentication.k8s.io/v1\n") +
                kContext,
            "exec needs interactiveMode");
        row("an exec plugin with an unknown interactiveMode",
            header() + kCluster +
                userWith("    exec:\n      command: x\n      apiVersion: client.authentication.k8s.io/v1\n   "
                         "   interactiveMode: Sometimes\n") +
                kContext,
            "invalid exec interactiveMode \"Sometimes\"");
        row("impersonation groups without a user",
            header() + kCluster + userWith("    as-groups: [admins]\n") + kContext,
            "without impersonating a user");
    }
    void brokenConfigsAreReportedClearly()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, context);
        QFETCH(QString, fragment);
        QFETCH(int, line);
        static int serial = 0;
        const QString file = path(QStringLiteral("broken-%1.yaml").arg(++serial));
        writeFile(file, yaml.toStdString());
        KubeconfigOptions opt;
        opt.explicitPath = file.toStdString();
        opt.context = context.toStdString();
        auto cfg = Kubeconfig::load(opt);
        std::string message;
        if (!cfg.ok()) {
            message = cfg.error().message;
        } else {
            auto rc = cfg->resolve(opt);
            QVERIFY2(!rc.ok(), "expected an error");
            message = rc.error().message;
            QCOMPARE(qs(rc.error().reason), QStringLiteral("InvalidConfiguration"));
        }
        QVERIFY2(message.find(fragment.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find(file.toStdString()) != std::string::npos,
                 ("the file is not named: " + message).c_str());
        if (line > 0)
            QVERIFY2(message.find(file.toStdString() + ":" + std::to_string(line) + ":") != std::string::npos,
                     ("wrong or missing line: " + message).c_str());
        for (const auto &secret : secrets())
            QVERIFY2(message.find(secret) == std::string::npos, ("a secret leaked: " + message).c_str());
    }

    void explicitFileMustExistAndIsUsedAlone()
    {
        writeFile(path(QStringLiteral("env.yaml")), header() + kCluster + kUser + kContext);
        KubeconfigOptions opt;
        opt.kubeconfigEnv = spath(QStringLiteral("env.yaml"));
        opt.explicitPath = spath(QStringLiteral("absent.yaml"));
        auto cfg = Kubeconfig::load(opt);
        QVERIFY(!cfg.ok());
        QVERIFY2(cfg.error().message.find("absent.yaml does not exist") != std::string::npos,
                 cfg.error().message.c_str());
    }

    void kubeconfigListSkipsEmptyDuplicateAndMissingEntries()
    {
        writeFile(path(QStringLiteral("l1.yaml")), header() + kCluster + kUser + kContext);
        writeFile(path(QStringLiteral("l2.yaml")), "apiVersion: v1\nkind: Config\n");
        const std::string a = spath(QStringLiteral("l1.yaml")), b = spath(QStringLiteral("l2.yaml"));
        KubeconfigOptions opt;
        opt.kubeconfigEnv = "::" + a + "::" + spath(QStringLiteral("missing.yaml")) + ":" + b + ":" + a + ":";
        QCOMPARE(Kubeconfig::filesFor(opt).size(), std::size_t(3));
        auto cfg = Kubeconfig::load(opt);
        QVERIFY(cfg.ok());
        QCOMPARE(cfg->files(), (std::vector<std::string>{a, b}));
    }

    void homeConfigIsTheFallback()
    {
        QTemporaryDir home;
        writeFile(home.filePath(QStringLiteral(".kube/config")), header() + kCluster + kUser + kContext);
        KubeconfigOptions opt;
        opt.kubeconfigEnv = "";
        opt.home = home.path().toStdString();
        auto cfg = Kubeconfig::load(opt);
        QVERIFY(cfg.ok());
        auto rc = cfg->resolve(opt);
        QVERIFY(rc.ok());
        QCOMPARE(qs(rc->server), QStringLiteral("https://127.0.0.1:6443"));

        opt.home = (home.path() + QStringLiteral("/nowhere")).toStdString();
        auto none = Kubeconfig::load(opt);
        QVERIFY(none.ok()); // a missing default file is not an error by itself...
        auto unresolved = none->resolve(opt);
        QVERIFY(!unresolved.ok()); // ...but there is nothing to connect to
        QVERIFY(unresolved.error().message.find("no kubeconfig file found") != std::string::npos);
    }

    void firstFileToDefineSomethingWins()
    {
        writeFile(path(QStringLiteral("m1.yaml")),
                  "clusters:\n- name: shared\n  cluster:\n    server: https://first:6443\n"
                  "users:\n- name: red\n  user:\n    token: first-token\n"
                  "contexts:\n- name: one\n  context:\n    cluster: shared\n    user: red\n    namespace: "
                  "ns-one\n");
        writeFile(path(QStringLiteral("m2.yaml")),
                  "current-context: two\n"
                  "clusters:\n- name: shared\n  cluster:\n    server: https://second:6443\n    "
                  "tls-server-name: ignored\n"
                  "- name: only-second\n  cluster:\n    server: https://only-second:6443\n"
                  "users:\n- name: red\n  user:\n    username: not-merged\n"
                  "contexts:\n- name: one\n  context:\n    cluster: only-second\n    user: red\n"
                  "- name: two\n  context:\n    cluster: shared\n    user: red\n");
        writeFile(path(QStringLiteral("m3.yaml")), "current-context: one\n");
        KubeconfigOptions opt;
        opt.kubeconfigEnv = spath(QStringLiteral("m1.yaml")) + ":" + spath(QStringLiteral("m2.yaml")) + ":" +
                            spath(QStringLiteral("m3.yaml"));
        auto cfg = Kubeconfig::load(opt);
        QVERIFY2(cfg.ok(), cfg.ok() ? "" : cfg.error().message.c_str());
        QCOMPARE(qs(cfg->currentContext()), QStringLiteral("two")); // first non-empty current-context
        QCOMPARE(cfg->clusters().size(), std::size_t(2));
        auto rc = cfg->resolve(opt);
        QVERIFY2(rc.ok(), rc.ok() ? "" : rc.error().message.c_str());
        QCOMPARE(qs(rc->server), QStringLiteral("https://first:6443"));
        QVERIFY(rc->tlsServerName.empty()); // fields of a losing entry are not merged in
        QCOMPARE(qs(rc->token), QStringLiteral("first-token"));
        QVERIFY(rc->username.empty());
        QCOMPARE(qs(rc->namespace_), QStringLiteral("default"));
        auto one = cfg->resolve("one");
        QVERIFY(one.ok());
        QCOMPARE(qs(one->server), QStringLiteral("https://first:6443")); // context "one" from m1
        QCOMPARE(qs(one->namespace_), QStringLiteral("ns-one"));
    }

    void contextAndNamespaceSelection_data()
    {
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("namespaceOverride");
        QTest::addColumn<QString>("expectedContext");
        QTest::addColumn<QString>("expectedNamespace");
        QTest::addColumn<QString>("expectedServer");
        QTest::newRow("the current context brings its namespace") << ""
                                                                  << ""
                                                                  << "dev"
                                                                  << "team-a"
                                                                  << "https://dev:6443";
        QTest::newRow("--context switches cluster and namespace") << "prod"
                                                                  << ""
                                                                  << "prod"
                                                                  << "default"
                                                                  << "https://prod";
        QTest::newRow("--namespace beats the context's namespace") << ""
                                                                   << "kube-system"
                                                                   << "dev"
                                                                   << "kube-system"
                                                                   << "https://dev:6443";
        QTest::newRow("--context and --namespace together") << "prod"
                                                            << "monitoring"
                                                            << "prod"
                                                            << "monitoring"
                                                            << "https://prod";
    }
    void contextAndNamespaceSelection()
    {
        QFETCH(QString, context);
        QFETCH(QString, namespaceOverride);
        QFETCH(QString, expectedContext);
        QFETCH(QString, expectedNamespace);
        QFETCH(QString, expectedServer);
        writeFile(path(QStringLiteral("sel.yaml")),
                  header("dev") +
                      "clusters:\n- name: dev\n  cluster:\n    server: https://dev:6443/\n- name: prod\n  "
                      "cluster:\n    server: prod\n"
                      "contexts:\n- name: dev\n  context:\n    cluster: dev\n    namespace: team-a\n"
                      "- name: prod\n  context:\n    cluster: prod\n");
        KubeconfigOptions opt;
        opt.explicitPath = spath(QStringLiteral("sel.yaml"));
        opt.context = context.toStdString();
        opt.namespace_ = namespaceOverride.toStdString();
        auto cfg = Kubeconfig::load(opt);
        QVERIFY(cfg.ok());
        auto rc = cfg->resolve(opt);
        QVERIFY2(rc.ok(), rc.ok() ? "" : rc.error().message.c_str());
        QCOMPARE(qs(rc->contextName), expectedContext);
        QCOMPARE(qs(rc->namespace_), expectedNamespace);
        QCOMPARE(qs(rc->server), expectedServer);
        QVERIFY(rc->userName.empty()); // a context without a user is anonymous
    }

    void everyFieldResolves()
    {
        writeFile(path(QStringLiteral("sub/certs/ca.pem")), kCaPem);
        writeFile(path(QStringLiteral("sub/token")), std::string(kToken) + "\n");
        const std::string yaml =
            header("full") +
            "clusters:\n- name: c\n  cluster:\n    server: https://10.0.0.1:6443\n    certificate-authority: "
            "certs/ca.pem\n"
            "    tls-server-name: api.internal\n    proxy-url: socks5://127.0.0.1:1080\n    "
            "disable-compression: true\n"
            "    extensions:\n    - name: client.authentication.k8s.io/exec\n      extension:\n        "
            "audience: probe\n"
            "users:\n- name: u\n  user:\n    tokenFile: token\n    client-certificate-data: " +
            encodeBase64(kCertPem) + "\n    client-key-data: " + encodeBase64(kKeyPem) +
            "\n    as: jane\n    as-groups: [devs, ops]\n"
            "- name: e\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      "
            "command: ./bin/plugin\n"
            "      args: [get-token, --cluster=c]\n      env:\n      - name: FOO\n        value: " +
            kEnvSecret +
            "\n      provideClusterInfo: true\n      installHint: install it\n"
            "- name: p\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      "
            "command: kubelogin\n"
            "      interactiveMode: Always\n"
            "contexts:\n- name: full\n  context:\n    cluster: c\n    user: u\n    namespace: ns1\n"
            "- name: exec\n  context:\n    cluster: c\n    user: e\n"
            "- name: path\n  context:\n    cluster: c\n    user: p\n";
        writeFile(path(QStringLiteral("sub/config")), yaml);
        auto cfg = Kubeconfig::loadFiles({spath(QStringLiteral("sub/config"))});
        QVERIFY2(cfg.ok(), cfg.ok() ? "" : cfg.error().message.c_str());
        auto rc = cfg->resolve();
        QVERIFY2(rc.ok(), rc.ok() ? "" : rc.error().message.c_str());
        QCOMPARE(qs(rc->caPem), qs(kCaPem)); // relative to the kubeconfig's directory
        QCOMPARE(qs(rc->token), qs(kToken)); // trailing newline stripped
        QCOMPARE(qs(rc->tokenFile), path(QStringLiteral("sub/token")));
        QCOMPARE(qs(rc->clientCertPem), qs(kCertPem));
        QCOMPARE(qs(rc->clientKeyPem), qs(kKeyPem));
        QCOMPARE(qs(rc->tlsServerName), QStringLiteral("api.internal"));
        QCOMPARE(qs(rc->proxyUrl), QStringLiteral("socks5://127.0.0.1:1080"));
        QVERIFY(rc->disableCompression);
        QCOMPARE(qs(rc->impersonateUser), QStringLiteral("jane"));
        QCOMPARE(rc->impersonateGroups.size(), std::size_t(2));
        QCOMPARE(qs(rc->namespace_), QStringLiteral("ns1"));
        QVERIFY(!rc->exec);

        auto ex = cfg->resolve("exec");
        QVERIFY2(ex.ok(), ex.ok() ? "" : ex.error().message.c_str());
        QVERIFY(ex->exec.has_value());
        QCOMPARE(qs(ex->exec->command),
                 path(QStringLiteral("sub/bin/plugin"))); // has a '/': relative to the file
        QCOMPARE(ex->exec->args, (std::vector<std::string>{"get-token", "--cluster=c"}));
        QCOMPARE(qs(ex->exec->env.at(0).second), qs(kEnvSecret));
        QVERIFY(ex->exec->provideClusterInfo);
        QVERIFY(ex->exec->interactiveMode == InteractiveMode::IfAvailable); // v1beta1 default
        QCOMPARE(qs(ex->exec->clusterConfig.value("audience", "")), QStringLiteral("probe"));
        QCOMPARE(qs(ex->exec->server), QStringLiteral("https://10.0.0.1:6443"));

        auto bare = cfg->resolve("path");
        QVERIFY(bare.ok());
        QCOMPARE(qs(bare->exec->command), QStringLiteral("kubelogin")); // looked up in PATH when run
        QVERIFY(bare->exec->interactiveMode == InteractiveMode::Always);
    }

    void emptyFileIsAnEmptyConfig()
    {
        writeFile(path(QStringLiteral("empty.yaml")), "");
        writeFile(path(QStringLiteral("real.yaml")), header() + kCluster + kUser + kContext);
        auto cfg =
            Kubeconfig::loadFiles({spath(QStringLiteral("empty.yaml")), spath(QStringLiteral("real.yaml"))});
        QVERIFY(cfg.ok());
        QVERIFY(cfg->resolve().ok());
    }

    void base64FollowsGoStdEncoding_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("decoded");
        QTest::newRow("padded text decodes") << "aGVsbG8=" << true << "hello";
        QTest::newRow("line breaks are skipped") << "aGVs\nbG8=\n" << true << "hello";
        QTest::newRow("missing padding is an error") << "aGVsbG8" << false << "";
        QTest::newRow("URL alphabet is an error") << "a-_=" << false << "";
        QTest::newRow("data after padding is an error") << "aGk=aGk=" << false << "";
    }
    void base64FollowsGoStdEncoding()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, decoded);
        auto r = decodeBase64(text.toStdString());
        QCOMPARE(r.has_value(), valid);
        if (valid) {
            QCOMPARE(qs(*r), decoded);
            QCOMPARE(qs(encodeBase64(*r)), QString(text).remove(QLatin1Char('\n')));
        }
    }

    // Every error path, fed a kubeconfig whose credentials are planted where a message could
    // pick them up: swallowed by an open quote, used as a name, a path or a value.
    void plantedCredentialsNeverReachAMessage_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("context");
        const std::string t = kPlanted;
        const std::string e = kPlantedEnv;
        const std::string users = "users:\n- name: u\n  user:\n    token: " + t + "\n";
        const std::string clusters = "clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:6443\n";
        const std::string contexts = "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n";
        auto row = [](const char *name, const std::string &yaml, const std::string &context = {}) {
            QTest::newRow(name) << qs(yaml) << qs(context);
        };
        row("an open quote in current-context swallows the token",
            "apiVersion: v1\nkind: Config\ncurrent-context: 'dev\n" + clusters + users + contexts);
        row("an open quote closed by a later one",
            "apiVersion: v1\nkind: Config\ncurrent-context: 'dev\n" + clusters + users +
                "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u'\n");
        row("an open quote in a context's cluster",
            header() + clusters + users +
                "contexts:\n- name: ctx\n  context:\n    cluster: 'c\n    user: u\n" +
                "- name: other\n  context:\n    cluster: c\n    namespace: x'\n");
        row("the token as current-context", header(t) + clusters + users + contexts);
        row("the token as --context", header() + clusters + users + contexts, t);
        row("the token as the kind", "apiVersion: v1\nkind: " + t + "\n" + users);
        row("the token as the apiVersion", "apiVersion: " + t + "\nkind: Config\n" + users);
        row("the token as a duplicate name",
            header() + clusters + users + "- name: " + t + "\n  user: {}\n- name: " + t + "\n  user: {}\n");
        row("the token as a missing cluster", header() + clusters + users +
                                                  "contexts:\n- name: ctx\n  context:\n    cluster: " + t +
                                                  "\n    user: u\n");
        row("the token as a missing user",
            header() + clusters + users +
                "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: " + t + "\n");
        row("the token as a namespace",
            header() + clusters + users + contexts + "    namespace: " + t + "\n");
        row("the token in a certificate-authority path",
            header() + clusterWith("    certificate-authority: /nonexistent/" + t + "\n") + users + contexts);
        row("the token in a tokenFile path",
            header() + clusters +
                userWith("    tokenFile: /nonexistent/" + t + "\n    password: " + t + "x\n") +
                "- name: v\n  user:\n    token: " + t + "\n" + contexts);
        row("the token in a server scheme",
            header() + "clusters:\n- name: c\n  cluster:\n    server: " + t + "://x\n" + users + contexts);
        row("the token as userinfo of a server with a bad scheme",
            header() + "clusters:\n- name: c\n  cluster:\n    server: ftp://admin:" + t + "@x\n" + users +
                contexts);
        row("token and password together",
            header() + clusters +
                userWith("    token: " + t + "\n    username: a\n    password: " + t + "\n") + contexts);
        row("the token as an auth-provider name",
            header() + clusters +
                userWith("    token: " + t + "\n    auth-provider:\n      name: " + t + "\n") + contexts);
        row("an exec env value as the exec apiVersion",
            header() + clusters +
                userWith("    token: " + t + "\n    exec:\n      apiVersion: " + e +
                         "\n      command: x\n      env:\n" + "      - name: SECRET\n        value: " + e +
                         "\n") +
                contexts);
        row("an exec env value as the interactiveMode",
            header() + clusters +
                userWith(
                    std::string(
                        "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: x\n") +
                    "      interactiveMode: " + e +
                    "\n      env:\n      - name: SECRET\n        value: " + e + "\n") +
                contexts);
        row("a YAML syntax error after the token", header() + clusters + users + contexts + "  bad: [\n");
        row("the token as base64 key data",
            header() + clusters +
                userWith("    client-certificate-data: " + encodeBase64(kCertPem) +
                         "\n    client-key-data: '" + t + "!'\n    token: " + t + "\n") +
                contexts);
    }
    void plantedCredentialsNeverReachAMessage()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, context);
        static int serial = 0;
        const QString file = path(QStringLiteral("planted-%1.yaml").arg(++serial));
        writeFile(file, yaml.toStdString());
        KubeconfigOptions opt;
        opt.explicitPath = file.toStdString();
        opt.context = context.toStdString();
        auto cfg = Kubeconfig::load(opt);
        std::string message;
        if (!cfg.ok()) {
            message = cfg.error().message;
        } else {
            auto rc = cfg->resolve(opt);
            QVERIFY2(!rc.ok(), "expected an error");
            message = rc.error().message;
        }
        QVERIFY(!message.empty());
        for (const std::string &secret : {std::string(kPlanted), std::string(kPlantedEnv)})
            QVERIFY2(message.find(secret.substr(0, 12)) == std::string::npos,
                     ("a secret leaked: " + message).c_str());
    }

    void credentialsInTheServerUrlAreKeptOutOfIt()
    {
        writeFile(path(QStringLiteral("userinfo.yaml")),
                  header() + "clusters:\n- name: c\n  cluster:\n    server: https://alice:" + kPassword +
                      "@127.0.0.1:6443/prefix\n" + "users:\n- name: u\n  user: {}\n" + kContext);
        auto cfg = Kubeconfig::loadFiles({spath(QStringLiteral("userinfo.yaml"))});
        QVERIFY(cfg.ok());
        QCOMPARE(qs(cfg->clusters().at("c").server), QStringLiteral("https://127.0.0.1:6443/prefix"));
        auto rc = cfg->resolve();
        QVERIFY(rc.ok());
        QCOMPARE(qs(rc->server), QStringLiteral("https://127.0.0.1:6443/prefix"));
        QCOMPARE(qs(rc->username), QStringLiteral("alice"));
        QCOMPARE(qs(rc->password), qs(kPassword));

        // A hand-made configuration is still printed without them.
        RestConfig manual;
        manual.server = std::string("https://bob:") + kPassword + "@example.test:443";
        QCOMPARE(qs(HttpTransport(manual).server()), QStringLiteral("https://***@example.test:443"));
        QCOMPARE(qs(Transport::redactedUrl("http://u@h/p@q")), QStringLiteral("http://***@h/p@q"));
        QCOMPARE(qs(Transport::redactedUrl("https://h:1/a@b")), QStringLiteral("https://h:1/a@b"));
    }
};

QTEST_GUILESS_MAIN(TestKubeconfig)
#include "tst_kubeconfig.moc"
