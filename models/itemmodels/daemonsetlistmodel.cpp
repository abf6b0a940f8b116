#include "models/itemmodels/daemonsetlistmodel.h"

#include <QColor>

#include <algorithm>
#include <map>

namespace models {

namespace {

bool sameRow(const DaemonSetInfo &a, const DaemonSetInfo &b)
{
    return a.counts == b.counts && a.badge == b.badge && a.badgeReason == b.badgeReason &&
           a.paused == b.paused && a.currentRevisionNumber == b.currentRevisionNumber &&
           a.strategyType == b.strategyType && a.maxUnavailable == b.maxUnavailable &&
           a.maxSurge == b.maxSurge;
}

QColor badgeColor(RolloutBadge b)
{
    switch (b) {
    case RolloutBadge::Complete:
        return QColor(0x2e, 0x7d, 0x32);
    case RolloutBadge::Progressing:
        return QColor(0x15, 0x65, 0xc0);
    case RolloutBadge::Paused:
        return QColor(0x8d, 0x6e, 0x00);
    case RolloutBadge::Stuck:
        return QColor(0xc6, 0x28, 0x28);
    case RolloutBadge::Settled: // done with exceptions: teal, neither green nor red
        return QColor(0x00, 0x69, 0x7c);
    }
    return {};
}

} // namespace

DaemonSetListModel::DaemonSetListModel(QObject *parent) : QAbstractItemModel(parent) {}

DaemonSetListModel::~DaemonSetListModel() = default;

int DaemonSetListModel::rowOfNamespace(const NamespaceNode *node) const
{
    for (std::size_t i = 0; i < m_namespaces.size(); ++i) {
        if (m_namespaces[i].get() == node)
            return static_cast<int>(i);
    }
    return -1;
}

QModelIndex DaemonSetListModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row == 0 && m_hasBackend ? createIndex(row, column, nullptr) : QModelIndex();
    if (parent.column() != 0)
        return {};
    if (parent.internalPointer() == nullptr) // the backend row: children are namespaces
        return row < static_cast<int>(m_namespaces.size())
                   ? createIndex(row, column, const_cast<int *>(&m_backendTag))
                   : QModelIndex();
    if (parent.internalPointer() == &m_backendTag) { // a namespace row: children are DaemonSets
        const NamespaceNode *ns = m_namespaces[static_cast<std::size_t>(parent.row())].get();
        return row < static_cast<int>(ns->daemonSets.size())
                   ? createIndex(row, column, const_cast<NamespaceNode *>(ns))
                   : QModelIndex();
    }
    return {};
}

QModelIndex DaemonSetListModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalPointer() == nullptr)
        return {};
    if (child.internalPointer() == &m_backendTag)
        return createIndex(0, 0, nullptr);
    const int row = rowOfNamespace(static_cast<const NamespaceNode *>(child.internalPointer()));
    return row < 0 ? QModelIndex() : createIndex(row, 0, const_cast<int *>(&m_backendTag));
}

int DaemonSetListModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return m_hasBackend ? 1 : 0;
    if (parent.column() != 0)
        return 0;
    if (parent.internalPointer() == nullptr)
        return static_cast<int>(m_namespaces.size());
    if (parent.internalPointer() == &m_backendTag)
        return static_cast<int>(m_namespaces[static_cast<std::size_t>(parent.row())]->daemonSets.size());
    return 0;
}

int DaemonSetListModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QModelIndex DaemonSetListModel::indexOfDaemonSet(const QString &dsKey) const
{
    for (std::size_t n = 0; n < m_namespaces.size(); ++n) {
        const auto &ds = m_namespaces[n]->daemonSets;
        for (std::size_t i = 0; i < ds.size(); ++i) {
            if (ds[i].key == dsKey)
                return createIndex(static_cast<int>(i), 0, m_namespaces[n].get());
        }
    }
    return {};
}

