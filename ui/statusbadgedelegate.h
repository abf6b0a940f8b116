#pragma once
// Paints a DaemonSet's rollout badge (progressing / paused / complete / stuck) as a small
// coloured pill in the explorer's status column; other cells are painted as usual. Sizes come
// from the font, so the pill scales with the font and the screen's pixel ratio.

#include <QStyledItemDelegate>

namespace gui {

class StatusBadgeDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit StatusBadgeDelegate(int badgeColumn, QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // Fill colour of a badge (models::RolloutBadge as int); white text reads on each.
    static QColor badgeColor(int badge);

private:
    bool isBadge(const QModelIndex &index) const;

    int m_column;
};

} // namespace gui
