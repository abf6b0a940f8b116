#pragma once
// ConnectDialog — File → "Connect to Cluster…": picks a kubeconfig (KUBECONFIG / ~/.kube/config
// by default, or a file chosen here), one of its contexts and a namespace (or all namespaces),
// and yields the options of a models::LiveBackend. addActions() puts "Connect to Cluster…" and
// "Embedded Demo Cluster" into a menu and switches the window's backend with them.

#include "models/backend/livebackend.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QMenu;

namespace gui {

class MainWindow;

class ConnectDialog : public QDialog
{
    Q_OBJECT

public:
    // `kubeconfig`: a file to start with; empty: the default files (KUBECONFIG, ~/.kube/config).
    explicit ConnectDialog(const QString &kubeconfig = {}, QWidget *parent = nullptr);

    // (Re)reads the kubeconfig and lists its contexts, the current one selected.
    void reload();
    void setKubeconfig(const QString &path);
    void setContext(const QString &context);
    void setNamespace(const QString &ns);
    void setAllNamespaces(bool all);

    QString kubeconfig() const; // empty: the default files
    QStringList contexts() const;
    QString context() const;
    QString namespace_() const;
    bool allNamespaces() const;
    QString errorText() const; // why the kubeconfig cannot be used, empty when fine

    models::LiveBackendOptions options() const;

    // Adds the two actions (object names "connectCluster" and "useEmbeddedDemo") to `menu`.
    static void addActions(MainWindow *window, QMenu *menu);

protected:
    void changeEvent(QEvent *event) override;

private:
    void browse();
    void contextChanged();
    void updateErrorColor(); // the error label follows the palette (light or dark)

    QLineEdit *m_file = nullptr;
    QComboBox *m_context = nullptr;
    QLineEdit *m_namespace = nullptr;
    QCheckBox *m_all = nullptr;
    QLabel *m_server = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QMap<QString, QString> m_namespaces; // context -> its namespace
    QMap<QString, QString> m_servers;    // context -> its cluster's server
};

} // namespace gui
