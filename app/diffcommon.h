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
// What a format shows besides the YAML texts (renderers.h), so nothing else is computed.
unsigned partsShownBy(const QString &format);
std::string renderDiff(const diff::TemplateDiff &result, const QString &format);
// Standard output, or the file written atomically (an interrupted export leaves no half file).
bool writeDiffOutput(const std::string &text, const QString &outPath);

} // namespace app
