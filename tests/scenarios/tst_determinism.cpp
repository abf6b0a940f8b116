// Determinism of the scenario runner: the same file and seed give a byte-identical trace
// (with --trace-state, so every object's state is compared), a different seed gives a
// different one, and every trace line has the documented shape — keys in the order step,
// action, time, sync, rollback, events, state; object lists sorted by namespace, then name.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString binary()
{
    return qEnvironmentVariable("DAEMONSCOPE_BINARY");
}

QString source(const char *relative)
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/") + QLatin1String(relative);
}

// Runs `sim run` with a full trace; returns the trace bytes (empty on failure).
QByteArray traceOf(const QString &scenario, const QString &tracePath)
{
    QProcess p;
    p.start(binary(), {QStringLiteral("sim"), QStringLiteral("run"), scenario, QStringLiteral("--trace"),
                       tracePath, QStringLiteral("--trace-state")});
    if (!p.waitForFinished(300000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning() << p.readAllStandardError();
        return {};
    }
    QFile f(tracePath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// A copy of the scenario with another seed, written into dir.
QString withSeed(const QString &scenario, int seed, const QTemporaryDir &dir)
{
    QFile in(scenario);
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(in.readAll());
    static const QRegularExpression seedLine(QStringLiteral("^seed: *\\d+ *$"),
                                             QRegularExpression::MultilineOption);
    if (text.contains(seedLine))
        text.replace(seedLine, QStringLiteral("seed: %1").arg(seed));
    else
        text.prepend(QStringLiteral("seed: %1\n").arg(seed));
    const QString out = dir.filePath(QStringLiteral("reseeded.yaml"));
    QFile f(out);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text.toUtf8());
    return out;
}

bool sortedByNamespaceThenName(const QJsonArray &list)
{
    for (qsizetype i = 1; i < list.size(); ++i) {
        const auto a = list[i - 1].toObject(), b = list[i].toObject();
        const auto ka = std::make_pair(a.value(QStringLiteral("namespace")).toString(),
                                       a.value(QStringLiteral("name")).toString());
        const auto kb = std::make_pair(b.value(QStringLiteral("namespace")).toString(),
                                       b.value(QStringLiteral("name")).toString());
        if (!(ka < kb))
            return false;
    }
    return true;
}

} // namespace

class TestDeterminism : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(QFile::exists(binary())); }

    void sameFileAndSeedGiveIdenticalTraces_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("the demo cluster") << source("resources/scenarios/demo.yaml");
        QTest::newRow("a continuous rollout with jitter")
            << source("tests/scenarios/"
                      "continuous-rolling-updates-end-with-one-current-revision-holding-every-pod.yaml");
        QTest::newRow("a continuous hash collision")
            << source("tests/scenarios/continuous-collision-count-only-grows-on-a-genuine-collision.yaml");
        QTest::newRow("the stepped worked example")
            << source("tests/scenarios/worked-example-three-updates-then-rollback-to-revision-1.yaml");
        QTest::newRow("a node-agent upgrade with a controller restart")
            << source("tests/scenarios/upgrade/29-restarted-controller-resumes-exactly.yaml");
    }

    void sameFileAndSeedGiveIdenticalTraces()
    {
        QFETCH(QString, scenario);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArray first = traceOf(scenario, tmp.filePath(QStringLiteral("a.jsonl")));
        const QByteArray second = traceOf(scenario, tmp.filePath(QStringLiteral("b.jsonl")));
        QVERIFY(!first.isEmpty());
        QVERIFY(first == second);
        // Written atomically: the temporary file is gone.
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("a.jsonl.tmp"))));
    }

    void anotherSeedChangesTheTrace_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("the demo cluster") << source("resources/scenarios/demo.yaml");
        QTest::newRow("a continuous rollout with jitter")
            << source("tests/scenarios/"
                      "continuous-rolling-updates-end-with-one-current-revision-holding-every-pod.yaml");
    }

    void anotherSeedChangesTheTrace()
    {
        QFETCH(QString, scenario);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArray original = traceOf(scenario, tmp.filePath(QStringLiteral("a.jsonl")));
        const QString reseeded = withSeed(scenario, 987654, tmp);
        QVERIFY(!reseeded.isEmpty());
        const QByteArray other = traceOf(reseeded, tmp.filePath(QStringLiteral("b.jsonl")));
        QVERIFY(!original.isEmpty());
        QVERIFY(!other.isEmpty());
        QVERIFY(original != other);
        // Same number of steps: only timings and generated names moved.
        QCOMPARE(original.count('\n'), other.count('\n'));
    }

    void upgradeTraceCarriesRolloutEventsAndNodePhases()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArray trace =
            traceOf(source("tests/scenarios/upgrade/01-happy-path-zone-serial-one-at-a-time.yaml"),
                    tmp.filePath(QStringLiteral("u.jsonl")));
        const QList<QByteArray> lines = trace.split('\n');
        QVERIFY(lines.size() > 3);
        QSet<QString> rolloutReasons, nodeReasons, phases;
        for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i]).object();
            QVERIFY(!o.isEmpty());
            for (const auto &e : o.value(QStringLiteral("events")).toArray()) {
                const QJsonObject ev = e.toObject();
                const QString object = ev.value(QStringLiteral("object")).toString();
                if (object.startsWith(QStringLiteral("nodeupgraderollout/")))
                    rolloutReasons.insert(ev.value(QStringLiteral("reason")).toString());
                else if (object.startsWith(QStringLiteral("node/")))
                    nodeReasons.insert(ev.value(QStringLiteral("reason")).toString());
            }
            const auto nodes =
                o.value(QStringLiteral("state")).toObject().value(QStringLiteral("nodes")).toArray();
            for (const auto &n : nodes)
                phases.insert(n.toObject().value(QStringLiteral("upgradePhase")).toString());
        }
        // Rollout events are merged into the step's events next to the node events.
        QVERIFY2(rolloutReasons.contains(QStringLiteral("RolloutStarted")),
                 qPrintable(rolloutReasons.values().join(u' ')));
        QVERIFY2(rolloutReasons.contains(QStringLiteral("RolloutCompleted")),
                 qPrintable(rolloutReasons.values().join(u' ')));
        QVERIFY(nodeReasons.contains(QStringLiteral("NodeUpgraded")));
        // The state follows each node from Pending through the drain to Upgraded.
        for (const char *phase : {"Pending", "Upgraded"})
            QVERIFY2(phases.contains(QLatin1String(phase)), qPrintable(phases.values().join(u' ')));
    }

    void traceLinesHaveTheDocumentedShape()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArray trace =
            traceOf(source("tests/scenarios/worked-example-three-updates-then-rollback-to-revision-1.yaml"),
                    tmp.filePath(QStringLiteral("t.jsonl")));
        const QList<QByteArray> lines = trace.split('\n');
        QVERIFY(lines.size() > 10);
        QVERIFY(lines.last().isEmpty()); // newline-terminated
        int step = 0;
        int syncs = 0, rollbacks = 0;
        for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
            const QByteArray &line = lines[i];
            // Key order as documented (QJsonObject would sort, so look at the raw text).
            QVERIFY2(line.startsWith("{\"step\":" + QByteArray::number(step) + ",\"action\":\""),
                     line.constData());
            const qsizetype time = line.indexOf(",\"time\":");
            const qsizetype rollback = line.indexOf(",\"rollback\":");
            const qsizetype events = line.indexOf(",\"events\":");
            const qsizetype state = line.indexOf(",\"state\":");
            QVERIFY(time > 0 && rollback > time && events > rollback && state > events);
            const qsizetype sync = line.indexOf(",\"sync\":");
            if (sync >= 0)
                QVERIFY(sync > time && sync < rollback);
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            const QString action = o.value(QStringLiteral("action")).toString();
            if (action == QStringLiteral("sync")) {
                ++syncs;
                const QJsonObject s = o.value(QStringLiteral("sync")).toObject();
                QCOMPARE(s.value(QStringLiteral("daemonset")).toString(), QStringLiteral("default/web"));
                QVERIFY(s.value(QStringLiteral("creates")).isArray());
                QVERIFY(s.value(QStringLiteral("deletes")).isArray());
            } else {
                QVERIFY(!o.contains(QStringLiteral("sync"))); // stepped mode: only sync steps sync
            }
            if (action == QStringLiteral("rollback")) {
                ++rollbacks;
                QVERIFY(o.value(QStringLiteral("rollback")).isString());
            } else {
                QVERIFY(o.value(QStringLiteral("rollback")).isNull());
            }
            const QJsonObject st = o.value(QStringLiteral("state")).toObject();
            for (const char *list : {"daemonsets", "pods"})
                QVERIFY2(sortedByNamespaceThenName(st.value(QLatin1String(list)).toArray()), list);
            ++step;
        }
        QVERIFY(syncs > 10);
        QCOMPARE(rollbacks, 4);
    }
};

QTEST_GUILESS_MAIN(TestDeterminism)
#include "tst_determinism.moc"
