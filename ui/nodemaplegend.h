#pragma once
// The key of the node map: one swatch per revision with its pod count (click to highlight
// that revision), then the outline styles of the pod states. Wraps onto several lines when
// narrow; the node map places it above its tiles.

#include <QWidget>

#include <vector>

namespace gui {

class NodeMapLegend : public QWidget
{
    Q_OBJECT

public:
    struct Entry
    {
        qint64 revisionNumber = -1;
        QString revisionHash;
        qint64 colorKey = -1; // RevisionPalette key; revisionNumber when -1
        int count = 0;
        bool operator==(const Entry &) const = default;
    };

    explicit NodeMapLegend(QWidget *parent = nullptr);

    void setEntries(std::vector<Entry> entries);
    const std::vector<Entry> &entries() const { return m_entries; }
    void setHighlightedRevision(qint64 revisionNumber);

    // The text of one revision entry as painted, e.g. "rev 3 · 1,234".
    static QString entryText(const Entry &entry);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void revisionClicked(qint64 revisionNumber);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Item
    {
        QRect rect;           // whole item (swatch + text)
        qint64 revision = -1; // -1 for state items
        qint64 colorKey = -1; // RevisionPalette key of a revision item
        int state = -1;       // NodeTile::PodState for state items, -2 for the node marker, -3 cordoned
        QString text;
        QString toolTip;
    };
    std::vector<Item> layoutItems(int width, int *height) const;
    int swatchSize() const;

    std::vector<Entry> m_entries;
    qint64 m_highlighted = -1;
};

} // namespace gui
