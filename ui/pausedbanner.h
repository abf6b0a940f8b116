#pragma once
// The banner above a paused DaemonSet. Kubernetes has no pause for DaemonSets; the app emulates
// one, and the banner says how, so nobody is surprised that new nodes still get pods.

#include <QFrame>

class QLabel;
class QPushButton;

namespace gui {

class PausedBanner : public QFrame
{
    Q_OBJECT

public:
    explicit PausedBanner(QWidget *parent = nullptr);

    // The saved strategy (compact JSON) is shown as a detail line; empty hides it.
    void setSavedStrategy(const QString &json);
    QString text() const;
    QPushButton *resumeButton() const { return m_resume; }

signals:
    void resumeRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QLabel *m_detail = nullptr;
    QPushButton *m_resume = nullptr;
};

} // namespace gui
