#include "models/itemmodels/eventfiltermodel.h"

#include "models/itemmodels/eventlistmodel.h"

namespace models {

EventFilterModel::EventFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setDynamicSortFilter(true);
    sort(EventListModel::TimeColumn, Qt::DescendingOrder);
}

void EventFilterModel::setSearchText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

void EventFilterModel::setTypes(Types types)
{
    if (types == m_types)
        return;
    m_types = types;
    invalidateFilter();
}

bool EventFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_types != Types::All) {
        const bool warning = index.data(EventListModel::WarningRole).toBool();
        if (warning != (m_types == Types::Warning))
            return false;
    }
    const QString text = m_text.trimmed();
    if (text.isEmpty())
        return true;
    for (const int role : {int(EventListModel::ReasonRole), int(EventListModel::ObjectRole),
                           int(EventListModel::MessageRole), int(EventListModel::TypeRole)})
        if (index.data(role).toString().contains(text, Qt::CaseInsensitive))
            return true;
    return false;
}

bool EventFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    auto value = [](const QModelIndex &i, int role) { return i.siblingAtColumn(0).data(role); };
    switch (left.column()) {
    case EventListModel::TimeColumn: {
        const qint64 a = value(left, EventListModel::TimeRole).toLongLong();
        const qint64 b = value(right, EventListModel::TimeRole).toLongLong();
        if (a != b)
            return a < b;
        break; // equal times keep a stable order: by object, then reason
    }
    case EventListModel::CountColumn: {
        const int a = value(left, EventListModel::CountRole).toInt();
        const int b = value(right, EventListModel::CountRole).toInt();
        if (a != b)
            return a < b;
        break;
    }
    default: {
        const int c = QString::localeAwareCompare(left.data().toString(), right.data().toString());
        if (c != 0)
            return c < 0;
        break;
    }
    }
    return value(left, EventListModel::KeyRole).toString() < value(right, EventListModel::KeyRole).toString();
}

} // namespace models
