#include "ui/statusbadgedelegate.h"

#include "models/itemmodels/daemonsetlistmodel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace gui {

namespace {

QFont badgeFont(QFont font)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 0.9);
    font.setBold(true);
    return font;
}

} // namespace

StatusBadgeDelegate::StatusBadgeDelegate(int badgeColumn, QObject *parent)
    : QStyledItemDelegate(parent), m_column(badgeColumn)
{}

QColor StatusBadgeDelegate::badgeColor(int badge)
{
    switch (static_cast<models::RolloutBadge>(badge)) {
    case models::RolloutBadge::Progressing:
        return QColor(0x25, 0x63, 0xb0);
    case models::RolloutBadge::Paused:
        return QColor(0x9a, 0x60, 0x00);
    case models::RolloutBadge::Complete:
        return QColor(0x2e, 0x7d, 0x32);
    case models::RolloutBadge::Stuck:
        return QColor(0xc6, 0x28, 0x28);
    case models::RolloutBadge::Settled: // done with exceptions: teal, neither green nor red
        return QColor(0x00, 0x69, 0x7c);
    }
    return QColor(0x60, 0x60, 0x60);
}

bool StatusBadgeDelegate::isBadge(const QModelIndex &index) const
{
    return index.column() == m_column && index.data(models::DaemonSetListModel::BadgeRole).isValid();
}

void StatusBadgeDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                const QModelIndex &index) const
{
    if (!isBadge(index)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // Background and selection as the style draws them, without the text.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QFont font = badgeFont(opt.font);
    const QFontMetrics fm(font);
    const int padX = fm.averageCharWidth();
    const int h = std::min(opt.rect.height() - 2, fm.height() + 2);
    const int w = std::min(opt.rect.width() - 2, fm.horizontalAdvance(text) + 2 * padX);
    const QRect pill(opt.rect.left() + padX / 2, opt.rect.center().y() - h / 2, w, h);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(QRectF(pill), h / 2.0, h / 2.0);
    painter->fillPath(path, badgeColor(index.data(models::DaemonSetListModel::BadgeRole).toInt()));
    painter->setPen(Qt::white);
    painter->setFont(font);
    painter->drawText(pill, Qt::AlignCenter, fm.elidedText(text, Qt::ElideRight, pill.width() - padX));
    painter->restore();
}

QSize StatusBadgeDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (isBadge(index)) {
        const QFontMetrics fm(badgeFont(option.font));
        size.setWidth(fm.horizontalAdvance(index.data().toString()) + 3 * fm.averageCharWidth());
        size.setHeight(std::max(size.height(), fm.height() + 4));
    }
    return size;
}

} // namespace gui
