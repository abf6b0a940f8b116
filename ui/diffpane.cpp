#include "ui/diffpane.h"

#include <QFontDatabase>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

#include <algorithm>

namespace gui {

namespace {

QColor mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

const QColor green(0x2d, 0xa4, 0x4e);
const QColor red(0xcf, 0x22, 0x2e);
const QColor yellow(0xd4, 0xa7, 0x2c);

// The gutter: line numbers and the current-change marker, painted by the pane.
class Gutter : public QWidget
{
public:
    explicit Gutter(DiffPane *pane) : QWidget(pane), m_pane(pane) {}
    QSize sizeHint() const override { return {m_pane->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_pane->paintGutter(event, this); }

private:
    DiffPane *m_pane;
};

} // namespace

DiffPane::DiffPane(Side side, QWidget *parent) : QPlainTextEdit(parent), m_side(side)
{
    m_gutter = new Gutter(this);
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy != 0)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateGutterGeometry(); });
    updateGutterGeometry();
}

QColor DiffPane::lineColor(LineKind kind, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const qreal strength = isDark(palette) ? 0.32 : 0.2;
    switch (kind) {
    case LineKind::Equal:
        return {};
    case LineKind::Added:
        return mix(base, green, strength);
    case LineKind::Removed:
        return mix(base, red, strength);
    case LineKind::Changed:
        return mix(base, yellow, strength + 0.05);
    case LineKind::Filler:
        return mix(base, palette.color(QPalette::Mid), 0.3);
    }
    return {};
}

QColor DiffPane::intraColor(Side side, const QPalette &palette)
{
    const qreal strength = isDark(palette) ? 0.55 : 0.42;
    return mix(palette.color(QPalette::Base), side == Side::Old ? red : green, strength);
}

void DiffPane::setLines(QList<Line> lines)
{
    m_lines = std::move(lines);
    QStringList texts;
    texts.reserve(m_lines.size());
    for (const auto &l : std::as_const(m_lines))
        texts << l.text;
    setPlainText(texts.join(u'\n'));
    m_currentFirst = m_currentLast = -1;
    updateGutterGeometry();
    applyHighlights();
}

int DiffPane::scrollToReveal(int firstRow, int lastRow) const
{
    const QScrollBar *h = horizontalScrollBar();
    int left = -1;
    int right = -1;
    const QFontMetrics fm(font());
    for (int row = std::max(0, firstRow); row <= lastRow && row < m_lines.size(); ++row) {
        const Line &line = m_lines[row];
        int start = 0;
        int end = int(line.text.size());
        if (!line.changed.isEmpty()) {
            start = line.changed.front().first;
            end = line.changed.back().first + line.changed.back().second;
        }
        if (end <= start)
            continue;
        const int x0 = fm.horizontalAdvance(line.text.left(start));
        const int x1 = fm.horizontalAdvance(line.text.left(end));
        left = left < 0 ? x0 : std::min(left, x0);
        right = std::max(right, x1);
    }
    if (left < 0)
        return h->value();
    const int margin = fm.averageCharWidth() * 4;
    const int width = viewport()->width() - 2 * int(document()->documentMargin());
    int value = h->value();
    if (right + margin > value + width)
        value = right + margin - width;
    if (left - margin < value)
        value = std::max(0, left - margin);
    return std::clamp(value, h->minimum(), h->maximum());
}

void DiffPane::setCurrentRows(int firstRow, int lastRow)
{
    m_currentFirst = firstRow;
    m_currentLast = firstRow < 0 ? -1 : lastRow;
    m_gutter->update();
}

void DiffPane::applyHighlights()
{
    const QPalette pal = palette();
    QList<QTextEdit::ExtraSelection> selections;
    const QColor intra = intraColor(m_side, pal);
    QTextBlock block = document()->firstBlock();
    for (qsizetype row = 0; row < m_lines.size() && block.isValid(); ++row, block = block.next()) {
        const Line &line = m_lines[row];
        if (line.kind == LineKind::Equal)
            continue;
        QTextEdit::ExtraSelection whole;
        whole.cursor = QTextCursor(block);
        whole.format.setBackground(lineColor(line.kind, pal));
        whole.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections << whole;
        for (const auto &[start, length] : line.changed) {
            QTextEdit::ExtraSelection part;
            part.cursor = QTextCursor(block);
            part.cursor.setPosition(block.position() + start);
            part.cursor.setPosition(block.position() + start + length, QTextCursor::KeepAnchor);
            part.format.setBackground(intra);
            selections << part;
        }
    }
    setExtraSelections(selections);
}

int DiffPane::gutterWidth() const
{
    int maxNumber = 1;
    for (const auto &l : m_lines)
        maxNumber = qMax(maxNumber, l.number);
    const int digits = QString::number(maxNumber).size();
    return 10 + fontMetrics().horizontalAdvance(u'9') * qMax(2, digits);
}

void DiffPane::updateGutterGeometry()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(cr.left(), cr.top(), gutterWidth(), cr.height());
}

void DiffPane::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void DiffPane::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyHighlights();
        m_gutter->update();
    } else if (event->type() == QEvent::FontChange) {
        updateGutterGeometry();
    }
}

void DiffPane::paintGutter(QPaintEvent *event, QWidget *gutter)
{
    QPainter p(gutter);
    const QPalette pal = palette();
    p.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    p.setFont(font());
    QTextBlock block = firstVisibleBlock();
    int row = block.blockNumber();
    qreal top = blockBoundingGeometry(block).translated(contentOffset()).top();
    const int w = gutter->width();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (top + height >= event->rect().top() && row < m_lines.size()) {
            const Line &line = m_lines[row];
            const QRect r(0, qRound(top), w, height);
            if (line.kind != LineKind::Equal)
                p.fillRect(r, lineColor(line.kind, pal));
            if (row >= m_currentFirst && row <= m_currentLast)
                p.fillRect(QRect(0, r.top(), 3, r.height()), pal.color(QPalette::Highlight));
            if (line.number > 0) {
                p.setPen(
                    pal.color(line.kind == LineKind::Equal ? QPalette::PlaceholderText : QPalette::Text));
                p.drawText(r.adjusted(0, 0, -5, 0), Qt::AlignRight | Qt::AlignVCenter,
                           QString::number(line.number));
            }
        }
        top += height;
        block = block.next();
        ++row;
    }
}

} // namespace gui
