// Exec credential plugins: the protocol (KUBERNETES_EXEC_INFO in, ExecCredential out), caching
// until expiry or invalidate(), and error messages that name the command, exit code and stderr
// but never the credential.

#include "models/client/execcredentialprovider.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace client;

namespace {

const char *const kToken = "plugin-s3cret-token";

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string credentialJson(const std::string &apiVersion, const std::string &status)
{
    return R"({"kind":"ExecCredential","apiVersion":")" + apiVersion + R"(","status":)" + status + "}";
}

// {"token":"...","expirationTimestamp":"..."} (kept outside the test class: moc's brace
// matching does not understand raw strings with unbalanced braces).
std::string tokenStatus(const std::string &token, const std::string &expiry = {})
{
    kube::Json j = {{"token", token}};
    if (!expiry.empty())
        j["expirationTimestamp"] = expiry;
    return j.dump();
}

} // namespace

class TestExecCredential : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A plugin script that counts its runs in <name>.count and prints `output`.
    std::string script(const QString &name, const std::string &body)
    {
        const QString file = m_dir.filePath(name);
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        const std::string text = "#!/bin/sh\necho run >> '" + file.toStdString() + ".count'\n" + body;
        f.write(text.data(), qint64(text.size()));
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return file.toStdString();
    }
    std::string printing(const QString &name, const std::string &output)
    {
        return script(name, "cat <<'EOF'\n" + output + "\nEOF\n");
    }

    ExecConfig config(const std::string &command,
                      const std::string &apiVersion = "client.authentication.k8s.io/v1")
    {
        ExecConfig c;
        c.apiVersion = apiVersion;
        c.command = command;
        c.interactiveMode = InteractiveMode::Never;
        c.userName = "dev-user";
        c.server = "https://127.0.0.1:6443";
        return c;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void credentialIsCachedUntilItExpires()
    {
        const std::string out =
            credentialJson("client.authentication.k8s.io/v1", tokenStatus(kToken, "2030-01-01T00:00:00Z"));
        std::atomic<kube::Timestamp> now{*kube::parseRfc3339("2029-12-31T23:00:00Z")};
        ExecCredentialProvider p(
            config(printing(QStringLiteral("expiring.sh"), out)), [&] { return now.load(); },
            std::chrono::seconds(10), false);
        auto a = p.credential();
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        QCOMPARE(qs(a->token), qs(kToken));
        QCOMPARE(a->expiry.value_or(0), *kube::parseRfc3339("2030-01-01T00:00:00Z"));
        QVERIFY(p.credential().ok());
        QCOMPARE(p.runCount(), 1);
        now = *kube::parseRfc3339("2030-01-01T00:00:01Z");
        QVERIFY(p.credential().ok());
        QCOMPARE(p.runCount(), 2); // expired: the plugin ran again
    }

    void credentialWithoutExpiryLivesUntilInvalidated()
    {
        const std::string out = credentialJson("client.authentication.k8s.io/v1", tokenStatus(kToken));
        ExecCredentialProvider p(config(printing(QStringLiteral("forever.sh"), out)), {},
                                 std::chrono::seconds(10), false);
        QVERIFY(p.credential().ok());
        QVERIFY(p.credential().ok());
        QCOMPARE(p.runCount(), 1);
        p.invalidate(); // what the transport does after a 401
        QVERIFY(p.credential().ok());
        QCOMPARE(p.runCount(), 2);
    }

    void pluginReceivesExecInfoArgsAndEnvironment()
    {
        const QString dump = m_dir.filePath(QStringLiteral("env.dump"));
        const std::string cmd =
            script(QStringLiteral("dump.sh"),
                   "printf '%s' \"$KUBERNETES_EXEC_INFO\" > '" + dump.toStdString() +
                       ".info'\n"
                       "printf '%s|%s|%s' \"$FOO\" \"$1\" \"$2\" > '" +
                       dump.toStdString() +
                       ".env'\n"
                       "if read line; then echo stdin-open > '" +
                       dump.toStdString() +
                       ".stdin'; fi\n"
                       "echo '" +
                       credentialJson("client.authentication.k8s.io/v1beta1",
                                      R"({"clientCertificateData":"CERT","clientKeyData":"KEY"})") +
                       "'\n");
        ExecConfig c = config(cmd, "client.authentication.k8s.io/v1beta1");
        c.args = {"get-token", "--audience=x"};
        c.env = {{"FOO", "bar"}};
        c.provideClusterInfo = true;
        c.caPem = "PEM";
        c.tlsServerName = "api.internal";
        c.clusterConfig = {{"audience", "probe"}};
        ExecCredentialProvider p(c, {}, std::chrono::seconds(10), false);
        auto cred = p.credential();
        QVERIFY2(cred.ok(), cred.ok() ? "" : cred.error().message.c_str());
        QCOMPARE(qs(cred->clientCertPem), QStringLiteral("CERT"));
        QCOMPARE(qs(cred->clientKeyPem), QStringLiteral("KEY"));
        QFile info(dump + QStringLiteral(".info"));
        QVERIFY(info.open(QIODevice::ReadOnly));
        const auto j = kube::Json::parse(info.readAll().toStdString());
        QCOMPARE(qs(j["kind"].get<std::string>()), QStringLiteral("ExecCredential"));
        QCOMPARE(qs(j["apiVersion"].get<std::string>()),
                 QStringLiteral("client.authentication.k8s.io/v1beta1"));
        QCOMPARE(j["spec"]["interactive"].get<bool>(), false);
        QCOMPARE(qs(j["spec"]["cluster"]["server"].get<std::string>()),
                 QStringLiteral("https://127.0.0.1:6443"));
        QCOMPARE(qs(j["spec"]["cluster"]["certificate-authority-data"].get<std::string>()),
                 QStringLiteral("UEVN"));
        QCOMPARE(qs(j["spec"]["cluster"]["tls-server-name"].get<std::string>()),
                 QStringLiteral("api.internal"));
        QCOMPARE(qs(j["spec"]["cluster"]["config"]["audience"].get<std::string>()), QStringLiteral("probe"));
        QFile env(dump + QStringLiteral(".env"));
        QVERIFY(env.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(env.readAll()), QStringLiteral("bar|get-token|--audience=x"));
        QVERIFY(!QFile::exists(dump + QStringLiteral(".stdin"))); // stdin is /dev/null
    }

    void execInfoOmitsClusterWithoutProvideClusterInfo()
    {
        ExecConfig c = config("x");
        const auto j = kube::Json::parse(ExecCredentialProvider::execInfo(c, false));
        QVERIFY(!j["spec"].contains("cluster"));
    }

    void pluginFailuresNameCommandExitCodeAndStderr()
    {
        const std::string cmd =
            script(QStringLiteral("fails.sh"), std::string("echo '  error: login required  ' >&2\n"
                                                           "echo '{\"token\":\"") +
                                                   kToken + "\"}'\nexit 3\n");
        ExecCredentialProvider p(config(cmd), {}, std::chrono::seconds(10), false);
        auto r = p.credential();
        QVERIFY(!r.ok());
        const std::string &m = r.error().message;
        QCOMPARE(qs(r.error().reason), QStringLiteral("ExecPluginFailed"));
        QVERIFY2(m.find(cmd) != std::string::npos, m.c_str());
        QVERIFY2(m.find("exit code 3: error: login required") != std::string::npos, m.c_str());
        QVERIFY2(m.find("dev-user") != std::string::npos, m.c_str());
        QVERIFY2(m.find(kToken) == std::string::npos, m.c_str());
    }

    void pluginStderrIsScrubbedOfTheKubeconfigEnvironment()
    {
        const std::string cmd =
            script(QStringLiteral("dumps-env.sh"), "echo \"API_KEY is $API_KEY\" >&2\nexit 1\n");
        ExecConfig c = config(cmd);
        c.env = {{"API_KEY", "env-secret-from-the-kubeconfig"}};
        ExecCredentialProvider p(c, {}, std::chrono::seconds(10), false);
        auto r = p.credential();
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("API_KEY is [redacted]") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY2(r.error().message.find("env-secret-from-the-kubeconfig") == std::string::npos,
                 r.error().message.c_str());
    }

    void missingPluginShowsTheInstallHint()
    {
        ExecConfig c = config("daemonscope-no-such-plugin");
        c.installHint = "Install it with: apt install no-such-plugin";
        ExecCredentialProvider p(c, {}, std::chrono::seconds(10), false);
        auto r = p.credential();
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("\"daemonscope-no-such-plugin\"") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY2(r.error().message.find("Install it with: apt install no-such-plugin") != std::string::npos,
                 r.error().message.c_str());
    }

    void alwaysInteractivePluginNeedsATerminal()
    {
        ExecConfig c = config(printing(QStringLiteral("never-run.sh"), "{}"));
        c.interactiveMode = InteractiveMode::Always;
        ExecCredentialProvider p(c, {}, std::chrono::seconds(10), false);
        auto r = p.credential();
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("requires an interactive terminal") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(p.runCount(), 0);
    }

    void hangingPluginTimesOut()
    {
        const std::string cmd = script(QStringLiteral("hangs.sh"), "echo waiting >&2\nexec sleep 30\n");
        ExecCredentialProvider p(config(cmd), {}, std::chrono::milliseconds(300), false);
        auto r = p.credential();
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("did not finish within 300ms: waiting") != std::string::npos,
                 r.error().message.c_str());
    }

    void badPluginOutputIsRejected_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("fragment");
        const std::string v1 = "client.authentication.k8s.io/v1";
        const std::string tok = tokenStatus(kToken);
        QTest::newRow("output that is not JSON")
            << qs(std::string("token=") + kToken) << "did not print an ExecCredential JSON object";
        QTest::newRow("another kind")
            << qs(kube::Json{{"kind", "Secret"}, {"apiVersion", "v1"}, {"status", kube::Json::parse(tok)}}
                      .dump())
            << "printed kind \"Secret\"";
        QTest::newRow("another apiVersion")
            << qs(credentialJson("client.authentication.k8s.io/v1beta1", tok))
            << "answered with apiVersion \"client.authentication.k8s.io/v1beta1\"";
        QTest::newRow("no status")
            << qs(kube::Json{{"kind", "ExecCredential"}, {"apiVersion", v1}, {"token", kToken}}.dump())
            << "without status";
        QTest::newRow("a certificate without a key")
            << qs(credentialJson(v1, R"({"clientCertificateData":"C"})"))
            << "only one of clientCertificateData and clientKeyData";
        QTest::newRow("neither token nor certificate")
            << qs(credentialJson(v1, "{}")) << "neither a token nor";
        QTest::newRow("an unreadable expiry")
            << qs(credentialJson(v1, tokenStatus(kToken, "tomorrow"))) << "invalid expirationTimestamp";
        // 100,000 levels: a plugin (or whatever replaced it) cannot crash the console with it.
        QTest::newRow("an ExecCredential nested too deep")
            << qs(R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"token":")" +
                  std::string(kToken) + R"(","x":)" + std::string(100000, '[') + std::string(100000, ']') +
                  "}}")
            << "did not print an ExecCredential JSON object";
    }
    void badPluginOutputIsRejected()
    {
        QFETCH(QString, output);
        QFETCH(QString, fragment);
        auto r = ExecCredentialProvider::parse(config("my-plugin"), output.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find(fragment.toStdString()) != std::string::npos,
                 r.error().message.c_str());
        QVERIFY2(r.error().message.find("my-plugin") != std::string::npos, r.error().message.c_str());
        QVERIFY2(r.error().message.find(kToken) == std::string::npos, r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExecCredential)
#include "tst_execcredential.moc"
