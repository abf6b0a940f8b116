#include "ui/timelineview.h"

#include "ui/rollouthistoryview.h"

#include "models/itemmodels/revisiontimelinemodel.h"
#include "models/kube/yaml.h"
#include "ui/revisionpalette.h"
#include "ui/templatedialog.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QPalette>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace gui {

namespace {

using Timeline = models::RevisionTimelineModel;

// Presentation of the timeline rows: renumbering spelled out, a colour swatch matching the node
// map, the current revision bold, removed ones in the palette's disabled text colour (so they
// stay legible on dark palettes too).
class TimelineDisplayModel : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid())
            return {};
        const QModelIndex src = mapToSource(index);
        const bool removed = src.data(Timeline::RemovedRole).toBool();
        const bool current = src.data(Timeline::CurrentRole).toBool();
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == Timeline::NumberColumn) {
                const qint64 number = src.data(Timeline::NumberRole).toLongLong();
                QStringList notes;
                if (current)
                    notes << TimelineView::tr("current");
                const QVariantList previous = src.data(Timeline::PreviousNumbersRole).toList();
                if (!previous.isEmpty()) {
                    QStringList numbers;
                    for (const QVariant &n : previous)
                        numbers << QString::number(n.toLongLong());
                    notes << TimelineView::tr("was %1").arg(numbers.join(QStringLiteral(", ")));
                } else if (renumberedBeforeSeen(src)) {
                    notes << TimelineView::tr("renumbered");
                }
                if (removed)
                    notes << TimelineView::tr("removed");
                return notes.isEmpty()
                           ? QString::number(number)
                           : TimelineView::tr("%1 (%2)").arg(number).arg(notes.join(QStringLiteral(", ")));
            }
            if (index.column() == Timeline::PodsColumn && removed)
                return QStringLiteral("—");
            if (index.column() == Timeline::ChangeCauseColumn &&
                src.data(Qt::DisplayRole).toString().isEmpty())
                return removed ? QString() : TimelineView::tr("<none>");
            break;
        case Qt::DecorationRole:
            if (index.column() == Timeline::NumberColumn) {
                const QColor c = RevisionPalette::color(src.data(Timeline::ColorKeyRole).toLongLong());
                return removed ? QVariant() : QVariant(c);
            }
            break;
        case Qt::ForegroundRole:
            if (removed)
                return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
            if (index.column() == Timeline::ChangeCauseColumn &&
                src.data(Qt::DisplayRole).toString().isEmpty())
                return QApplication::palette().brush(QPalette::PlaceholderText);
            return {};
        case Qt::FontRole:
            if (current) {
                QFont f;
                f.setBold(true);
                return f;
            }
            if (removed) {
                QFont f;
                f.setItalic(true);
                return f;
            }
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() == Timeline::PodsColumn)
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            break;
        case Qt::ToolTipRole:
            if (index.column() == Timeline::NumberColumn && renumberedBeforeSeen(src) &&
                src.data(Timeline::PreviousNumbersRole).toList().isEmpty()) {
                return QIdentityProxyModel::data(index, role).toString() + QLatin1Char('\n') +
                       TimelineView::tr(
                           "Created before a lower-numbered revision: a rollback (or a return to this "
                           "template) gave it a new number before the console was watching.");
            }
            break;
        case Qt::AccessibleTextRole:
            if (index.column() == Timeline::NumberColumn)
                return data(index, Qt::DisplayRole);
            break;
        }
        return QIdentityProxyModel::data(index, role);
    }

private:
    // A ControllerRevision keeps its creation time when a rollback renumbers it, so a revision
    // created before a lower-numbered one must have been renumbered — even when the console
    // did not see it happen (the local history then has no earlier number to show).
    static bool renumberedBeforeSeen(const QModelIndex &src)
    {
        const qint64 created = src.data(Timeline::CreatedRole).toLongLong();
        if (created <= 0 || src.data(Timeline::RemovedRole).toBool())
            return false;
        const qint64 number = src.data(Timeline::NumberRole).toLongLong();
        const QAbstractItemModel *m = src.model();
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex other = m->index(r, 0);
            if (other.data(Timeline::NumberRole).toLongLong() < number &&
                other.data(Timeline::CreatedRole).toLongLong() > created)
                return true;
        }
        return false;
    }
};

} // namespace

