#include "ui/upgradeexplorer.h"

#include "models/itemmodels/upgraderolloutlistmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>

namespace gui {

namespace {

using List = models::UpgradeRolloutListModel;

QColor badgeColor(int badge)
{
    switch (badge) {
    case List::Running:
        return QColor(0x1f, 0x6f, 0xd1);
    case List::Paused:
        return QColor(0xa1, 0x62, 0x07);
    case List::Halted:
        return QColor(0xc6, 0x28, 0x28);
    case List::Done:
        return QColor(0x1e, 0x8e, 0x3e);
    default:
        return QColor(0x6b, 0x72, 0x80);
    }
}

// The phase as a coloured pill, like the DaemonSet badges above it.
class PhaseBadgeDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QVariant badge = index.data(List::BadgeRole);
        if (!badge.isValid()) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        const QString text = index.data(Qt::DisplayRole).toString();
        const QFontMetrics fm(option.font);
        const int pad = fm.averageCharWidth();
        const int h = fm.height() + 2;
        QRectF r(option.rect.left() + pad / 2, option.rect.center().y() - h / 2.0 + 0.5,
                 std::min(fm.horizontalAdvance(text) + 2 * pad, option.rect.width() - pad), h);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        QPainterPath path;
        path.addRoundedRect(r, h / 2.0, h / 2.0);
        painter->fillPath(path, badgeColor(badge.toInt()));
        painter->setPen(Qt::white);
        painter->drawText(r, Qt::AlignCenter, fm.elidedText(text, Qt::ElideRight, int(r.width()) - pad));
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize s = QStyledItemDelegate::sizeHint(option, index);
        if (index.data(List::BadgeRole).isValid())
            s.setWidth(s.width() + 2 * QFontMetrics(option.font).averageCharWidth());
        return s;
    }
};

} // namespace

UpgradeExplorer::UpgradeExplorer(QWidget *parent) : QWidget(parent), m_model(new List(this))
{
    setObjectName(QStringLiteral("upgradeExplorer"));
    m_title = new QLabel(tr("Node upgrades"), this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("upgradeExplorerView"));
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAllColumnsShowFocus(true);
    m_view->setTabKeyNavigation(false);
    m_view->setItemDelegate(new PhaseBadgeDelegate(m_view));
    m_view->setAccessibleName(tr("Node upgrades"));
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(List::NameColumn, QHeaderView::Stretch);
    m_view->setMaximumHeight(fontMetrics().height() * 8);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view);
    setVisible(false);

    auto activate = [this](const QModelIndex &index) {
        if (index.isValid())
            Q_EMIT rolloutActivated(index.data(List::NameRole).toString());
    };
    // A row the user selects (click, arrow keys, Return) opens its rollout. Focus alone only
    // makes a row current without selecting it — tabbing through the window must not switch
    // the page — so this follows the selection, not the current index.
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [activate](const QItemSelection &selected) {
                if (!selected.indexes().isEmpty())
                    activate(selected.indexes().first());
            });
    connect(m_view, &QTreeView::clicked, this, activate);
    connect(m_view, &QTreeView::activated, this, activate);
}

void UpgradeExplorer::setSnapshot(const models::SnapshotPtr &snapshot)
{
    if (!snapshot)
        return;
    m_model->setSnapshot(snapshot);
    setVisible(m_model->rowCount() > 0);
}

bool UpgradeExplorer::select(const QString &rollout)
{
    const QModelIndex index = m_model->indexOf(rollout);
    if (!index.isValid())
        return false;
    QSignalBlocker block(m_view->selectionModel());
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    return true;
}

void UpgradeExplorer::clearSelection()
{
    QSignalBlocker block(m_view->selectionModel());
    m_view->selectionModel()->clear();
}

QString UpgradeExplorer::current() const
{
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? index.data(List::NameRole).toString() : QString();
}

} // namespace gui
