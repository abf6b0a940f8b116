#pragma once
// The command line's help texts: the whole program's usage (GUI options and sub-commands), and a
// sub-command's help with its own name in the usage line.

#include <QCommandLineParser>
#include <QString>

namespace app {

// `daemonscope --help`: the console's options, then every sub-command.
const char *programUsage();

// `daemonscope COMMAND --help`: the parser's help text with "Usage: daemonscope COMMAND" in place
// of the executable's path (QCommandLineParser names the path the process was started with).
QString commandHelp(const QCommandLineParser &parser, const QString &command);

// The parser's error as one line: "unknown option --bogus" for an unknown option (kubectl's
// wording, with the dashes the user typed), QCommandLineParser's text otherwise.
QString parseError(const QCommandLineParser &parser);

// --request-timeout, for commands that declare the other cluster options themselves.
QCommandLineOption requestTimeoutOption();

} // namespace app