void DaemonSetListModel::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    if (!m_hasBackend) {
        beginInsertRows({}, 0, 0);
        m_hasBackend = true;
        m_backend = snapshot->backend;
        endInsertRows();
    } else if (m_backend.name != snapshot->backend.name ||
               m_backend.connected != snapshot->backend.connected ||
               m_backend.errorText != snapshot->backend.errorText ||
               m_backend.kind != snapshot->backend.kind) {
        m_backend = snapshot->backend;
        Q_EMIT dataChanged(index(0, 0), index(0, ColumnCount - 1));
    }
    const QModelIndex root = index(0, 0);

    std::map<QString, std::vector<DaemonSetInfo>> wanted;
    for (const auto &ds : snapshot->daemonSets)
        wanted[ds.namespace_].push_back(ds);
    for (auto &[ns, list] : wanted)
        std::sort(list.begin(), list.end(),
                  [](const DaemonSetInfo &a, const DaemonSetInfo &b) { return a.name < b.name; });

    // Namespaces that no longer hold DaemonSets go (bottom-up).
    for (int i = static_cast<int>(m_namespaces.size()) - 1; i >= 0; --i) {
        if (!wanted.count(m_namespaces[static_cast<std::size_t>(i)]->name)) {
            beginRemoveRows(root, i, i);
            m_namespaces.erase(m_namespaces.begin() + i);
            endRemoveRows();
        }
    }
    // Both lists are sorted by name: merge.
    std::size_t i = 0;
    for (auto &[ns, list] : wanted) {
        const bool isNew = i >= m_namespaces.size() || m_namespaces[i]->name != ns;
        if (isNew) {
            beginInsertRows(root, static_cast<int>(i), static_cast<int>(i));
            auto node = std::make_unique<NamespaceNode>();
            node->name = ns;
            m_namespaces.insert(m_namespaces.begin() + static_cast<std::ptrdiff_t>(i), std::move(node));
            endInsertRows();
        }
        const QModelIndex nsIndex = index(static_cast<int>(i), 0, root);
        if (syncNamespace(*m_namespaces[i], nsIndex, std::move(list)) && !isNew)
            Q_EMIT dataChanged(nsIndex.siblingAtColumn(DesiredColumn),
                               nsIndex.siblingAtColumn(AvailableColumn));
        ++i;
    }
}

bool DaemonSetListModel::syncNamespace(NamespaceNode &node, const QModelIndex &nsIndex,
                                       std::vector<DaemonSetInfo> next)
{
    auto &cur = node.daemonSets;
    bool any = false;
    auto present = [&](const QString &name) {
        return std::any_of(next.begin(), next.end(), [&](const DaemonSetInfo &d) { return d.name == name; });
    };
    for (int r = static_cast<int>(cur.size()) - 1; r >= 0; --r) {
        if (!present(cur[static_cast<std::size_t>(r)].name)) {
            beginRemoveRows(nsIndex, r, r);
            cur.erase(cur.begin() + r);
            endRemoveRows();
            any = true;
        }
    }
    for (std::size_t r = 0; r < next.size(); ++r) {
        const int row = static_cast<int>(r);
        if (r < cur.size() && cur[r].name == next[r].name) {
            const bool changed = !sameRow(cur[r], next[r]);
            cur[r] = std::move(next[r]); // keep the newest shared parts even when the row looks the same
            if (changed) {
                Q_EMIT dataChanged(index(row, 0, nsIndex), index(row, ColumnCount - 1, nsIndex));
                any = true;
            }
            continue;
        }
        beginInsertRows(nsIndex, row, row);
        cur.insert(cur.begin() + row, std::move(next[r]));
        endInsertRows();
        any = true;
    }
    return any;
}