TimelineView::TimelineView(models::RevisionTimelineModel *model, QWidget *parent)
    : QWidget(parent), m_model(model)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_display = new TimelineDisplayModel(this);
    m_display->setSourceModel(model);

    m_view = new QTreeView(this);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_view->setModel(m_display);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setAccessibleName(tr("Revision timeline"));
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(Timeline::ChangeCauseColumn, QHeaderView::Stretch);
    // The revisions take the rows they need (a DaemonSet has a handful); the rest of the pane
    // shows what happened to them: rollouts and actions.
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_view);
    m_history = new RolloutHistoryView(m_splitter);
    m_splitter->addWidget(m_history);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    layout->addWidget(m_splitter, 1);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSized = true; });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_display, signal, this, &TimelineView::fitRevisions);
    connect(m_display, &QAbstractItemModel::modelReset, this, &TimelineView::fitRevisions);

    m_hint =
        new QLabel(tr("Select a revision to highlight its nodes in the node map. Right-click (or press the "
                      "Menu key) for its template, a diff, or a rollback."),
                   this);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_hint);

    m_showTemplate = new QAction(tr("Show &Template…"), this);
    m_showTemplate->setShortcut(QKeySequence(Qt::Key_Return));
    m_showTemplate->setShortcutContext(Qt::WidgetShortcut);
    m_diffCurrent = new QAction(tr("&Diff with Current"), this);
    m_diffCurrent->setShortcut(QKeySequence(Qt::Key_D));
    m_diffCurrent->setShortcutContext(Qt::WidgetShortcut);
    m_diffWith = new QAction(tr("Diff &with…"), this);
    m_diffWith->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_D));
    m_diffWith->setShortcutContext(Qt::WidgetShortcut);
    m_rollback = new QAction(tr("&Roll Back to This Revision…"), this);
    m_rollback->setShortcut(QKeySequence(Qt::Key_R));
    m_rollback->setShortcutContext(Qt::WidgetShortcut);
    for (QAction *a : {m_showTemplate, m_diffCurrent, m_diffWith, m_rollback})
        m_view->addAction(a);

    connect(m_showTemplate, &QAction::triggered, this, [this] {
        if (selectedRow() >= 0)
            showTemplate(selectedRow());
    });
    connect(m_diffCurrent, &QAction::triggered, this, &TimelineView::diffWithCurrent);
    connect(m_diffWith, &QAction::triggered, this, &TimelineView::diffWithOther);
    connect(m_rollback, &QAction::triggered, this, [this] {
        const qint64 n = selectedNumber();
        if (n > 0)
            emit rollbackRequested(n);
    });
    connect(m_view, &QTreeView::customContextMenuRequested, this, &TimelineView::showContextMenu);
    connect(m_view, &QTreeView::doubleClicked, this,
            [this](const QModelIndex &index) { showTemplate(m_display->mapToSource(index).row()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateActions();
        const int row = selectedRow();
        emit revisionSelected(
            row >= 0 && !m_model->index(row, 0).data(Timeline::RemovedRole).toBool() ? selectedNumber() : -1);
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &TimelineView::updateActions);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TimelineView::updateActions);
    updateActions();
}

QAbstractItemModel *TimelineView::displayModel() const
{
    return m_display;
}

int TimelineView::selectedRow() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : m_display->mapToSource(rows.first()).row();
}

qint64 TimelineView::selectedNumber() const
{
    const int row = selectedRow();
    return row < 0 ? -1 : m_model->index(row, 0).data(Timeline::NumberRole).toLongLong();
}

QString TimelineView::selectedName() const
{
    const int row = selectedRow();
    return row < 0 ? QString() : m_model->index(row, 0).data(Timeline::NameRole).toString();
}

bool TimelineView::selectRevision(qint64 number)
{
    const int row = m_model->rowOfNumber(number);
    if (row < 0)
        return false;
    const QModelIndex index = m_display->mapFromSource(m_model->index(row, 0));
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    return true;
}

