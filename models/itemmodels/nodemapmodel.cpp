#include "models/itemmodels/nodemapmodel.h"

#include "models/kube/timeutil.h"
#include "models/planners/nodelag.h"

#include <QDateTime>

#include <algorithm>
#include <map>

namespace models {

namespace {

// Natural order for zones and node names ("node-2" before "node-10"), computed once per tile
// as a key so sorting and merging compare plain strings. A digit run becomes a control
// character giving its length (leading zeros dropped) followed by the digits, so runs
// compare by value and before any printable character. The original names end the key:
// the order is total even for "a01" and "a1".
void appendNatural(QString &key, const QString &text)
{
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n;) {
        if (!text.at(i).isDigit()) {
            key += text.at(i++);
            continue;
        }
        while (i < n && text.at(i) == u'0' && i + 1 < n && text.at(i + 1).isDigit())
            ++i;
        qsizetype end = i;
        while (end < n && text.at(end).isDigit())
            ++end;
        key += QChar(char16_t(0x10 + qMin<qsizetype>(end - i, 0xff)));
        key += QStringView(text).mid(i, end - i);
        i = end;
    }
}

QString sortKey(const NodeTile &t)
{
    QString key;
    key.reserve(2 * (t.zone.size() + t.node.size()) + 8);
    appendNatural(key, t.zone);
    key += QChar(u'\0');
    appendNatural(key, t.node);
    key += QChar(u'\0');
    key += t.zone;
    key += QChar(u'\0');
    key += t.node;
    return key;
}

} // namespace

NodeMapModel::NodeMapModel(QObject *parent) : QAbstractListModel(parent) {}

int NodeMapModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_tiles.size());
}

QVariant NodeMapModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NodeTile &t = tile(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case NodeNameRole:
        return t.node;
    case Qt::ToolTipRole:
        return toolTip(t);
    case Qt::AccessibleTextRole:
        return tr("%1, %2").arg(t.node, stateName(t.podState));
    case ZoneRole:
        return t.zone;
    case LabelsRole:
        return t.labels;
    case PodNameRole:
        return t.podName;
    case RevisionHashRole:
        return t.revisionHash;
    case RevisionNumberRole:
        return t.revisionNumber;
    case ColorKeyRole:
        return t.colorKey >= 0 ? t.colorKey : t.revisionNumber;
    case PodStateRole:
        return static_cast<int>(t.podState);
    case PodCreatedRole:
        return t.podCreatedMs;
    case NodeConditionsRole:
        return t.nodeConditions;
    case NodeReadyRole:
        return t.nodeReady;
    case HighlightedRole:
        return false;
    case TileRole:
        return QVariant::fromValue(t);
    case LagCauseRole:
        return static_cast<int>(t.lag);
    case LagDetailRole:
        return t.lagDetail;
    default:
        return {};
    }
}

QHash<int, QByteArray> NodeMapModel::roleNames() const
{
    return {
        {Qt::DisplayRole, "display"},
        {NodeNameRole, "nodeName"},
        {ZoneRole, "zone"},
        {LabelsRole, "labels"},
        {PodNameRole, "podName"},
        {RevisionHashRole, "revisionHash"},
        {RevisionNumberRole, "revisionNumber"},
        {PodStateRole, "podState"},
        {PodCreatedRole, "podCreated"},
        {NodeConditionsRole, "nodeConditions"},
        {NodeReadyRole, "nodeReady"},
        {HighlightedRole, "highlighted"},
        {TileRole, "tile"},
        {LagCauseRole, "lagCause"},
        {LagDetailRole, "lagDetail"},
    };
}

namespace {
constexpr int kGone = -1; // a row whose node has no tile now
} // namespace

void NodeMapModel::setTiles(std::vector<NodeTile> tiles)
{
    // Key by node name: the first tile of a name wins, so a caller's duplicate cannot make
    // two rows with one key.
    tiles = uniqueByNode(std::move(tiles));

    // A node keeps its row when it is still there in the same zone (its sort key is the
    // same); every other old row goes and every other new tile comes. Routine updates touch
    // no key and sort nothing.
    std::vector<int> sourceOfRow(m_tiles.size(), kGone); // index into tiles, per current row
    std::vector<int> fresh;
    for (size_t i = 0; i < tiles.size(); ++i) {
        const int row = m_rowOfNode.value(tiles[i].node, -1);
        if (row >= 0 && m_tiles[static_cast<size_t>(row)].zone == tiles[i].zone)
            sourceOfRow[static_cast<size_t>(row)] = static_cast<int>(i);
        else
            fresh.push_back(static_cast<int>(i));
    }
    bool structural = !fresh.empty();

    // Removals from the back so earlier row numbers stay valid; contiguous rows go together.
    if (dropGoneRows(sourceOfRow))
        structural = true;

    // Insertions: the new tiles in key order, merged into the kept rows (already in order);
    // tiles that land between the same two rows arrive in one insert.
    if (!fresh.empty())
        insertFreshRows(tiles, std::move(fresh), sourceOfRow);

    // Kept rows whose values changed: one dataChanged per run of adjacent changed rows.
    updateKeptRows(tiles, sourceOfRow);

    if (structural)
        rebuildIndex();
    recount();
}

