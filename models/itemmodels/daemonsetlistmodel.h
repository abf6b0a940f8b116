#pragma once
// DaemonSetListModel — the explorer tree: backend → namespaces → DaemonSets. One root row for
// the backend; below it the namespaces that hold DaemonSets (sorted); below each its
// DaemonSets (sorted by name). Updates are incremental by key: namespaces and DaemonSets are
// inserted and removed where they appear and disappear, and a DaemonSet whose counts or badge
// changed gets dataChanged for its row; a routine snapshot never resets the model.
//
// Index internal pointers: the backend row has none; a namespace row points at the backend
// node; a DaemonSet row points at its namespace node (heap-allocated, stable across updates).

#include "models/snapshot/snapshot.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace models {

class DaemonSetListModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, StatusColumn, DesiredColumn, UpdatedColumn, AvailableColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 1, // backend: empty; namespace: its name; DaemonSet: "ns/name"
        ItemKindRole,               // ItemKind
        BadgeRole,                  // int(RolloutBadge), DaemonSets only
        BadgeReasonRole,            // QString
        DesiredRole,                // int
        UpdatedRole,                // int
        AvailableRole,              // int
        UnavailableRole,            // int
        PausedRole,                 // bool
        NamespaceRole,              // QString
        CurrentRevisionRole,        // qint64
        StrategyRole,               // QString "RollingUpdate (maxUnavailable 1, maxSurge 0)"
    };
    Q_ENUM(Role)
    enum class ItemKind { Backend, Namespace, DaemonSet };
    Q_ENUM(ItemKind)

    explicit DaemonSetListModel(QObject *parent = nullptr);
    ~DaemonSetListModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    QModelIndex indexOfDaemonSet(const QString &dsKey) const; // column 0, invalid when absent
    QModelIndex backendIndex() const { return index(0, 0); }

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);

private:
    struct NamespaceNode
    {
        QString name;
        std::vector<DaemonSetInfo> daemonSets; // by name
    };
    int rowOfNamespace(const NamespaceNode *node) const;
    // Returns whether any DaemonSet row changed (the namespace's sums may have).
    bool syncNamespace(NamespaceNode &node, const QModelIndex &nsIndex, std::vector<DaemonSetInfo> next);

    BackendInfo m_backend;
    bool m_hasBackend = false;
    std::vector<std::unique_ptr<NamespaceNode>> m_namespaces; // by name
    int m_backendTag = 0;                                     // its address marks namespace rows
};

} // namespace models
