#include "ui/rollouthistoryview.h"

#include "models/kube/timeutil.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>

namespace gui {

namespace {

QString age(qint64 now, qint64 t)
{
    if (t <= 0)
        return {};
    return RolloutHistoryView::tr("%1 ago").arg(
        QString::fromStdString(kube::humanAge(std::max<qint64>(0, now - t))));
}

QString duration(qint64 ms)
{
    return QString::fromStdString(kube::formatDuration(std::max<qint64>(0, ms / 1000 * 1000)));
}

} // namespace

RolloutHistoryView::RolloutHistoryView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(tr("Rollouts and actions"), this);
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    layout->addWidget(m_title);

    m_view = new QTreeWidget(this);
    m_view->setColumnCount(ColumnCount);
    m_view->setHeaderLabels(
        {tr("When"), tr("Event"), tr("Revisions"), tr("Nodes"), tr("Duration"), tr("By"), tr("Outcome")});
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setTabKeyNavigation(false);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAllColumnsShowFocus(true);
    m_view->setAccessibleName(tr("Rollouts and actions"));
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(OutcomeColumn, QHeaderView::Stretch);
    m_title->setBuddy(m_view);
    layout->addWidget(m_view, 1);
}

qint64 RolloutHistoryView::numberNow(const models::DaemonSetInfo &ds, const QString &hash)
{
    if (hash.isEmpty() || !ds.revisions)
        return 0;
    for (const auto &r : *ds.revisions)
        if (r.hash == hash)
            return r.number;
    return 0;
}

QString RolloutHistoryView::actionTitle(models::ActionKind kind)
{
    using K = models::ActionKind;
    switch (kind) {
    case K::Rollback:
        return tr("Rollback");
    case K::Pause:
        return tr("Pause");
    case K::Resume:
        return tr("Resume");
    case K::LoadScenario:
        return tr("Load scenario");
    case K::SetSpeed:
        return tr("Clock speed");
    case K::Step:
        return tr("Clock step");
    case K::SetSeed:
        return tr("Seed");
    case K::InjectFault:
        return tr("Fault");
    case K::StartUpgrade:
        return tr("Node upgrade started");
    case K::UpgradeControl:
        return tr("Node upgrade control");
    case K::Connect:
        return tr("Connect");
    case K::SetImage:
        return tr("Set image");
    case K::RestartRollout:
        return tr("Restart");
    case K::SetStrategy:
        return tr("Update strategy");
    case K::Cordon:
        return tr("Cordon");
    case K::Uncordon:
        return tr("Uncordon");
    case K::Drain:
        return tr("Drain");
    }
    return models::actionKindName(kind);
}

void RolloutHistoryView::setDaemonSet(const models::DaemonSetInfo *ds, qint64 now)
{
    if (!ds) {
        m_view->clear();
        m_record = m_revisions = nullptr;
        m_key.clear();
        return;
    }
    // Ages are worded in minutes and more: rebuilding for a new clock once per 10 s is enough.
    if (ds->key == m_key && ds->record.get() == m_record && ds->revisions.get() == m_revisions &&
        std::abs(now - m_builtAt) < 10'000)
        return;
    rebuild(*ds, now);
}

void RolloutHistoryView::rebuild(const models::DaemonSetInfo &ds, qint64 now)
{
    m_key = ds.key;
    m_record = ds.record.get();
    m_revisions = ds.revisions.get();
    m_builtAt = now;
    const QString selectedKey =
        m_view->currentItem() ? m_view->currentItem()->data(0, Qt::UserRole).toString() : QString();
    m_view->clear();
    if (!ds.record)
        return;

    auto revision = [&](qint64 then, const QString &hash) {
        const qint64 current = numberNow(ds, hash);
        if (current <= 0 || current == then)
            return then > 0 ? QString::number(then) : QStringLiteral("?");
        return tr("%1 (then %2)").arg(current).arg(then > 0 ? QString::number(then) : QStringLiteral("?"));
    };

    struct Row
    {
        qint64 time;
        QTreeWidgetItem *item;
    };
    std::vector<Row> rows;
    int index = 0;
    for (const auto &r : ds.record->rollouts) {
        auto *item = new QTreeWidgetItem;
        item->setData(0, Qt::UserRole, QStringLiteral("rollout/%1").arg(index++));
        item->setText(TimeColumn, age(now, r.started));
        item->setToolTip(TimeColumn, QLocale().toString(QDateTime::fromMSecsSinceEpoch(r.started, Qt::UTC),
                                                        QLocale::ShortFormat) +
                                         QStringLiteral(" UTC"));
        item->setText(EventColumn, tr("Rollout"));
        item->setText(RevisionsColumn, tr("%1 → %2").arg(revision(r.fromRevision, r.fromHash),
                                                         revision(r.toRevision, r.toHash)));
        const auto finished =
            std::count_if(r.nodes.begin(), r.nodes.end(), [](const auto &n) { return n.finished > 0; });
        item->setText(NodesColumn, tr("%1 of %2 replaced").arg(finished).arg(r.nodes.size()));
        if (r.completed > 0) {
            item->setText(DurationColumn, duration(r.completed - r.started));
            item->setText(OutcomeColumn, tr("complete"));
        } else if (!r.supersededBy.isEmpty()) {
            item->setText(DurationColumn, QString());
            const qint64 by = numberNow(ds, r.supersededBy);
            item->setText(OutcomeColumn, by > 0 ? tr("superseded by revision %1").arg(by) : tr("superseded"));
        } else {
            item->setText(DurationColumn, tr("%1 so far").arg(duration(now - r.started)));
            item->setText(OutcomeColumn, tr("in progress"));
        }
        if (const qint64 mean = r.meanNodeMs(); mean > 0)
            item->setToolTip(NodesColumn, tr("%1 per node on average").arg(duration(mean)));
        rows.push_back({r.started, item});
    }
    index = 0;
    for (const auto &a : ds.record->actions) {
        auto *item = new QTreeWidgetItem;
        item->setData(0, Qt::UserRole, QStringLiteral("action/%1").arg(index++));
        item->setText(TimeColumn, age(now, a.time));
        if (a.wallTime > 0)
            item->setToolTip(TimeColumn, QLocale().toString(QDateTime::fromMSecsSinceEpoch(a.wallTime),
                                                            QLocale::ShortFormat));
        item->setText(EventColumn, actionTitle(a.kind));
        item->setText(RevisionsColumn, a.parameters);
        item->setText(UserColumn, a.user);
        item->setText(OutcomeColumn, a.outcome);
        item->setToolTip(OutcomeColumn, a.outcome);
        if (!a.ok)
            item->setForeground(OutcomeColumn, palette().color(QPalette::PlaceholderText));
        rows.push_back({a.time, item});
    }
    // Newest first; at equal times the action before the rollout it started.
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.time > b.time; });
    QList<QTreeWidgetItem *> items;
    for (const auto &r : rows)
        items.append(r.item);
    m_view->addTopLevelItems(items);
    if (!selectedKey.isEmpty()) {
        for (auto *item : items)
            if (item->data(0, Qt::UserRole).toString() == selectedKey)
                m_view->setCurrentItem(item);
    }
    if (items.isEmpty()) {
        auto *none = new QTreeWidgetItem;
        none->setText(EventColumn,
                      tr("No rollout observed and no action taken since the console started watching."));
        none->setFirstColumnSpanned(false);
        none->setFlags(Qt::NoItemFlags);
        m_view->addTopLevelItem(none);
    }
}

} // namespace gui
