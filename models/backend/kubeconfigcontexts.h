#pragma once
// KubeconfigContexts — what a kubeconfig offers to connect to, for the connect form: its
// contexts with their default namespace and server, the current context, and why it cannot be
// used (it does not parse, no file was found, or it has no context). Read with the same loader
// and merge rules (KUBECONFIG, ~/.kube/config) as LiveBackend.

#include <QMap>
#include <QString>
#include <QStringList>

#include <vector>

namespace models {

struct KubeconfigContexts
{
    struct Context
    {
        QString name;
        QString namespace_; // empty: "default"
        QString server;     // empty when the context names no known cluster
    };
    enum class Problem {
        None,
        Unreadable, // loadError says why (the file and line)
        NotFound,   // no file was read: searched lists where the console looked (empty: no HOME)
        NoContexts, // file names the first file read
    };

    std::vector<Context> contexts; // by name
    QString current;               // the kubeconfig's current-context
    Problem problem = Problem::None;
    QString loadError;
    QStringList searched;
    QString file;

    // Reads the kubeconfig at `explicitPath`, or the default files when it is empty.
    static KubeconfigContexts read(const QString &explicitPath);
};

} // namespace models
