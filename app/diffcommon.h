#pragma once
// What both halves of `daemonscope diff` share: the options, the output formats and the
// atomic output file. Manifest files are compared by the executable itself (cmddiff.cpp);
// revisions of a DaemonSet in a scenario or a cluster by the program module
// (cmddiffrevisions.cpp), which parses the same options again.

#include "models/diff/templatediff.h"

#include <QCommandLineParser>
#include <QString>

#include <optional>
#include <string>

namespace app {

constexpr int kDiffEqual = 0;
constexpr int kDiffDifferent = 1;
constexpr int kDiffTrouble = 2;

void printDiffError(const QString &message); // "daemonscope diff: MESSAGE" on stderr
void addDiffOptions(QCommandLineParser &parser);
// Parses `arguments` (argv[0], "diff", then the rest); on failure prints why and returns false.
bool parseDiffArguments(QCommandLineParser &parser, const QStringList &arguments);
// unified, html, markdown (or md) or json, lower-cased; nullopt (and a message) otherwise.
std::optional<QString> diffFormat(const QCommandLineParser &parser);
// Compares the two templates (--ignore-noise as asked), renders them in `format` to standard
// output or --output (written atomically) and returns the exit code: equal, different, or
// trouble when the output cannot be written.
int runDiff(diff::TemplateDiffInput input, const QString &format, const QCommandLineParser &parser);

} // namespace app
