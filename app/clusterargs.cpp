#include "app/clusterargs.h"

#include "app/usage.h"

#include "models/kube/timeutil.h"

#include <cstdio>

namespace app {

void ClusterArgs::addOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("scenario"),
                      QStringLiteral("Run this scenario in the embedded engine and use its cluster."),
                      QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("kubeconfig"),
         QStringLiteral("Use this kubeconfig file alone (default: KUBECONFIG, then ~/.kube/config)."),
         QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("context"), QStringLiteral("The kubeconfig context to use."),
                      QStringLiteral("NAME")});
    parser.addOption({{QStringLiteral("n"), QStringLiteral("namespace")},
                      QStringLiteral("The DaemonSet's namespace (default: the context's, or default)."),
                      QStringLiteral("NS")});
    parser.addOption(requestTimeoutOption());
}

kube::Result<std::optional<std::chrono::milliseconds>> ClusterArgs::parseRequestTimeout(const QString &text)
{
    if (text.isEmpty())
        return std::optional<std::chrono::milliseconds>();
    // A bare number is seconds, as in kubectl.
    std::string t = text.trimmed().toStdString();
    if (!t.empty() && t.find_first_not_of("0123456789") == std::string::npos)
        t += "s";
    const auto d = kube::parseDuration(t);
    if (!d || *d < 0)
        return kube::ApiStatus::badRequest(
            "--request-timeout: expected a duration such as 10s or 1m, got \"" + text.toStdString() + "\"");
    return std::optional<std::chrono::milliseconds>(std::chrono::milliseconds(*d));
}

ClusterArgs ClusterArgs::from(const QCommandLineParser &parser)
{
    ClusterArgs a;
    a.scenario = parser.value(QStringLiteral("scenario"));
    a.kubeconfig = parser.value(QStringLiteral("kubeconfig"));
    a.context = parser.value(QStringLiteral("context"));
    a.namespace_ = parser.value(QStringLiteral("namespace"));
    a.requestTimeout = parser.value(QStringLiteral("request-timeout"));
    return a;
}

int ClusterArgs::parse(QCommandLineParser &parser, const QStringList &arguments)
{
    QStringList args = arguments;
    const QString command = args.size() >= 2 ? args[1] : QString();
    if (args.size() >= 2)
        args.removeAt(1); // the sub-command is not a positional argument
    if (!parser.parse(args)) {
        std::fprintf(stderr, "error: %s\n", parseError(parser).toUtf8().constData());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(commandHelp(parser, command).toUtf8().constData(), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("scenario")) &&
        (parser.isSet(QStringLiteral("kubeconfig")) || parser.isSet(QStringLiteral("context")))) {
        std::fprintf(stderr, "error: --scenario cannot be combined with --kubeconfig or --context\n");
        return 2;
    }
    if (auto t = parseRequestTimeout(parser.value(QStringLiteral("request-timeout"))); !t) {
        std::fprintf(stderr, "error: %s\n", t.error().message.c_str());
        return 2;
    }
    return -1;
}

QString ClusterArgs::daemonSetName(const QStringList &positional, QString &error)
{
    static const QStringList types = {QStringLiteral("daemonset"), QStringLiteral("daemonsets"),
                                      QStringLiteral("ds"), QStringLiteral("daemonset.apps"),
                                      QStringLiteral("daemonsets.apps")};
    QString type, name;
    if (positional.size() == 1 && positional[0].contains(QLatin1Char('/'))) {
        type = positional[0].section(QLatin1Char('/'), 0, 0);
        name = positional[0].section(QLatin1Char('/'), 1);
    } else if (positional.size() == 2) {
        type = positional[0];
        name = positional[1];
    } else if (positional.size() == 1) {
        error = QStringLiteral("expected daemonset/NAME, got \"%1\" (did you mean daemonset/%1?)")
                    .arg(positional[0]);
        return {};
    } else {
        error = QStringLiteral("expected daemonset/NAME");
        return {};
    }
    if (!types.contains(type.toLower())) {
        error = QStringLiteral("only daemonsets are supported, got \"%1\"").arg(type);
        return {};
    }
    if (name.isEmpty() || name.contains(QLatin1Char('/'))) {
        error = QStringLiteral("expected daemonset/NAME");
        return {};
    }
    return name;
}

kube::Result<models::LiveConnection> connectCluster(const ClusterArgs &args)
{
    auto timeout = ClusterArgs::parseRequestTimeout(args.requestTimeout);
    if (!timeout)
        return timeout.error();
    return models::LiveConnection::open(args.kubeconfig.toStdString(), args.context.toStdString(),
                                        args.namespace_.toStdString(), *timeout);
}

} // namespace app
