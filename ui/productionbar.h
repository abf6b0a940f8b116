#pragma once
// ProductionBar — the red bar across the window while it shows a live context that
// AppSettings::productionPattern matches (context or cluster name): "Production context CTX —
// actions ask for the name". It also switches the confirmation guard (confirmation.h) on and
// off, so every destructive action asks for the object's name exactly while the bar shows.
// Non-matching contexts and the embedded engine show nothing and ask as usual.

#include "models/snapshot/snapshot.h"

#include <QFrame>

class QLabel;

namespace gui {

class ProductionBar : public QFrame
{
    Q_OBJECT

public:
    explicit ProductionBar(QWidget *parent = nullptr);

    void setPattern(const QString &pattern);
    QString pattern() const { return m_pattern; }
    // Re-evaluates the guard for the snapshot's backend (live: its context and cluster).
    void setBackendInfo(const models::BackendInfo &info);
    bool active() const { return !m_context.isEmpty(); }
    QString text() const;

    // The small settings dialog: edits the pattern, checks that it is a valid expression and
    // shows which of the given names it matches. Returns the accepted pattern, or an empty string.
    static QString editPattern(QWidget *parent, const QString &current, const QString &context,
                               const QString &cluster);

protected:
    void changeEvent(QEvent *event) override;

private:
    void apply();
    void applyPalette();

    QString m_pattern;
    models::BackendInfo m_info;
    QString m_context; // the matched context (or cluster) name; empty: not production
    QLabel *m_label = nullptr;
};

} // namespace gui
