#pragma once
// CommandPalette — "go to anything" from the keyboard, as k9s's `:` prompt: one line of text
// filters every DaemonSet, node, node-agent upgrade and menu command the window offers; Up/Down
// (and Page Up/Down) move through the matches without leaving the text, Return runs the chosen
// one and closes, Escape closes. Every space-separated word must occur in the entry (kind, name
// or detail, case-insensitive); names that start with the text come first, then names that
// contain it, then the rest, each group in the order the entries were given.
//
// ShortcutSheet — the window's keyboard shortcuts, read from its menus (so the list cannot
// drift from the actions), plus the keys that belong to no menu.

#include <QDialog>

#include <functional>
#include <vector>

class QLineEdit;
class QListWidget;
class QMenuBar;
class QTreeWidget;

namespace gui {

// A menu text as a person reads it: "&Roll Back…" -> "Roll Back…" ("&&" stays one "&").
QString plainMenuText(QString text);

struct PaletteEntry
{
    QString kind;   // "DaemonSet", "Node", "Upgrade", "Command" (translated)
    QString text;   // what the entry is called: "kube-system/calico-node", "node-b-4", "Roll Back…"
    QString detail; // one line shown after it: state, zone, shortcut
    std::function<void()> run;
};

class CommandPalette : public QDialog
{
    Q_OBJECT

public:
    explicit CommandPalette(std::vector<PaletteEntry> entries, QWidget *parent = nullptr);

    QLineEdit *input() const { return m_input; }
    QListWidget *list() const { return m_list; }
    // The entries shown for the current text, as "kind: text", in their order.
    QStringList shownEntries() const;

    // 0 when `text` starts with the whole query, 1 when it contains it, 2 when only the
    // entry's words match, -1 when some word of the query occurs nowhere in the entry.
    static int matchRank(const PaletteEntry &entry, const QString &query);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refilter();
    void runCurrent();

    std::vector<PaletteEntry> m_entries;
    std::vector<int> m_shown; // indexes into m_entries, one per list row
    QLineEdit *m_input = nullptr;
    QListWidget *m_list = nullptr;
};

class ShortcutSheet : public QDialog
{
    Q_OBJECT

public:
    // `extraKeys`: (keys, what they do) pairs for keys no menu action carries.
    ShortcutSheet(const QMenuBar *menus, const QList<QPair<QString, QString>> &extraKeys,
                  QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    // Every "shortcut → command" line shown, for tests: "Ctrl+Z\tRoll Back…".
    QStringList lines() const;

private:
    QTreeWidget *m_tree = nullptr;
};

} // namespace gui
