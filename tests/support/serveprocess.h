#pragma once
// ServeProcess — `daemonscope serve` as a child process of a test: a scenario, a free loopback
// port (or a given one), its kubeconfig written into the test's temporary folder, and HOME
// pointed there too, so `serve --tls` keeps its state under the test's own data folder. The
// binary comes from DAEMONSCOPE_BINARY, which every CTest test gets. Only this process is ever
// signalled or stopped, by its own handle.

#include <QByteArray>
#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <csignal>

namespace testsupport {

class ServeProcess
{
public:
    // `extra` follows `serve --scenario FILE --listen 127.0.0.1:0 --kubeconfig-out FILE`; a later
    // --listen in it wins.
    ServeProcess(const QTemporaryDir &dir, const QString &scenario, const QStringList &extra)
        : m_kubeconfig(dir.filePath(QStringLiteral("kubeconfig-%1").arg(++s_count)))
    {
        m_process.setProgram(qEnvironmentVariable("DAEMONSCOPE_BINARY"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.filePath(QStringLiteral("home")));
        env.remove(QStringLiteral("XDG_DATA_HOME"));
        m_process.setProcessEnvironment(env);
        m_process.setArguments(QStringList{QStringLiteral("serve"), QStringLiteral("--scenario"), scenario,
                                           QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                           QStringLiteral("--kubeconfig-out"), m_kubeconfig} +
                               extra);
        m_process.start();
    }

    ~ServeProcess()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        resume(); // a stopped process would not act on SIGTERM
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
        m_process.waitForFinished(5000);
    }

    ServeProcess(const ServeProcess &) = delete;
    ServeProcess &operator=(const ServeProcess &) = delete;

    // Waits until the server printed its kubeconfig line.
    bool waitReady()
    {
        while (!m_stdout.contains("kubeconfig: ")) {
            if (m_process.state() == QProcess::NotRunning && !m_process.bytesAvailable())
                return false;
            if (!m_process.waitForReadyRead(60000) && m_process.state() == QProcess::NotRunning)
                m_stdout += m_process.readAllStandardOutput();
            m_stdout += m_process.readAllStandardOutput();
            if (m_process.state() == QProcess::NotRunning && !m_stdout.contains("kubeconfig: "))
                return false;
        }
        return true;
    }

    QString diagnostics()
    {
        return QString::fromUtf8(m_stdout + m_process.readAllStandardOutput() +
                                 m_process.readAllStandardError());
    }

    // The server's URL as its kubeconfig names it ("https://127.0.0.1:40123").
    QString url() const
    {
        QFile f(m_kubeconfig);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QByteArray t = line.trimmed();
            if (t.startsWith("server:"))
                return QString::fromUtf8(t.mid(7).trimmed());
        }
        return {};
    }
    int port() const { return url().section(QLatin1Char(':'), -1).toInt(); }

    // SIGSTOP / SIGCONT: a frozen server keeps its sockets open and answers nothing.
    bool freeze() { return sendSignal(SIGSTOP); }
    bool resume() { return sendSignal(SIGCONT); }
    // SIGKILL: the server dies with its connections cut mid-stream.
    bool killHard()
    {
        if (!sendSignal(SIGKILL))
            return false;
        return m_process.waitForFinished(10000);
    }

    const QString &kubeconfig() const { return m_kubeconfig; }
    QProcess &process() { return m_process; }

private:
    bool sendSignal(int sig)
    {
        const qint64 pid = m_process.processId();
        return pid > 0 && m_process.state() != QProcess::NotRunning &&
               ::kill(static_cast<pid_t>(pid), sig) == 0;
    }

    static inline int s_count = 0;
    QString m_kubeconfig;
    QProcess m_process;
    QByteArray m_stdout;
};

} // namespace testsupport
