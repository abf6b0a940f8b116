// The translation files against the sources as they are now: translations/update.sh (the same
// lupdate run the build's update_translations target does) updates a temporary copy of the .ts
// files, so a string added to the code without a German translation fails here, listed with
// its context, even when nobody ran update.sh.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>

namespace {

struct Message
{
    QString context;
    QString source;
    bool numerus = false;
    bool unfinished = false;
    QStringList translations; // one, or one per plural form
};

QList<Message> readTs(const QString &path, QString *error)
{
    QList<Message> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(path);
        return out;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("name"))
                context = xml.readElementText();
            else if (name == QLatin1String("message"))
                m = Message{context,
                            {},
                            xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes"),
                            false,
                            {}};
            else if (name == QLatin1String("source"))
                m.source = xml.readElementText();
            else if (name == QLatin1String("translation")) {
                const auto type = xml.attributes().value(QLatin1String("type"));
                m.unfinished = type == QLatin1String("unfinished");
                if (!m.numerus)
                    m.translations.append(xml.readElementText());
            } else if (name == QLatin1String("numerusform"))
                m.translations.append(xml.readElementText());
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            out.append(m);
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return out;
}

QString describe(const Message &m)
{
    return QStringLiteral("  [%1] \"%2\"").arg(m.context, m.source);
}

// %1…%99 and %n, as arg() and tr()'s plural form use them; %L1 counts as %1.
QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("%L?(\\d{1,2}|n)"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out.append(it.next().captured(1));
    out.sort();
    out.removeDuplicates();
    return out;
}

} // namespace

class TestTranslationFiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyGermanMessageIsTranslated();
    void everyEnglishPluralHasItsForms();
    void translationsKeepThePlaceholders_data();
    void translationsKeepThePlaceholders();
    void shortcutsKeepOneAmpersand();

private:
    QTemporaryDir m_dir;
    QList<Message> m_de;
    QList<Message> m_en;
};

void TestTranslationFiles::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString source =
        qEnvironmentVariable("DAEMONSCOPE_SOURCE_DIR", QStringLiteral(DAEMONSCOPE_SOURCE_DIR));
    for (const QString &name : {QStringLiteral("daemonscope_de.ts"), QStringLiteral("daemonscope_en.ts")})
        QVERIFY(QFile::copy(source + QStringLiteral("/translations/") + name, m_dir.filePath(name)));

    QProcess lupdate;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LUPDATE"), QStringLiteral(DAEMONSCOPE_LUPDATE));
    lupdate.setProcessEnvironment(env);
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(QStringLiteral("/bin/sh"),
                  {source + QStringLiteral("/translations/update.sh"), QStringLiteral("--ts-dir"),
                   m_dir.path(), QStringLiteral("--quiet")});
    QVERIFY(lupdate.waitForFinished(240000));
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
             lupdate.readAll().constData());

    QString error;
    m_de = readTs(m_dir.filePath(QStringLiteral("daemonscope_de.ts")), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_en = readTs(m_dir.filePath(QStringLiteral("daemonscope_en.ts")), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(m_de.size() > 100, "lupdate found (almost) no strings: wrong source folder?");
}

void TestTranslationFiles::everyGermanMessageIsTranslated()
{
    QStringList missing;
    for (const Message &m : m_de) {
        const bool empty =
            m.translations.isEmpty() || std::any_of(m.translations.begin(), m.translations.end(),
                                                    [](const QString &t) { return t.isEmpty(); });
        if (m.unfinished || empty)
            missing.append(describe(m));
    }
    if (!missing.isEmpty())
        QFAIL(qPrintable(QStringLiteral("%1 German message(s) without a translation; add them to "
                                        "translations/daemonscope_de.ts (run translations/update.sh, then "
                                        "translate with Qt Linguist):\n%2")
                             .arg(missing.size())
                             .arg(missing.join(QLatin1Char('\n')))));
}

void TestTranslationFiles::everyEnglishPluralHasItsForms()
{
    QStringList missing;
    int plurals = 0;
    for (const Message &m : m_en) {
        if (!m.numerus)
            continue;
        ++plurals;
        if (m.unfinished || m.translations.size() != 2 || m.translations.contains(QString()))
            missing.append(describe(m));
    }
    QVERIFY(plurals > 0);
    if (!missing.isEmpty())
        QFAIL(qPrintable(QStringLiteral("English plural forms missing in translations/daemonscope_en.ts:\n%1")
                             .arg(missing.join(QLatin1Char('\n')))));
}

void TestTranslationFiles::translationsKeepThePlaceholders_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("German") << QStringLiteral("de");
    QTest::newRow("English plural forms") << QStringLiteral("en");
}

void TestTranslationFiles::translationsKeepThePlaceholders()
{
    QFETCH(QString, file);
    const QList<Message> &messages = file == QLatin1String("de") ? m_de : m_en;
    QStringList wrong;
    for (const Message &m : messages) {
        if (m.unfinished)
            continue;
        QStringList expected = placeholders(m.source);
        for (const QString &t : m.translations) {
            QStringList got = placeholders(t);
            // A singular form may spell out "one" instead of %n.
            if (m.numerus && !got.contains(QStringLiteral("n")) && t == m.translations.constFirst()) {
                got.append(QStringLiteral("n"));
                got.sort();
            }
            if (got != expected)
                wrong.append(describe(m) + QStringLiteral(" -> \"%1\"").arg(t));
        }
    }
    if (!wrong.isEmpty())
        QFAIL(qPrintable(QStringLiteral("translations whose placeholders differ from the source:\n%1")
                             .arg(wrong.join(QLatin1Char('\n')))));
}

void TestTranslationFiles::shortcutsKeepOneAmpersand()
{
    // "&Datei" for "&File": a menu text keeps its mnemonic, and never gets two.
    QStringList wrong;
    static const QRegularExpression mnemonic(QStringLiteral("&(?=[^&\\s;])"));
    for (const Message &m : m_de) {
        if (m.unfinished || m.numerus || m.source.contains(QLatin1Char('<')))
            continue;
        const int inSource = int(m.source.count(mnemonic));
        const int inTranslation = int(m.translations.value(0).count(mnemonic));
        if (inSource != inTranslation)
            wrong.append(describe(m) + QStringLiteral(" -> \"%1\"").arg(m.translations.value(0)));
    }
    if (!wrong.isEmpty())
        QFAIL(qPrintable(
            QStringLiteral("mnemonics (&) lost or added:\n%1").arg(wrong.join(QLatin1Char('\n')))));
}

QTEST_GUILESS_MAIN(TestTranslationFiles)

#include "tst_translationfiles.moc"