QVariant DaemonSetListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int column = index.column();
    if (index.internalPointer() == nullptr) { // backend
        switch (role) {
        case Qt::DisplayRole:
            if (column == NameColumn)
                return m_backend.name.isEmpty() ? tr("(no cluster)") : m_backend.name;
            if (column == StatusColumn)
                return !m_backend.errorText.isEmpty()
                           ? m_backend.errorText
                           : (m_backend.connected ? tr("connected") : tr("disconnected"));
            return {};
        case Qt::ToolTipRole:
            return m_backend.errorText;
        case KeyRole:
            return QString();
        case ItemKindRole:
            return QVariant::fromValue(ItemKind::Backend);
        }
        return {};
    }
    if (index.internalPointer() == &m_backendTag) { // namespace
        const NamespaceNode &ns = *m_namespaces[static_cast<std::size_t>(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            if (column == NameColumn)
                return ns.name;
            if (column == DesiredColumn || column == UpdatedColumn || column == AvailableColumn) {
                int sum = 0;
                for (const auto &ds : ns.daemonSets)
                    sum += column == DesiredColumn   ? ds.counts.desired
                           : column == UpdatedColumn ? ds.counts.updated
                                                     : ds.counts.available;
                return sum;
            }
            return {};
        case KeyRole:
        case NamespaceRole:
            return ns.name;
        case ItemKindRole:
            return QVariant::fromValue(ItemKind::Namespace);
        }
        return {};
    }
    const auto *ns = static_cast<const NamespaceNode *>(index.internalPointer());
    const DaemonSetInfo &ds = ns->daemonSets[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return ds.name;
        case StatusColumn:
            return badgeName(ds.badge);
        case DesiredColumn:
            return ds.counts.desired;
        case UpdatedColumn:
            return ds.counts.updated;
        case AvailableColumn:
            return ds.counts.available;
        }
        return {};
    case Qt::ToolTipRole:
        return ds.badgeReason;
    case Qt::ForegroundRole:
        return column == StatusColumn ? QVariant(badgeColor(ds.badge)) : QVariant();
    case KeyRole:
        return ds.key;
    case ItemKindRole:
        return QVariant::fromValue(ItemKind::DaemonSet);
    case BadgeRole:
        return static_cast<int>(ds.badge);
    case BadgeReasonRole:
        return ds.badgeReason;
    case DesiredRole:
        return ds.counts.desired;
    case UpdatedRole:
        return ds.counts.updated;
    case AvailableRole:
        return ds.counts.available;
    case UnavailableRole:
        return ds.counts.unavailable;
    case PausedRole:
        return ds.paused;
    case NamespaceRole:
        return ds.namespace_;
    case CurrentRevisionRole:
        return ds.currentRevisionNumber;
    case StrategyRole:
        if (ds.strategyType == QLatin1String("RollingUpdate"))
            return tr("RollingUpdate (maxUnavailable %1, maxSurge %2)").arg(ds.maxUnavailable, ds.maxSurge);
        return ds.strategyType;
    }
    return {};
}

QVariant DaemonSetListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case StatusColumn:
        return tr("Status");
    case DesiredColumn:
        return tr("Desired");
    case UpdatedColumn:
        return tr("Updated");
    case AvailableColumn:
        return tr("Available");
    }
    return {};
}

QHash<int, QByteArray> DaemonSetListModel::roleNames() const
{
    auto names = QAbstractItemModel::roleNames();
    names.insert(KeyRole, "key");
    names.insert(ItemKindRole, "itemKind");
    names.insert(BadgeRole, "badge");
    names.insert(BadgeReasonRole, "badgeReason");
    names.insert(DesiredRole, "desired");
    names.insert(UpdatedRole, "updated");
    names.insert(AvailableRole, "available");
    names.insert(UnavailableRole, "unavailable");
    names.insert(PausedRole, "paused");
    names.insert(NamespaceRole, "namespace");
    names.insert(CurrentRevisionRole, "currentRevision");
    names.insert(StrategyRole, "strategy");
    return names;
}

} // namespace models