void TimelineView::showTemplate(int sourceRow)
{
    const auto podTemplate = m_model->podTemplate(sourceRow);
    if (!podTemplate)
        return;
    const QModelIndex index = m_model->index(sourceRow, 0);
    const QString title = tr("%1 — revision %2 (%3)")
                              .arg(m_model->daemonSetKey())
                              .arg(index.data(Timeline::NumberRole).toLongLong())
                              .arg(index.data(Timeline::HashRole).toString());
    auto *dialog = new TemplateDialog(title, QString::fromStdString(kube::toYaml(*podTemplate)), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void TimelineView::showContextMenu(const QPoint &viewportPos)
{
    QPoint pos = viewportPos;
    const QModelIndex at = m_view->indexAt(viewportPos);
    if (at.isValid()) {
        m_view->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    } else if (const QModelIndex cur = m_view->currentIndex(); cur.isValid()) {
        // Menu key: open the menu at the current row rather than where the mouse happens to be.
        pos = m_view->visualRect(cur).bottomLeft();
    }
    if (selectedRow() < 0)
        return;
    QMenu menu(this);
    menu.addAction(m_showTemplate);
    menu.addAction(m_diffCurrent);
    menu.addAction(m_diffWith);
    menu.addSeparator();
    menu.addAction(m_rollback);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void TimelineView::updateActions()
{
    const int row = selectedRow();
    const bool has = row >= 0;
    const QModelIndex index = has ? m_model->index(row, 0) : QModelIndex();
    const bool removed = has && index.data(Timeline::RemovedRole).toBool();
    const bool current = has && index.data(Timeline::CurrentRole).toBool();
    m_showTemplate->setEnabled(has && m_model->podTemplate(row) != nullptr);
    m_diffCurrent->setEnabled(has && !current && currentRevisionRow() >= 0);
    m_diffWith->setEnabled(has && m_model->rowCount() > 1);
    // A removed revision no longer exists in the cluster, so kubectl could not roll back to it.
    m_rollback->setEnabled(has && !removed);
}

void TimelineView::diffWithCurrent()
{
    const int cur = currentRevisionRow();
    if (cur < 0 || selectedRow() < 0)
        return;
    emit diffRequested(selectedName(), m_model->index(cur, 0).data(Timeline::NameRole).toString());
}

void TimelineView::diffWithOther()
{
    const int row = selectedRow();
    if (row < 0)
        return;
    QStringList labels;
    QStringList names;
    int preselect = 0;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (r == row)
            continue;
        const QModelIndex i = m_display->index(r, Timeline::NumberColumn);
        const QModelIndex s = m_model->index(r, 0);
        labels << tr("Revision %1 · %2 · %3")
                      .arg(i.data().toString(), s.data(Timeline::HashRole).toString(),
                           s.data(Timeline::ImageSummaryRole).toString());
        names << s.data(Timeline::NameRole).toString();
        if (s.data(Timeline::CurrentRole).toBool())
            preselect = int(names.size()) - 1;
    }
    if (names.isEmpty())
        return;
    bool ok = false;
    const QString choice =
        QInputDialog::getItem(this, tr("Diff With"), tr("Compare revision %1 with:").arg(selectedNumber()),
                              labels, preselect, false, &ok);
    if (!ok)
        return;
    const qsizetype i = labels.indexOf(choice);
    if (i < 0)
        return;
    // Older revision on the left, as in a patch.
    const QString other = names[i];
    const int otherRow = [&] {
        for (int r = 0; r < m_model->rowCount(); ++r)
            if (m_model->index(r, 0).data(Timeline::NameRole).toString() == other)
                return r;
        return -1;
    }();
    if (otherRow < row)
        emit diffRequested(other, selectedName());
    else
        emit diffRequested(selectedName(), other);
}

int TimelineView::currentRevisionRow() const
{
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (m_model->index(r, 0).data(Timeline::CurrentRole).toBool())
            return r;
    }
    return -1;
}

int TimelineView::revisionsHeight() const
{
    const int rows = std::max(3, m_display->rowCount());
    const int rowHeight = std::max(m_view->sizeHintForRow(0), m_view->fontMetrics().height() + 4);
    return m_view->header()->sizeHint().height() + rows * rowHeight + 2 * m_view->frameWidth() + 2;
}

void TimelineView::fitRevisions()
{
    if (m_userSized)
        return;
    const int total = m_splitter->height();
    if (total <= 0)
        return;
    // At most 60 % of the pane: beyond that the revisions scroll and history stays in view.
    const int top = std::min(revisionsHeight(), total * 3 / 5);
    m_splitter->setSizes({top, std::max(0, total - top)});
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitRevisions();
}

void TimelineView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitRevisions();
}

} // namespace gui
