#pragma once
// AppSettings — the user's preferences and the window layout, typed, with their defaults, over
// QSettings (organisation and application "Daemonscope": ~/.config/Daemonscope/Daemonscope.conf
// on Linux). Every getter returns its default when the value is missing or unusable (a theme
// name this version does not know, a negative context count), so a settings file edited by
// hand or written by another version never breaks startup. Setters store what the getters
// return: get(set(x)) == x for every valid x.

#include "models/snapshot/snapshot.h"

#include <QByteArray>
#include <QSettings>
#include <QString>

#include <memory>

namespace models {

class AppSettings
{
public:
    enum class Theme { System, Light, Dark };

    static constexpr int kDefaultContextLines = 3;
    static constexpr int kMaxContextLines = 1000;
    static constexpr double kDefaultSpeed = 1.0;
    static constexpr double kMaxSpeed = 1e6;

    // The user's settings (QSettings::NativeFormat, user scope, "Daemonscope"/"Daemonscope").
    AppSettings();
    // An INI file at `iniPath` (tests, portable installs).
    explicit AppSettings(const QString &iniPath);
    // An existing QSettings, not owned; it must outlive this object.
    explicit AppSettings(QSettings *settings);
    ~AppSettings();
    AppSettings(const AppSettings &) = delete;
    AppSettings &operator=(const AppSettings &) = delete;

    QSettings *settings() const { return m_settings; }
    QString fileName() const { return m_settings->fileName(); }
    // Writes pending changes; false when the file cannot be written.
    bool sync();

    // Main window (QMainWindow::saveGeometry/saveState); empty when never saved.
    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);
    // QSplitter::saveState of a named splitter; the empty name is the main splitter.
    QByteArray splitterState(const QString &name = {}) const;
    void setSplitterState(const QString &name, const QByteArray &state);

    // The backend used last: embedded (default) or live, and the live kubeconfig context.
    BackendKind lastBackend() const;
    void setLastBackend(BackendKind kind);
    QString lastContext() const;
    void setLastContext(const QString &context);
    QString lastKubeconfig() const; // empty = the default ($KUBECONFIG, ~/.kube/config)
    void setLastKubeconfig(const QString &path);

    // The scenario file loaded last (empty = the built-in demo) and the folders of the file dialogs.
    QString lastScenarioPath() const;
    void setLastScenarioPath(const QString &path);
    QString scenarioDirectory() const;
    void setScenarioDirectory(const QString &dir);
    QString exportDirectory() const;
    void setExportDirectory(const QString &dir);

    Theme theme() const; // default System
    void setTheme(Theme theme);
    static QString themeName(Theme theme); // "system", "light", "dark" (as stored)
    static Theme themeFromName(const QString &name, Theme fallback = Theme::System);

    // Diff view: hide server-side noise (default off), unified-diff context lines (default 3).
    bool hideServerNoise() const;
    void setHideServerNoise(bool hide);
    int diffContextLines() const;
    void setDiffContextLines(int lines); // clamped to [0, kMaxContextLines]

    // Embedded simulation speed (virtual ms per real ms), > 0; default 1.
    double simulationSpeed() const;
    void setSimulationSpeed(double speed); // ignored unless 0 < speed <= kMaxSpeed

    // UI language ("de", "pt_BR"); empty = the system locale.
    QString languageOverride() const;
    void setLanguageOverride(const QString &language);

    // ---- production-context guard
    // A case-insensitive regular expression matched against the live kubeconfig context and
    // cluster (server) name; a match makes every destructive action ask for the object's name.
    // Default kDefaultProductionPattern; an invalid or empty stored pattern reads as the default
    // (set an explicit never-matching one, e.g. "$^", to turn the guard off).
    static constexpr const char *kDefaultProductionPattern = "prod|production|prd";
    QString productionPattern() const;
    void setProductionPattern(const QString &pattern); // ignored unless it is a valid expression
    // Whether `pattern` (case-insensitive) matches the context or the cluster name; empty
    // context and cluster never match.
    static bool isProductionContext(const QString &pattern, const QString &context, const QString &cluster);

private:
    std::unique_ptr<QSettings> m_owned;
    QSettings *m_settings = nullptr;
};

} // namespace models