std::vector<NodeTile> NodeMapModel::uniqueByNode(std::vector<NodeTile> tiles)
{
    QHash<QString, bool> seen;
    seen.reserve(static_cast<qsizetype>(tiles.size()));
    std::vector<NodeTile> unique;
    unique.reserve(tiles.size());
    for (auto &t : tiles) {
        if (!seen.contains(t.node)) {
            seen.insert(t.node, true);
            unique.push_back(std::move(t));
        }
    }
    return unique;
}

// Removes the rows whose node has no tile (or another zone) now; whether any went.
bool NodeMapModel::dropGoneRows(std::vector<int> &sourceOfRow)
{
    bool removed = false;
    for (int last = static_cast<int>(m_tiles.size()) - 1; last >= 0;) {
        if (sourceOfRow[static_cast<size_t>(last)] != kGone) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && sourceOfRow[static_cast<size_t>(first - 1)] == kGone)
            --first;
        beginRemoveRows({}, first, last);
        m_tiles.erase(m_tiles.begin() + first, m_tiles.begin() + last + 1);
        m_keys.erase(m_keys.begin() + first, m_keys.begin() + last + 1);
        sourceOfRow.erase(sourceOfRow.begin() + first, sourceOfRow.begin() + last + 1);
        endRemoveRows();
        removed = true;
        last = first - 1;
    }
    return removed;
}

void NodeMapModel::insertFreshRows(std::vector<NodeTile> &tiles, std::vector<int> fresh,
                                   std::vector<int> &sourceOfRow)
{
    std::vector<QString> freshKeys(tiles.size());
    for (int i : fresh)
        freshKeys[static_cast<size_t>(i)] = sortKey(tiles[static_cast<size_t>(i)]);
    std::sort(fresh.begin(), fresh.end(), [&](int a, int b) {
        return freshKeys[static_cast<size_t>(a)] < freshKeys[static_cast<size_t>(b)];
    });
    size_t pos = 0;
    for (size_t k = 0; k < fresh.size();) {
        const QString &key = freshKeys[static_cast<size_t>(fresh[k])];
        while (pos < m_keys.size() && m_keys[pos] < key)
            ++pos;
        size_t end = k + 1;
        while (end < fresh.size() &&
               (pos == m_keys.size() || freshKeys[static_cast<size_t>(fresh[end])] < m_keys[pos]))
            ++end;
        const auto count = static_cast<std::ptrdiff_t>(end - k);
        beginInsertRows({}, static_cast<int>(pos), static_cast<int>(pos) + static_cast<int>(count) - 1);
        std::vector<NodeTile> newTiles;
        std::vector<QString> newKeys;
        newTiles.reserve(end - k);
        newKeys.reserve(end - k);
        for (size_t n = k; n < end; ++n) {
            const auto i = static_cast<size_t>(fresh[n]);
            newTiles.push_back(std::move(tiles[i]));
            newKeys.push_back(std::move(freshKeys[i]));
        }
        const auto at = static_cast<std::ptrdiff_t>(pos);
        m_tiles.insert(m_tiles.begin() + at, std::make_move_iterator(newTiles.begin()),
                       std::make_move_iterator(newTiles.end()));
        m_keys.insert(m_keys.begin() + at, std::make_move_iterator(newKeys.begin()),
                      std::make_move_iterator(newKeys.end()));
        sourceOfRow.insert(sourceOfRow.begin() + at, static_cast<size_t>(count), kGone);
        endInsertRows();
        pos += static_cast<size_t>(count);
        k = end;
    }
}

