#include "models/itemmodels/revisiontimelinemodel.h"

#include "models/itemmodels/daemonsetselection.h"

#include "models/kube/timeutil.h"

#include <QColor>

namespace models {

bool TimelineRow::operator==(const TimelineRow &o) const
{
    const auto &a = revision;
    const auto &b = o.revision;
    return podCount == o.podCount && current == o.current && a.name == b.name && a.hash == b.hash &&
           a.number == b.number && a.previousNumbers == b.previousNumbers && a.created == b.created &&
           a.changeCause == b.changeCause && a.imageSummary == b.imageSummary && a.removed == b.removed &&
           a.podTemplate == b.podTemplate;
}

RevisionTimelineModel::RevisionTimelineModel(RevisionMemory *memory, QObject *parent)
    : KeyedTableModel<TimelineRow>(parent)
{
    if (!memory) {
        m_ownMemory = std::make_unique<RevisionMemory>();
        memory = m_ownMemory.get();
    }
    m_memory = memory;
    connect(&m_ageClock, &AgeClock::due, this, [this] {
        m_now = m_ageClock.now();
        columnChanged(AgeColumn);
        scheduleAges();
    });
}

void RevisionTimelineModel::scheduleAges()
{
    m_ageClock.wakeAt(
        AgeClock::nextAgeChange(m_rows, m_now, [](const TimelineRow &row) { return row.revision.created; }));
}

RevisionTimelineModel::~RevisionTimelineModel() = default;

int RevisionTimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void RevisionTimelineModel::setSelection(DaemonSetSelection *selection)
{
    connect(selection, &DaemonSetSelection::currentChanged, this, &RevisionTimelineModel::setDaemonSetKey);
    setDaemonSetKey(selection->current());
}

void RevisionTimelineModel::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    m_snapshot = std::move(snapshot);
    m_memory->observe(*m_snapshot);
    const bool clockMoved = m_now != m_snapshot->clock.now;
    m_now = m_snapshot->clock.now;
    m_ageClock.setClock(m_snapshot->clock);
    rebuild();
    if (clockMoved)
        columnChanged(AgeColumn);
    scheduleAges();
}

void RevisionTimelineModel::setDaemonSetKey(const QString &dsKey)
{
    if (dsKey == m_key)
        return;
    m_key = dsKey;
    // Another DaemonSet is a different list, not an update of this one.
    beginResetModel();
    m_rows.clear();
    endResetModel();
    rebuild();
    scheduleAges();
}

void RevisionTimelineModel::rebuild()
{
    std::vector<TimelineRow> rows;
    if (!m_key.isEmpty()) {
        const DaemonSetInfo *ds = m_snapshot ? m_snapshot->daemonSet(m_key) : nullptr;
        for (auto &r : m_memory->revisions(m_key)) {
            TimelineRow row;
            if (ds && !r.removed) {
                for (const auto &live : *ds->revisions) {
                    if (live.name == r.name) {
                        row.podCount = live.podCount;
                        row.current = live.current;
                        break;
                    }
                }
            }
            row.revision = std::move(r);
            rows.push_back(std::move(row));
        }
    }
    applyRows(std::move(rows));
}

std::shared_ptr<const kube::Json> RevisionTimelineModel::podTemplate(int row) const
{
    const TimelineRow *r = rowAt(row);
    return r ? r->revision.podTemplate : nullptr;
}

int RevisionTimelineModel::rowOfNumber(qint64 number) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].revision.number == number && !m_rows[i].revision.removed)
            return static_cast<int>(i);
    }
    return -1;
}

QVariant RevisionTimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TimelineRow &row = m_rows[static_cast<std::size_t>(index.row())];
    const RememberedRevision &r = row.revision;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NumberColumn:
            return row.current ? tr("%1 (current)").arg(r.number) : QString::number(r.number);
        case HashColumn:
            return r.hash.left(10);
        case AgeColumn:
            return r.created > 0
                       ? QString::fromStdString(kube::humanAge(std::max<qint64>(0, m_now - r.created)))
                       : QString();
        case ChangeCauseColumn:
            return r.changeCause;
        case ImageColumn:
            return r.imageSummary;
        case PodsColumn:
            return r.removed ? QVariant() : QVariant(row.podCount);
        }
        return {};
    case Qt::ToolTipRole: {
        QStringList lines{r.name};
        if (!r.previousNumbers.isEmpty()) {
            QStringList numbers;
            for (qint64 n : r.previousNumbers)
                numbers.append(QString::number(n));
            lines.append(tr("previously revision %1").arg(numbers.join(QStringLiteral(", "))));
        }
        if (r.removed)
            lines.append(tr("removed by the cluster (revisionHistoryLimit); kept in local history"));
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ForegroundRole:
        return r.removed ? QVariant(QColor(Qt::gray)) : QVariant();
    case Qt::FontRole:
        return QVariant();
    case NameRole:
        return r.name;
    case NumberRole:
        return r.number;
    case HashRole:
        return r.hash;
    case CreatedRole:
        return r.created;
    case ChangeCauseRole:
        return r.changeCause;
    case ImageSummaryRole:
        return r.imageSummary;
    case PodCountRole:
        return row.podCount;
    case CurrentRole:
        return row.current;
    case RemovedRole:
        return r.removed;
    case ColorKeyRole:
        return r.previousNumbers.isEmpty() ? r.number : r.previousNumbers.front();
    case PreviousNumbersRole: {
        QVariantList list;
        for (qint64 n : r.previousNumbers)
            list.append(n);
        return list;
    }
    }
    return {};
}

QVariant RevisionTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NumberColumn:
        return tr("Revision");
    case HashColumn:
        return tr("Hash");
    case AgeColumn:
        return tr("Age");
    case ChangeCauseColumn:
        return tr("Change cause");
    case ImageColumn:
        return tr("Images");
    case PodsColumn:
        return tr("Pods");
    }
    return {};
}

QHash<int, QByteArray> RevisionTimelineModel::roleNames() const
{
    auto names = QAbstractTableModel::roleNames();
    names.insert(NameRole, "name");
    names.insert(NumberRole, "number");
    names.insert(HashRole, "hash");
    names.insert(CreatedRole, "created");
    names.insert(ChangeCauseRole, "changeCause");
    names.insert(ImageSummaryRole, "imageSummary");
    names.insert(PodCountRole, "podCount");
    names.insert(CurrentRole, "current");
    names.insert(RemovedRole, "removed");
    names.insert(PreviousNumbersRole, "previousNumbers");
    names.insert(ColorKeyRole, "colorKey");
    return names;
}

} // namespace models
