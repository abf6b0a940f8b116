#pragma once
// DaemonSetSelection — which DaemonSet the detail models (revision timeline, events, progress)
// show. The shell sets it from the explorer; models listen to currentChanged. One object per
// window, on the GUI thread.

#include <QObject>
#include <QString>

namespace models {

class DaemonSetSelection : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString current READ current WRITE setCurrent NOTIFY currentChanged)

public:
    explicit DaemonSetSelection(QObject *parent = nullptr) : QObject(parent) {}

    QString current() const { return m_current; } // "namespace/name", empty = none

public Q_SLOTS:
    void setCurrent(const QString &dsKey)
    {
        if (dsKey == m_current)
            return;
        m_current = dsKey;
        Q_EMIT currentChanged(m_current);
    }
    void clear() { setCurrent(QString()); }

Q_SIGNALS:
    void currentChanged(const QString &dsKey);

private:
    QString m_current;
};

} // namespace models