void NodeMapModel::updateKeptRows(std::vector<NodeTile> &tiles, std::vector<int> &sourceOfRow)
{
    auto changed = [&](size_t r) {
        const int src = sourceOfRow[r];
        return src != kGone && !(m_tiles[r] == tiles[static_cast<size_t>(src)]);
    };
    for (size_t r = 0; r < m_tiles.size();) {
        if (!changed(r)) {
            ++r;
            continue;
        }
        size_t end = r;
        while (end < m_tiles.size() && changed(end)) {
            m_tiles[end] = std::move(tiles[static_cast<size_t>(sourceOfRow[end])]);
            sourceOfRow[end] = kGone;
            ++end;
        }
        emit dataChanged(index(static_cast<int>(r)), index(static_cast<int>(end - 1)));
        r = end;
    }
}

int NodeMapModel::rowOfNode(const QString &node) const
{
    return m_rowOfNode.value(node, -1);
}

int NodeMapModel::countForRevision(qint64 revisionNumber) const
{
    for (const auto &c : m_counts) {
        if (c.revisionNumber == revisionNumber)
            return c.count;
    }
    return 0;
}

void NodeMapModel::setReferenceTime(qint64 msSinceEpoch)
{
    m_referenceTime = msSinceEpoch;
}

QString NodeMapModel::stateName(NodeTile::PodState state)
{
    switch (state) {
    case NodeTile::PodState::Ready:
        return tr("ready");
    case NodeTile::PodState::NotReady:
        return tr("not ready");
    case NodeTile::PodState::Terminating:
        return tr("terminating");
    case NodeTile::PodState::Missing:
        return tr("missing");
    case NodeTile::PodState::Surging:
        return tr("surging");
    case NodeTile::PodState::NotScheduled:
        return tr("not scheduled");
    }
    return {};
}

QString NodeMapModel::toolTip(const NodeTile &t) const
{
    QStringList lines;
    lines << tr("Node %1 (%2)").arg(t.node, t.nodeReady ? tr("Ready") : tr("NotReady"));
    if (!t.zone.isEmpty())
        lines << tr("Zone: %1").arg(t.zone);
    if (!t.podName.isEmpty())
        lines << tr("Pod: %1 (%2)").arg(t.podName, stateName(t.podState));
    else
        lines << tr("Pod: none (%1)").arg(stateName(t.podState));
    if (t.revisionNumber >= 0) {
        lines << (t.revisionHash.isEmpty()
                      ? tr("Revision: %1").arg(t.revisionNumber)
                      : tr("Revision: %1, hash %2").arg(t.revisionNumber).arg(t.revisionHash));
    }
    if (t.podCreatedMs > 0) {
        const qint64 now = m_referenceTime > 0 ? m_referenceTime : QDateTime::currentMSecsSinceEpoch();
        lines << tr("Age: %1").arg(
            QString::fromStdString(kube::humanAge(std::max<qint64>(0, now - t.podCreatedMs))));
    }
    if (!t.nodeConditions.isEmpty())
        lines << tr("Conditions: %1").arg(t.nodeConditions);
    if (t.lag != NodeTile::LagCause::None) {
        lines << (t.lagDetail.isEmpty() ? tr("Behind: %1").arg(lagCauseName(t.lag))
                                        : tr("Behind: %1 — %2").arg(lagCauseName(t.lag), t.lagDetail));
    }
    return lines.join(u'\n');
}

void NodeMapModel::rebuildIndex()
{
    m_rowOfNode.clear();
    m_rowOfNode.reserve(static_cast<qsizetype>(m_tiles.size()));
    for (size_t r = 0; r < m_tiles.size(); ++r)
        m_rowOfNode.insert(m_tiles[r].node, static_cast<int>(r));
}

void NodeMapModel::recount()
{
    std::map<qint64, RevisionCount> counts;
    for (const auto &t : m_tiles) {
        if (t.revisionNumber < 0)
            continue;
        auto &c = counts[t.revisionNumber];
        if (c.count == 0) {
            c.revisionNumber = t.revisionNumber;
            c.revisionHash = t.revisionHash;
            c.colorKey = t.colorKey >= 0 ? t.colorKey : t.revisionNumber;
        }
        ++c.count;
    }
    std::vector<RevisionCount> list;
    list.reserve(counts.size());
    for (auto &[rev, c] : counts)
        list.push_back(std::move(c));
    if (list != m_counts) {
        m_counts = std::move(list);
        emit revisionCountsChanged();
    }
    std::map<NodeTile::LagCause, int> lags;
    for (const auto &t : m_tiles) {
        if (t.lag != NodeTile::LagCause::None)
            ++lags[t.lag];
    }
    std::vector<LagCount> lagList;
    lagList.reserve(lags.size());
    for (const auto &[cause, n] : lags)
        lagList.push_back({cause, n});
    if (lagList != m_lagCounts) {
        m_lagCounts = std::move(lagList);
        emit lagCountsChanged();
    }
}

} // namespace models
