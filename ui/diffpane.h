#pragma once
// One side of the side-by-side diff: read-only YAML with line numbers, whole-line highlights
// (added, removed, changed, filler where the other side has lines) and intra-line highlights.
// Both sides get the same number of rows, so equal scroll positions show matching lines.

#include <QList>
#include <QPlainTextEdit>

namespace gui {

class DiffPane : public QPlainTextEdit
{
    Q_OBJECT

public:
    enum class LineKind { Equal, Added, Removed, Changed, Filler };
    enum class Side { Old, New };

    struct Line
    {
        LineKind kind = LineKind::Equal;
        int number = 0; // 1-based line number in this side's text, 0 for filler rows
        QString text;
        QList<QPair<int, int>> changed; // intra-line changes: start, length (QString units)
    };

    explicit DiffPane(Side side, QWidget *parent = nullptr);

    void setLines(QList<Line> lines);
    const QList<Line> &lines() const { return m_lines; }
    // Rows of the current change, marked in the gutter; firstRow < 0 clears.
    void setCurrentRows(int firstRow, int lastRow);
    // The horizontal scroll position that shows the changed text of rows first..last (their
    // intra-line changes; whole rows without them), with a margin, when it does not fit the
    // viewport at the current position; the current position when it does.
    int scrollToReveal(int firstRow, int lastRow) const;

    // Backgrounds, derived from the palette so they work on light and dark themes.
    static QColor lineColor(LineKind kind, const QPalette &palette);
    static QColor intraColor(Side side, const QPalette &palette);

    int gutterWidth() const;
    void paintGutter(QPaintEvent *event, QWidget *gutter);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void applyHighlights();
    void updateGutterGeometry();

    Side m_side;
    QList<Line> m_lines;
    QWidget *m_gutter = nullptr;
    int m_currentFirst = -1;
    int m_currentLast = -1;
};

} // namespace gui
