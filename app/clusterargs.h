#pragma once
// ClusterArgs — the options the DaemonSet commands (history, rollback, diff, export) share: the
// DaemonSet reference, and where the cluster is — a scenario run in the embedded engine
// (--scenario FILE) or a real cluster through a kubeconfig (--kubeconfig FILE, --context NAME,
// or neither: KUBECONFIG / ~/.kube/config as kubectl reads them). -n/--namespace defaults to
// "default" for a scenario and to the context's namespace for a cluster, as in kubectl.

#include "models/backend/liveconnection.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace app {

struct ClusterArgs
{
    QString scenario;
    QString kubeconfig;
    QString context;
    QString namespace_;     // as given; empty: the default for the source
    QString requestTimeout; // --request-timeout as given; empty: the client's default (60s)
    bool live() const { return scenario.isEmpty(); }
    // The namespace for a scenario (a live cluster resolves it through the kubeconfig).
    QString scenarioNamespace() const
    {
        return namespace_.isEmpty() ? QStringLiteral("default") : namespace_;
    }

    // Adds --scenario, --kubeconfig, --context, -n/--namespace and --request-timeout.
    static void addOptions(QCommandLineParser &parser);
    // kubectl's reading of --request-timeout: a bare number is seconds, else a duration such as
    // 5s or 1m; 0 means no limit. Nothing when the text is empty; an error message when bad.
    static kube::Result<std::optional<std::chrono::milliseconds>> parseRequestTimeout(const QString &text);
    static ClusterArgs from(const QCommandLineParser &parser);

    // Parses `arguments` (argv[0], the sub-command, then its arguments). Returns -1 to go on,
    // otherwise the exit code (0 after --help, 2 after a parse error, message printed).
    static int parse(QCommandLineParser &parser, const QStringList &arguments);

    // "daemonset/NAME", "ds/NAME", "daemonsets.apps/NAME", or the type and name as two words.
    static QString daemonSetName(const QStringList &positional, QString &error);
};

// The real cluster the arguments name (kubeconfig, context, namespace); the error is print-ready.
kube::Result<models::LiveConnection> connectCluster(const ClusterArgs &args);

} // namespace app
