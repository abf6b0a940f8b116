#pragma once
// EventFilterModel — the Events tab's view of an EventListModel: the rows whose reason, object or
// message contain the search text (case-insensitive) and whose type is the one asked for; sorted
// by any column, times and counts by their values (not their text), newest first by default.

#include <QSortFilterProxyModel>

namespace models {

class EventFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    enum class Types { All, Warning, Normal };
    Q_ENUM(Types)

    explicit EventFilterModel(QObject *parent = nullptr);

    void setSearchText(const QString &text);
    QString searchText() const { return m_text; }
    void setTypes(Types types);
    Types types() const { return m_types; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_text;
    Types m_types = Types::All;
};

} // namespace models
