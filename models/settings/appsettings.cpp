#include "models/settings/appsettings.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace models {

namespace {

// Keys shared with code that reads QSettings directly (the main window's layout, the file
// dialogs' folders) keep the names that code already uses.
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kMainSplitter = QStringLiteral("window/splitter");
const QString kSplitterPrefix = QStringLiteral("window/splitter-");
const QString kBackend = QStringLiteral("backend/kind");
const QString kContext = QStringLiteral("backend/context");
const QString kKubeconfig = QStringLiteral("backend/kubeconfig");
const QString kScenario = QStringLiteral("scenario/lastPath");
const QString kScenarioDir = QStringLiteral("dirs/scenario");
const QString kExportDir = QStringLiteral("dirs/export");
const QString kTheme = QStringLiteral("appearance/theme");
const QString kHideNoise = QStringLiteral("diff/hideServerNoise");
const QString kContextLines = QStringLiteral("diff/contextLines");
const QString kSpeed = QStringLiteral("simulation/speed");
const QString kLanguage = QStringLiteral("language/override");

} // namespace

AppSettings::AppSettings()
    : m_owned(std::make_unique<QSettings>(QSettings::NativeFormat, QSettings::UserScope,
                                          QStringLiteral("Daemonscope"), QStringLiteral("Daemonscope"))),
      m_settings(m_owned.get())
{}

AppSettings::AppSettings(const QString &iniPath)
    : m_owned(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)), m_settings(m_owned.get())
{}

AppSettings::AppSettings(QSettings *settings) : m_settings(settings) {}

AppSettings::~AppSettings() = default;

bool AppSettings::sync()
{
    m_settings->sync();
    return m_settings->status() == QSettings::NoError;
}

QByteArray AppSettings::windowGeometry() const
{
    return m_settings->value(kGeometry).toByteArray();
}

void AppSettings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings->setValue(kGeometry, geometry);
}

QByteArray AppSettings::windowState() const
{
    return m_settings->value(kState).toByteArray();
}

void AppSettings::setWindowState(const QByteArray &state)
{
    m_settings->setValue(kState, state);
}

QByteArray AppSettings::splitterState(const QString &name) const
{
    return m_settings->value(name.isEmpty() ? kMainSplitter : kSplitterPrefix + name).toByteArray();
}

void AppSettings::setSplitterState(const QString &name, const QByteArray &state)
{
    m_settings->setValue(name.isEmpty() ? kMainSplitter : kSplitterPrefix + name, state);
}

BackendKind AppSettings::lastBackend() const
{
    return m_settings->value(kBackend).toString() == QStringLiteral("live") ? BackendKind::Live
                                                                            : BackendKind::Embedded;
}

void AppSettings::setLastBackend(BackendKind kind)
{
    m_settings->setValue(kBackend,
                         kind == BackendKind::Live ? QStringLiteral("live") : QStringLiteral("embedded"));
}

QString AppSettings::lastContext() const
{
    return m_settings->value(kContext).toString();
}

void AppSettings::setLastContext(const QString &context)
{
    m_settings->setValue(kContext, context);
}

QString AppSettings::lastKubeconfig() const
{
    return m_settings->value(kKubeconfig).toString();
}

void AppSettings::setLastKubeconfig(const QString &path)
{
    m_settings->setValue(kKubeconfig, path);
}

QString AppSettings::lastScenarioPath() const
{
    return m_settings->value(kScenario).toString();
}

void AppSettings::setLastScenarioPath(const QString &path)
{
    m_settings->setValue(kScenario, path);
}

QString AppSettings::scenarioDirectory() const
{
    return m_settings->value(kScenarioDir).toString();
}

void AppSettings::setScenarioDirectory(const QString &dir)
{
    m_settings->setValue(kScenarioDir, dir);
}

QString AppSettings::exportDirectory() const
{
    return m_settings->value(kExportDir).toString();
}

void AppSettings::setExportDirectory(const QString &dir)
{
    m_settings->setValue(kExportDir, dir);
}

QString AppSettings::themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

AppSettings::Theme AppSettings::themeFromName(const QString &name, Theme fallback)
{
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark}) {
        if (name.compare(themeName(t), Qt::CaseInsensitive) == 0)
            return t;
    }
    return fallback;
}

AppSettings::Theme AppSettings::theme() const
{
    return themeFromName(m_settings->value(kTheme).toString());
}

void AppSettings::setTheme(Theme theme)
{
    m_settings->setValue(kTheme, themeName(theme));
}

bool AppSettings::hideServerNoise() const
{
    return m_settings->value(kHideNoise, false).toBool();
}

void AppSettings::setHideServerNoise(bool hide)
{
    m_settings->setValue(kHideNoise, hide);
}

int AppSettings::diffContextLines() const
{
    bool ok = false;
    const int lines = m_settings->value(kContextLines).toInt(&ok);
    return ok && lines >= 0 && lines <= kMaxContextLines ? lines : kDefaultContextLines;
}

void AppSettings::setDiffContextLines(int lines)
{
    m_settings->setValue(kContextLines, std::clamp(lines, 0, kMaxContextLines));
}

double AppSettings::simulationSpeed() const
{
    bool ok = false;
    const double speed = m_settings->value(kSpeed).toDouble(&ok);
    return ok && std::isfinite(speed) && speed > 0 && speed <= kMaxSpeed ? speed : kDefaultSpeed;
}

void AppSettings::setSimulationSpeed(double speed)
{
    if (std::isfinite(speed) && speed > 0 && speed <= kMaxSpeed)
        m_settings->setValue(kSpeed, speed);
}

QString AppSettings::languageOverride() const
{
    return m_settings->value(kLanguage).toString();
}

void AppSettings::setLanguageOverride(const QString &language)
{
    m_settings->setValue(kLanguage, language);
}

// ---- production-context guard

namespace {
const QString kProductionPattern = QStringLiteral("safety/productionPattern");

QRegularExpression productionExpression(const QString &pattern)
{
    return QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption);
}
} // namespace

QString AppSettings::productionPattern() const
{
    const QString stored = m_settings->value(kProductionPattern).toString();
    if (stored.isEmpty() || !productionExpression(stored).isValid())
        return QLatin1String(kDefaultProductionPattern);
    return stored;
}

void AppSettings::setProductionPattern(const QString &pattern)
{
    if (pattern.isEmpty() || !productionExpression(pattern).isValid())
        return;
    m_settings->setValue(kProductionPattern, pattern);
}

bool AppSettings::isProductionContext(const QString &pattern, const QString &context, const QString &cluster)
{
    const QRegularExpression re = productionExpression(pattern);
    if (pattern.isEmpty() || !re.isValid())
        return false;
    return (!context.isEmpty() && re.match(context).hasMatch()) ||
           (!cluster.isEmpty() && re.match(cluster).hasMatch());
}

} // namespace models
