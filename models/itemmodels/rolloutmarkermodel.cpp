#include "models/itemmodels/rolloutmarkermodel.h"

#include <algorithm>
#include <limits>

namespace models {

RolloutMarkerModel::RolloutMarkerModel(QObject *parent) : QAbstractTableModel(parent) {}

int RolloutMarkerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 2 * markerCount();
}

int RolloutMarkerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RolloutMarkerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int i = index.row() / 2;
    const bool head = index.row() % 2 == 1;
    const RolloutMarker &m = marker(i);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return double(m.time);
        case ElapsedColumn:
            return double(m.time - m_origin) / 1000.0;
        case ValueColumn:
            return head ? m_top : 0.0;
        case KindColumn:
            return kindName(m.kind);
        case LabelColumn:
            return label(m);
        }
        return {};
    case Qt::ToolTipRole:
        return label(m);
    case TimeRole:
        return m.time;
    case KindRole:
        return int(m.kind);
    case MarkerIndexRole:
        return i;
    }
    return {};
}

QVariant RolloutMarkerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ElapsedColumn:
        return tr("Seconds");
    case ValueColumn:
        return tr("Value");
    case KindColumn:
        return tr("Kind");
    case LabelColumn:
        return tr("Marker");
    }
    return {};
}

void RolloutMarkerModel::setTop(double top)
{
    if (top == m_top)
        return;
    m_top = top;
    for (int i = 0; i < markerCount(); ++i)
        Q_EMIT dataChanged(index(2 * i + 1, ValueColumn), index(2 * i + 1, ValueColumn));
}

void RolloutMarkerModel::setOrigin(qint64 origin)
{
    if (origin == m_origin)
        return;
    m_origin = origin;
    if (!m_markers.empty())
        Q_EMIT dataChanged(index(0, ElapsedColumn), index(rowCount() - 1, ElapsedColumn));
}

void RolloutMarkerModel::setMarkers(std::vector<RolloutMarker> next)
{
    if (next == m_markers)
        return;
    // Drop markers from the front until the rest is a prefix of `next` (the usual case: old
    // ones fall out of the charted window, new ones are appended).
    std::size_t drop = 0;
    auto isPrefix = [&](std::size_t from) {
        const std::size_t n = m_markers.size() - from;
        return n <= next.size() && std::equal(m_markers.begin() + static_cast<std::ptrdiff_t>(from),
                                              m_markers.end(), next.begin());
    };
    while (drop < m_markers.size() && !isPrefix(drop))
        ++drop;
    if (drop > 0) {
        beginRemoveRows({}, 0, 2 * static_cast<int>(drop) - 1);
        m_markers.erase(m_markers.begin(), m_markers.begin() + static_cast<std::ptrdiff_t>(drop));
        endRemoveRows();
    }
    if (next.size() > m_markers.size()) {
        const int first = markerCount();
        beginInsertRows({}, 2 * first, 2 * static_cast<int>(next.size()) - 1);
        m_markers.insert(m_markers.end(), next.begin() + first, next.end());
        endInsertRows();
    }
}

std::vector<RolloutMarker> RolloutMarkerModel::markersFor(const DaemonSetInfo &ds, qint64 since)
{
    std::vector<RolloutMarker> out;
    if (!ds.record)
        return out;
    const auto &rollouts = ds.record->rollouts;
    const auto &actions = ds.record->actions;
    for (std::size_t i = 0; i < rollouts.size(); ++i) {
        const RolloutTiming &r = rollouts[i];
        RolloutMarker m;
        m.time = r.started;
        m.revision = r.toRevision;
        const qint64 previousStart = i > 0 ? rollouts[i - 1].started : std::numeric_limits<qint64>::min();
        bool rollback = std::any_of(actions.begin(), actions.end(), [&](const ActionRecord &a) {
            return a.kind == ActionKind::Rollback && a.ok && a.target == ds.key && a.time > previousStart &&
                   a.time <= r.started;
        });
        if (!rollback && ds.revisions) {
            for (const RevisionInfo &rev : *ds.revisions) {
                if (rev.hash == r.toHash && rev.created > 0 && rev.created < r.started)
                    rollback = true;
            }
        }
        m.kind = rollback ? RolloutMarker::Rollback : RolloutMarker::RolloutStart;
        if (m.time >= since)
            out.push_back(m);
    }
    for (const ActionRecord &a : actions) {
        if (!a.ok || a.target != ds.key || a.time < since)
            continue;
        if (a.kind == ActionKind::Pause)
            out.push_back(RolloutMarker{a.time, RolloutMarker::Pause, 0});
        else if (a.kind == ActionKind::Resume)
            out.push_back(RolloutMarker{a.time, RolloutMarker::Resume, 0});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const RolloutMarker &a, const RolloutMarker &b) { return a.time < b.time; });
    return out;
}

QString RolloutMarkerModel::kindName(RolloutMarker::Kind kind)
{
    switch (kind) {
    case RolloutMarker::RolloutStart:
        return tr("Rollout start");
    case RolloutMarker::Rollback:
        return tr("Rollback");
    case RolloutMarker::Pause:
        return tr("Paused");
    case RolloutMarker::Resume:
        return tr("Resumed");
    }
    return {};
}

QString RolloutMarkerModel::label(const RolloutMarker &m)
{
    switch (m.kind) {
    case RolloutMarker::RolloutStart:
        return m.revision > 0 ? tr("Rollout to revision %1").arg(m.revision) : tr("Rollout start");
    case RolloutMarker::Rollback:
        return m.revision > 0 ? tr("Rollback to revision %1").arg(m.revision) : tr("Rollback");
    case RolloutMarker::Pause:
        return tr("Rollout paused");
    case RolloutMarker::Resume:
        return tr("Rollout resumed");
    }
    return {};
}

} // namespace models
