#pragma once
// Side-by-side diff of two pod templates: the semantic summary on top ("image a → b", "env X
// added"), below it both templates as YAML in synchronised panes with changed lines and
// intra-line changes highlighted, navigation from change to change (F7 / Shift+F7,
// Alt+Down / Alt+Up) and a switch that hides server-side noise (defaults, generated labels).
// All diffing is done by the diff library; this widget only presents diff::TemplateDiff.

#include "models/diff/templatediff.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QListWidget;
class QToolButton;

namespace gui {

class DiffPane;

class DiffView : public QWidget
{
    Q_OBJECT

public:
    explicit DiffView(QWidget *parent = nullptr);

    void setTemplates(const QString &leftTitle, const kube::Json &left, const QString &rightTitle,
                      const kube::Json &right);
    void clear();

    // Change blocks: runs of consecutive changed rows in the side-by-side view.
    int changeCount() const { return static_cast<int>(m_blocks.size()); }
    int currentChange() const { return m_current; } // -1 when there are no changes
    // First and last side-by-side row of a change block.
    QPair<int, int> changeRows(int index) const;

    bool hideServerNoise() const { return m_hideNoise; }
    void setHideServerNoise(bool hide);

    // The diff as shown (after noise hiding), for exports.
    const diff::TemplateDiff &templateDiff() const { return m_diff; }
    // The summary list's lines, as shown ("agent: image a → b"); empty when identical.
    QStringList summaryLines() const;
    // The change block that shows summary entry `index` (choosing the entry in the list goes
    // there), or -1 when no block mentions it.
    int changeForSummary(int index) const;

    DiffPane *leftPane() const { return m_left; }
    DiffPane *rightPane() const { return m_right; }

public slots:
    void nextChange();
    void previousChange();
    void setCurrentChange(int index);

signals:
    void currentChangeChanged(int index);
    void hideServerNoiseChanged(bool hide);
    void diffChanged();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // Scrolls the panes sideways so the current change's changed text is in view.
    void revealCurrentChange();
    void recompute();
    void fillSummary();
    void updateNavigation();
    void syncScrollBars();

    QString m_leftTitle;
    QString m_rightTitle;
    kube::Json m_leftTemplate;
    kube::Json m_rightTemplate;
    bool m_hideNoise = false;
    diff::TemplateDiff m_diff;
    std::vector<QPair<int, int>> m_blocks;
    int m_current = -1;

    QListWidget *m_summary = nullptr;
    QLabel *m_noiseHint = nullptr;
    QCheckBox *m_hideNoiseBox = nullptr;
    QLabel *m_position = nullptr;
    QToolButton *m_previous = nullptr;
    QToolButton *m_next = nullptr;
    QLabel *m_leftLabel = nullptr;
    QLabel *m_rightLabel = nullptr;
    DiffPane *m_left = nullptr;
    DiffPane *m_right = nullptr;
};

} // namespace gui
