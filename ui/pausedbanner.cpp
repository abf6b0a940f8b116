#include "ui/pausedbanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace gui {

PausedBanner::PausedBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("pausedBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setAccessibleName(tr("Rollout paused"));

    auto *layout = new QHBoxLayout(this);
    m_icon = new QLabel(this);
    m_icon->setAlignment(Qt::AlignTop);
    layout->addWidget(m_icon);

    auto *texts = new QVBoxLayout;
    m_text =
        new QLabel(tr("<b>Rollout paused:</b> the update strategy is switched to OnDelete and the previous "
                      "strategy saved in an annotation. Pods are replaced only when deleted; new nodes still "
                      "get pods from the current template."),
                   this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    texts->addWidget(m_text);
    m_detail = new QLabel(this);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setVisible(false);
    texts->addWidget(m_detail);
    layout->addLayout(texts, 1);

    m_resume = new QPushButton(tr("&Resume"), this);
    m_resume->setAccessibleName(tr("Resume rollout"));
    m_resume->setToolTip(tr("Restore the saved update strategy"));
    connect(m_resume, &QPushButton::clicked, this, &PausedBanner::resumeRequested);
    layout->addWidget(m_resume, 0, Qt::AlignVCenter);

    applyPalette();
}

void PausedBanner::setSavedStrategy(const QString &json)
{
    m_detail->setText(tr("Saved strategy: %1").arg(json));
    m_detail->setVisible(!json.isEmpty());
}

QString PausedBanner::text() const
{
    return m_text->text();
}

void PausedBanner::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPalette();
}

void PausedBanner::applyPalette()
{
    // A tint of the highlight colour over the window colour reads as "notice" on light and dark
    // palettes alike, and keeps the palette's own text colour legible.
    const QPalette base = parentWidget() ? parentWidget()->palette() : QPalette();
    const QColor window = base.color(QPalette::Window);
    const QColor accent = base.color(QPalette::Highlight);
    const qreal a = 0.18;
    const QColor tint = QColor::fromRgbF(window.redF() * (1 - a) + accent.redF() * a,
                                         window.greenF() * (1 - a) + accent.greenF() * a,
                                         window.blueF() * (1 - a) + accent.blueF() * a);
    QPalette p = palette();
    if (p.color(QPalette::Window) != tint) {
        p.setColor(QPalette::Window, tint);
        setPalette(p);
    }
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) * 2;
    m_icon->setPixmap(style()
                          ->standardIcon(QStyle::SP_MessageBoxInformation, nullptr, this)
                          .pixmap(QSize(size, size), devicePixelRatioF()));
}

} // namespace gui
