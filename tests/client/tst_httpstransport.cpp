// HttpTransport over HTTPS against a loopback server with certificates made by the openssl CLI:
// CA verification (right CA, wrong CA, no CA, insecure), tls-server-name, credentials sent only
// over TLS, and an exec plugin re-run after a 401.

#include "fakeapiserver.h"

#include "models/client/base64.h"
#include "models/client/httptransport.h"
#include "models/client/kubeclient.h"
#include "models/client/kubeconfig.h"
#include "models/kube/daemonset.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace client;

namespace {

const std::string kDs =
    R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"web","namespace":"default","resourceVersion":"5"},"spec":{}})";

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string readAll(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

} // namespace

class TestHttpsTransport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString f(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }

    bool openssl(const QStringList &args)
    {
        QProcess p;
        p.setWorkingDirectory(m_dir.path());
        p.start(QStringLiteral("openssl"), args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning("openssl %s failed: %s", qPrintable(args.join(QLatin1Char(' '))),
                     p.readAllStandardError().constData());
            return false;
        }
        return true;
    }
    bool makeCa(const QString &name)
    {
        return openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                        QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                        name + QStringLiteral(".key"), QStringLiteral("-out"), name + QStringLiteral(".pem"),
                        QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                        QStringLiteral("/CN=") + name});
    }
    bool makeServerCert(const QString &name, const QString &san)
    {
        QFile ext(f("san.ext"));
        if (!ext.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        ext.write(QStringLiteral("subjectAltName=%1\n").arg(san).toUtf8());
        ext.close();
        return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                        QStringLiteral("-nodes"), QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                        QStringLiteral("-out"), name + QStringLiteral(".csr"), QStringLiteral("-subj"),
                        QStringLiteral("/CN=") + name}) &&
               openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                        name + QStringLiteral(".csr"), QStringLiteral("-CA"), QStringLiteral("ca.pem"),
                        QStringLiteral("-CAkey"), QStringLiteral("ca.key"), QStringLiteral("-CAcreateserial"),
                        QStringLiteral("-out"), name + QStringLiteral(".pem"), QStringLiteral("-days"),
                        QStringLiteral("2"), QStringLiteral("-extfile"), QStringLiteral("san.ext")});
    }

    FakeTls tls(const char *name) const
    {
        return {f(name) + QStringLiteral(".pem"), f(name) + QStringLiteral(".key")};
    }

    RestConfig config(const FakeApiServer &server, const std::string &caPem)
    {
        RestConfig rc;
        rc.server = server.url();
        rc.caPem = caPem;
        return rc;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(makeCa(QStringLiteral("ca")));
        QVERIFY(makeCa(QStringLiteral("other-ca")));
        QVERIFY(makeServerCert(QStringLiteral("server"), QStringLiteral("IP:127.0.0.1,DNS:localhost")));
        QVERIFY(makeServerCert(QStringLiteral("named"), QStringLiteral("DNS:api.internal")));
    }

    void kubeconfigCaIsTrustedAndTheTokenSent()
    {
        const FakeTls t = tls("server");
        FakeApiServer server([](const FakeRequest &) { return FakeResponse::json(kDs); }, &t);
        QFile cfg(f("kubeconfig"));
        QVERIFY(cfg.open(QIODevice::WriteOnly | QIODevice::Truncate));
        cfg.write(qs("current-context: t\nclusters:\n- name: c\n  cluster:\n    server: " + server.url() +
                     "\n    certificate-authority: ca.pem\nusers:\n- name: u\n  user:\n    token: "
                     "tls-token\n    as: jane\n"
                     "contexts:\n- name: t\n  context:\n    cluster: c\n    user: u\n")
                      .toUtf8());
        cfg.close();
        auto kc = Kubeconfig::loadFiles({f("kubeconfig").toStdString()}, true);
        QVERIFY(kc.ok());
        auto rc = kc->resolve();
        QVERIFY2(rc.ok(), rc.ok() ? "" : rc.error().message.c_str());
        KubeClient client(std::make_shared<HttpTransport>(*rc), rc->namespace_);
        auto ds = client.get<kube::DaemonSet>("", "web");
        QVERIFY2(ds.ok(), ds.ok() ? "" : ds.error().message.c_str());
        const auto req = server.requests().at(0);
        QCOMPARE(qs(req.header("authorization")), QStringLiteral("Bearer tls-token"));
        QCOMPARE(qs(req.header("impersonate-user")), QStringLiteral("jane"));
        QVERIFY(req.header("user-agent").rfind("daemonscope/", 0) == 0);
    }

    void serverCertificateVerification_data()
    {
        QTest::addColumn<QString>("caFile");
        QTest::addColumn<bool>("insecure");
        QTest::addColumn<QString>("fragment"); // empty: success
        QTest::newRow("the issuing CA connects") << "ca.pem" << false << "";
        QTest::newRow("another CA is not trusted")
            << "other-ca.pem" << false << "is not trusted by the kubeconfig's certificate-authority";
        QTest::newRow("without a CA the system store does not know the server")
            << "" << false << "is not trusted by the system's certificate authorities";
        QTest::newRow("insecure-skip-tls-verify connects anyway") << "" << true << "";
    }
    void serverCertificateVerification()
    {
        QFETCH(QString, caFile);
        QFETCH(bool, insecure);
        QFETCH(QString, fragment);
        const FakeTls t = tls("server");
        FakeApiServer server([](const FakeRequest &) { return FakeResponse::json(kDs); }, &t);
        RestConfig rc = config(server, caFile.isEmpty() ? std::string() : readAll(m_dir.filePath(caFile)));
        rc.insecureSkipTlsVerify = insecure;
        HttpTransport transport(rc);
        auto r = transport.request("GET", "/apis/apps/v1/namespaces/default/daemonsets/web", {}, {}, {},
                                   "application/json");
        if (fragment.isEmpty()) {
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
            QCOMPARE(r->status, 200);
        } else {
            QVERIFY(!r.ok());
            QCOMPARE(qs(r.error().reason), QStringLiteral("TLSError"));
            QVERIFY2(r.error().message.find(fragment.toStdString()) != std::string::npos,
                     r.error().message.c_str());
            QVERIFY2(r.error().message.find(server.url()) != std::string::npos, r.error().message.c_str());
        }
    }

    void tlsServerNameChoosesTheCertificateName_data()
    {
        QTest::addColumn<QString>("tlsServerName");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("a certificate for another name is refused")
            << ""
            << "does not name the host 127.0.0.1 (set tls-server-name";
        QTest::newRow("tls-server-name makes it match") << "api.internal"
                                                        << "";
    }
    void tlsServerNameChoosesTheCertificateName()
    {
        QFETCH(QString, tlsServerName);
        QFETCH(QString, fragment);
        const FakeTls t = tls("named");
        FakeApiServer server([](const FakeRequest &) { return FakeResponse::json(kDs); }, &t);
        RestConfig rc = config(server, readAll(f("ca.pem")));
        rc.tlsServerName = tlsServerName.toStdString();
        HttpTransport transport(rc);
        auto r = transport.request("GET", "/version", {}, {}, {}, "application/json");
        if (fragment.isEmpty()) {
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
            // The TCP connection and Host header still go to the configured server.
            QCOMPARE(qs(server.requests().at(0).header("host")),
                     QStringLiteral("127.0.0.1:%1").arg(server.port()));
        } else {
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.find(fragment.toStdString()) != std::string::npos,
                     r.error().message.c_str());
        }
    }

    void credentialsGoOnlyToHttpsServers_data()
    {
        QTest::addColumn<bool>("https");
        QTest::addColumn<QString>("authorization");
        QTest::newRow("basic auth is sent over https") << true << qs("Basic " + encodeBase64("admin:pw"));
        QTest::newRow("nothing is sent over plain http") << false << "";
    }
    void credentialsGoOnlyToHttpsServers()
    {
        QFETCH(bool, https);
        QFETCH(QString, authorization);
        const FakeTls t = tls("server");
        FakeApiServer server([](const FakeRequest &) { return FakeResponse::json(kDs); },
                             https ? &t : nullptr);
        RestConfig rc = config(server, https ? readAll(f("ca.pem")) : std::string());
        rc.username = "admin";
        rc.password = "pw";
        HttpTransport transport(rc);
        QVERIFY(transport.request("GET", "/x", {}, {}, {}, "application/json").ok());
        QCOMPARE(qs(server.requests().at(0).header("authorization")), authorization);
    }

    void execPluginRunsAgainAfterA401()
    {
        // The plugin prints tok-<run number>; the server refuses tok-1.
        const QString plugin = f("plugin.sh");
        QFile p(plugin);
        QVERIFY(p.open(QIODevice::WriteOnly | QIODevice::Truncate));
        p.write(QStringLiteral(
                    "#!/bin/sh\necho run >> '%1.count'\nn=$(wc -l < '%1.count' | tr -d ' ')\n"
                    "echo '{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\","
                    "\"status\":{\"token\":\"tok-'$n'\"}}'\n")
                    .arg(plugin)
                    .toUtf8());
        p.close();
        p.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        const FakeTls t = tls("server");
        FakeApiServer server(
            [](const FakeRequest &r) {
                if (r.header("authorization") == "Bearer tok-1")
                    return FakeResponse::json(
                        R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})",
                        401);
                return FakeResponse::json(kDs);
            },
            &t);
        RestConfig rc = config(server, readAll(f("ca.pem")));
        ExecConfig ec;
        ec.apiVersion = "client.authentication.k8s.io/v1";
        ec.command = plugin.toStdString();
        ec.interactiveMode = InteractiveMode::Never;
        ec.userName = "exec-user";
        rc.exec = ec;
        HttpTransportOptions opt;
        opt.terminalAvailable = false;
        auto transport = std::make_shared<HttpTransport>(rc, opt);
        KubeClient client(transport);

        auto first = client.get<kube::DaemonSet>("default", "web");
        QVERIFY(!first.ok());
        QCOMPARE(first.error().code, 401);
        QCOMPARE(qs(first.error().reason), QStringLiteral("Unauthorized"));
        QCOMPARE(transport->execProvider()->runCount(), 1); // the failed request is not retried
        QVERIFY(client.get<kube::DaemonSet>("default", "web").ok());
        QVERIFY(client.get<kube::DaemonSet>("default", "web").ok());
        QCOMPARE(transport->execProvider()->runCount(), 2); // re-run once after the 401, then cached
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), std::size_t(3));
        QCOMPARE(qs(reqs[0].header("authorization")), QStringLiteral("Bearer tok-1"));
        QCOMPARE(qs(reqs[1].header("authorization")), QStringLiteral("Bearer tok-2"));
        QCOMPARE(qs(reqs[2].header("authorization")), QStringLiteral("Bearer tok-2"));
    }

    void cancelAbortsAHangingWatch()
    {
        const FakeTls t = tls("server");
        FakeApiServer server(
            [](const FakeRequest &) { return FakeResponse::watch({}, FakeResponse::Stream::Hold); }, &t);
        HttpTransport transport(config(server, readAll(f("ca.pem"))));
        std::atomic<bool> cancel{false};
        std::atomic<bool> done{false};
        kube::Result<void> result = kube::ApiStatus{};
        std::thread th([&] {
            result = transport.watch(
                "/api/v1/pods", {{"watch", "true"}}, [](std::string_view) { return true; }, cancel);
            done = true;
        });
        QTRY_COMPARE(server.requests().size(), std::size_t(1));
        QVERIFY(!done);
        cancel = true;
        QTRY_VERIFY(done.load());
        th.join();
        QVERIFY(result.ok()); // a cancelled watch is not an error
    }
};

QTEST_GUILESS_MAIN(TestHttpsTransport)
#include "tst_httpstransport.moc"
