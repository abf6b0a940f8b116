#pragma once
// KeyedTableModel — a table model over a vector of rows that each carry a stable key, updated
// incrementally: applyRows() turns "the new list" into row removals, moves, insertions and
// dataChanged for rows whose content changed, never a reset. Views keep their selection and
// scroll position through routine updates, and persistent indexes follow their rows.
//
// Derived models supply rowKey/rowEqual and data(); the order of `next` is the display order.

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QString>

#include <iterator>
#include <vector>

namespace models {

template <typename Row> class KeyedTableModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }

    const Row *rowAt(int row) const
    {
        return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<std::size_t>(row)]
                                                                 : nullptr;
    }
    int rowOf(const QString &key) const
    {
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            if (rowKey(m_rows[i]) == key)
                return static_cast<int>(i);
        }
        return -1;
    }

protected:
    virtual QString rowKey(const Row &row) const = 0;
    virtual bool rowEqual(const Row &a, const Row &b) const = 0;

    // Keys in `next` must be unique.
    void applyRows(std::vector<Row> next)
    {
        const int columns = columnCount();
        QHash<QString, int> wanted;
        for (std::size_t i = 0; i < next.size(); ++i)
            wanted.insert(rowKey(next[i]), static_cast<int>(i));

        // 1. Remove rows that are gone, bottom-up, in contiguous blocks.
        for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0;) {
            if (wanted.contains(rowKey(m_rows[static_cast<std::size_t>(i)]))) {
                --i;
                continue;
            }
            int first = i;
            while (first > 0 && !wanted.contains(rowKey(m_rows[static_cast<std::size_t>(first - 1)])))
                --first;
            beginRemoveRows({}, first, i);
            m_rows.erase(m_rows.begin() + first, m_rows.begin() + i + 1);
            endRemoveRows();
            i = first - 1;
        }

        // 2. Walk the new order: keep, move up, or insert (runs of new rows as one block).
        QSet<QString> present;
        for (const Row &r : m_rows)
            present.insert(rowKey(r));
        for (std::size_t i = 0; i < next.size(); ++i) {
            const QString key = rowKey(next[i]);
            const int row = static_cast<int>(i);
            if (i < m_rows.size() && rowKey(m_rows[i]) == key) {
                if (!rowEqual(m_rows[i], next[i])) {
                    m_rows[i] = std::move(next[i]);
                    Q_EMIT dataChanged(index(row, 0), index(row, columns - 1));
                }
                continue;
            }
            if (!present.contains(key)) {
                std::size_t end = i + 1;
                while (end < next.size() && !present.contains(rowKey(next[end])))
                    ++end;
                beginInsertRows({}, row, static_cast<int>(end) - 1);
                m_rows.insert(m_rows.begin() + row,
                              std::make_move_iterator(next.begin() + static_cast<std::ptrdiff_t>(i)),
                              std::make_move_iterator(next.begin() + static_cast<std::ptrdiff_t>(end)));
                endInsertRows();
                i = end - 1;
                continue;
            }
            int found = -1;
            for (std::size_t j = i + 1; j < m_rows.size(); ++j) {
                if (rowKey(m_rows[j]) == key) {
                    found = static_cast<int>(j);
                    break;
                }
            }
            if (found >= 0) {
                beginMoveRows({}, found, found, {}, row);
                Row moved = std::move(m_rows[static_cast<std::size_t>(found)]);
                m_rows.erase(m_rows.begin() + found);
                m_rows.insert(m_rows.begin() + row, std::move(moved));
                endMoveRows();
                if (!rowEqual(m_rows[i], next[i])) {
                    m_rows[i] = std::move(next[i]);
                    Q_EMIT dataChanged(index(row, 0), index(row, columns - 1));
                }
                continue;
            }
        }
    }

    // Rows whose displayed value depends on the clock (ages): one dataChanged for the column.
    void columnChanged(int column)
    {
        if (!m_rows.empty())
            Q_EMIT dataChanged(index(0, column), index(static_cast<int>(m_rows.size()) - 1, column));
    }

    std::vector<Row> m_rows;
};

} // namespace models
