// The node-agent upgrade controller's sentences (headline, per-node deadlines, reasons and
// blockers, events, resume preview) reach the console as codes with typed slots and are phrased
// in the user's language by models/planners/upgradephrases.h: the catalogue lupdate extracts equals the
// engine's templates, every German template keeps its slots, and the demo's upgrade reads in
// German from start to halt — and in English exactly as the engine writes it.

#include "upgradetesthelpers.h"

#include "models/api/nodeupgradeevents.h"
#include "models/api/nodeupgradelogic.h"
#include "models/api/nodeupgradephrases.h"
#include "models/api/nodeupgraderollout.h"
#include "models/api/phrasejson.h"
#include "models/itemmodels/upgradeeventlistmodel.h"
#include "models/planners/upgradephrases.h"
#include "models/snapshot/upgraderolloutinfo.h"
#include "ui/apptranslator.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTest>

#include <set>

using namespace upgradetest;
using models::ActionKind;
using models::UpgradeNodePhase;
using models::UpgradeRolloutInfo;

Q_DECLARE_METATYPE(api::Phrase)

namespace {

const QString kName = QStringLiteral("agents-highmem");

std::set<QString> slotsOf(const QString &text)
{
    std::set<QString> out;
    static const QRegularExpression slot(QStringLiteral("\\{(\\w+)\\}"));
    for (auto it = slot.globalMatch(text); it.hasNext();)
        out.insert(it.next().captured(1));
    return out;
}

QString events(const UpgradeRolloutInfo &r)
{
    QStringList out;
    for (const auto &e : *r.events)
        out << e.message;
    return out.join(QLatin1Char('\n'));
}

const models::UpgradeNodeRow *inPhase(const UpgradeRolloutInfo &r, UpgradeNodePhase phase)
{
    for (const auto &n : *r.nodes)
        if (n.phase == phase)
            return &n;
    return nullptr;
}

} // namespace

class TestUpgradePhrases : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<models::ActionResult>(); }
    void cleanupTestCase() { gui::AppTranslator::install(QStringLiteral("en")); }
    void theCatalogueIsTheEnginesTemplates();
    void everyGermanTemplateKeepsItsSlots();
    void nestedPhrasesAndLongListsAreTranslatedPartByPart();
    void theDemoUpgradeReadsInGerman();
    void inEnglishTheConsoleShowsTheEnginesText();
    void everyCodeHasItsOwnName();
    void phrasesTravelAsJson_data();
    void phrasesTravelAsJson();
    void unreadablePhrasesAreRefused_data();
    void unreadablePhrasesAreRefused();
    void theStatusCarriesTheHeadlineAsAPhrase();
};

void TestUpgradePhrases::theCatalogueIsTheEnginesTemplates()
{
    const auto phrases = models::phraseSources(api::PhraseCatalog::Upgrade);
    QCOMPARE(int(phrases.size()), int(api::UpgradePhrase::Count_));
    for (std::size_t i = 0; i < phrases.size(); ++i)
        QCOMPARE(QString::fromUtf8(phrases[i]),
                 QString::fromUtf8(api::upgradePhraseText(static_cast<api::UpgradePhrase>(i))));
    const auto events = models::phraseSources(api::PhraseCatalog::Event);
    QCOMPARE(int(events.size()), api::kUpgradeReasonCount);
    for (std::size_t i = 0; i < events.size(); ++i)
        QCOMPARE(QString::fromUtf8(events[i]),
                 QString::fromUtf8(api::upgradeReasonText(static_cast<api::UpgradeReason>(i))));
}

void TestUpgradePhrases::everyGermanTemplateKeepsItsSlots()
{
    QCOMPARE(gui::AppTranslator::install(QStringLiteral("de")), QStringLiteral("de"));
    // Templates whose German is the same text: slots and API field names only.
    const std::set<QString> same = {QStringLiteral("{pod} {why}"),
                                    QStringLiteral(" ({note})"),
                                    QStringLiteral("{pod} ({why})"),
                                    QStringLiteral("{how}"),
                                    QStringLiteral("{reason}: {detail}"),
                                    QStringLiteral("drainTimeout {elapsed}/{limit}"),
                                    QStringLiteral("returnTimeout {elapsed}/{limit}"),
                                    QStringLiteral("ackTimeout {elapsed}/{limit}")};
    int translated = 0;
    for (const auto catalog : {api::PhraseCatalog::Upgrade, api::PhraseCatalog::Event}) {
        const char *context = catalog == api::PhraseCatalog::Event ? "UpgradeEvent" : "UpgradePhrase";
        for (const char *source : models::phraseSources(catalog)) {
            const QString en = QString::fromUtf8(source);
            const QString de = QCoreApplication::translate(context, source);
            QVERIFY2(slotsOf(de) == slotsOf(en), qPrintable(en + QStringLiteral(" -> ") + de));
            if (de != en)
                ++translated;
            else
                QVERIFY2(same.count(en), qPrintable(QStringLiteral("not translated: ") + en));
        }
    }
    QVERIFY(translated > 100);
    gui::AppTranslator::install(QStringLiteral("en"));
}

void TestUpgradePhrases::nestedPhrasesAndLongListsAreTranslatedPartByPart()
{
    using api::phrase;
    using api::UpgradePhrase;
    const std::vector<api::Phrase> holders = {phrase(UpgradePhrase::HolderNotReadyOutside, {{"node", "n3"}}),
                                              phrase(UpgradePhrase::HolderFailed, {{"node", "n4"}})};
    const api::Phrase headline = phrase(
        UpgradePhrase::Waiting,
        {{"why", phrase(UpgradePhrase::BudgetUsedBy,
                        {{"used", "2"}, {"max", "2"}, {"holders", api::Phrase::list(holders, ", ")}})}});
    const std::vector<std::string> many = {"a", "b", "c", "d", "e", "f", "g"};
    const api::Phrase stalled =
        phrase(UpgradePhrase::NotReadyMany, {{"nodes", api::Phrase::list(many, ", ", 5)}});

    gui::AppTranslator::install(QStringLiteral("en"));
    QCOMPARE(models::phraseText(headline), QString::fromStdString(api::english(headline)));
    QCOMPARE(
        models::phraseText(headline),
        QStringLiteral("Waiting: budget 2/2 used by n3 (NotReady, not part of this rollout), n4 (Failed)"));
    QCOMPARE(
        models::phraseText(stalled),
        QStringLiteral("a, b, c, d, e and 2 more are NotReady; upgraded once Ready again, or skip them"));

    gui::AppTranslator::install(QStringLiteral("de"));
    QCOMPARE(models::phraseText(headline),
             QStringLiteral("Wartet: Budget 2/2 belegt durch n3 (NotReady, nicht Teil dieses Rollouts), "
                            "n4 (fehlgeschlagen)"));
    QVERIFY2(
        models::phraseText(stalled).startsWith(QStringLiteral("a, b, c, d, e und 2 weitere sind NotReady")),
        qPrintable(models::phraseText(stalled)));
    // The English text of the same phrase does not change with the language.
    QCOMPARE(
        QString::fromStdString(api::english(headline)),
        QStringLiteral("Waiting: budget 2/2 used by n3 (NotReady, not part of this rollout), n4 (Failed)"));
    gui::AppTranslator::install(QStringLiteral("en"));
}

void TestUpgradePhrases::theDemoUpgradeReadsInGerman()
{
    QCOMPARE(gui::AppTranslator::install(QStringLiteral("de")), QStringLiteral("de"));
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    QVERIFY(act(*backend, ActionKind::StartUpgrade, [&] { backend->startUpgrade(demoRollout()); }));

    // A node soaking: the headline counts in German, the deadline names the soak.
    QVERIFY(stepUntil(
        *backend, kName, [](const UpgradeRolloutInfo &i) { return inPhase(i, UpgradeNodePhase::Soaking); },
        10 * 60 * 1000, 2000));
    const UpgradeRolloutInfo *r = rollout(*backend, kName);
    QVERIFY2(r->headline.contains(QStringLiteral("aktualisiert")) &&
                 r->headline.contains(QStringLiteral("in Arbeit")),
             qPrintable(r->headline));
    const auto *soaking = inPhase(*r, UpgradeNodePhase::Soaking);
    QVERIFY2(soaking->nextDeadline.startsWith(QStringLiteral("Beobachtung ")),
             qPrintable(soaking->nextDeadline));
    const QString log = events(*r);
    QVERIFY2(log.contains(QStringLiteral("Ausgewählt: Warteschlangenplatz 1")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("Vom Controller gesperrt")), qPrintable(log));
    QVERIFY2(!log.contains(QStringLiteral("Selected:")) && !log.contains(QStringLiteral("Cordoned by")),
             qPrintable(log));

    // Paused: the headline says who paused it; the resume preview is German.
    QVERIFY(act(*backend, ActionKind::UpgradeControl, [&] {
        backend->upgradeControl(kName, QStringLiteral("pause"), QString(), QStringLiteral("lunch"));
    }));
    QVERIFY(stepUntil(
        *backend, kName, [](const UpgradeRolloutInfo &i) { return i.paused && i.counts.inFlight == 0; },
        10 * 60 * 1000, 5000));
    r = rollout(*backend, kName);
    QVERIFY2(r->headline.startsWith(QStringLiteral("Pausiert von ")), qPrintable(r->headline));
    QVERIFY2(r->preview->summary.startsWith(QStringLiteral("auswählen: ")), qPrintable(r->preview->summary));
    QVERIFY2(events(*r).contains(QStringLiteral("Pausiert von tester (lunch)")), qPrintable(events(*r)));

    // The next node will not come back: Failed with the reason code, halted in German.
    const QString next = r->preview->nextNodes.front();
    QVERIFY(act(*backend, ActionKind::InjectFault,
                [&] { backend->injectFault(next, QStringLiteral("NeverReturns")); }));
    QVERIFY(act(*backend, ActionKind::UpgradeControl,
                [&] { backend->upgradeControl(kName, QStringLiteral("resume"), QString(), QString()); }));
    QVERIFY(stepUntil(
        *backend, kName, [](const UpgradeRolloutInfo &i) { return i.halted(); }, 30 * 60 * 1000, 10000));
    r = rollout(*backend, kName);
    QVERIFY2(r->headline.startsWith(QStringLiteral("Angehalten: 1 Node fehlgeschlagen (") + next),
             qPrintable(r->headline));
    QVERIFY2(r->headline.endsWith(QStringLiteral("zum Fortsetzen bestätigen")), qPrintable(r->headline));
    QCOMPARE(r->node(next)->reason, QStringLiteral("NodeDidNotReturn")); // a code stays a code
    QVERIFY2(
        events(*r).contains(QStringLiteral("NodeDidNotReturn: nach dem Neustart nicht innerhalb von 3m")),
        qPrintable(events(*r)));
    gui::AppTranslator::install(QStringLiteral("en"));
}

void TestUpgradePhrases::inEnglishTheConsoleShowsTheEnginesText()
{
    QCOMPARE(gui::AppTranslator::install(QStringLiteral("en")), QStringLiteral("en"));
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    QVERIFY(act(*backend, ActionKind::StartUpgrade, [&] { backend->startUpgrade(demoRollout()); }));
    QVERIFY(stepUntil(
        *backend, kName, [](const UpgradeRolloutInfo &i) { return inPhase(i, UpgradeNodePhase::Soaking); },
        10 * 60 * 1000, 2000));
    const UpgradeRolloutInfo *r = rollout(*backend, kName);
    QVERIFY2(r->headline.contains(QStringLiteral(" upgraded · 1 in flight")), qPrintable(r->headline));
    QVERIFY2(inPhase(*r, UpgradeNodePhase::Soaking)->nextDeadline.startsWith(QStringLiteral("soak ")),
             qPrintable(inPhase(*r, UpgradeNodePhase::Soaking)->nextDeadline));
    QVERIFY2(events(*r).contains(QStringLiteral("Selected: queue position 1, slot 1/1")),
             qPrintable(events(*r)));
    // The snapshot's conditions carry the engine's own text; the headline is the same sentence.
    QVERIFY(act(*backend, ActionKind::UpgradeControl, [&] {
        backend->upgradeControl(kName, QStringLiteral("pause"), QString(), QStringLiteral("lunch"));
    }));
    QVERIFY(stepUntil(
        *backend, kName, [](const UpgradeRolloutInfo &i) { return i.paused && i.counts.inFlight == 0; },
        10 * 60 * 1000, 5000));
    r = rollout(*backend, kName);
    QVERIFY2(r->headline.startsWith(QStringLiteral("Paused by tester (lunch) ")), qPrintable(r->headline));
    QVERIFY2(r->preview->summary.startsWith(QStringLiteral("select ")), qPrintable(r->preview->summary));
}

// The names a phrase travels by: one per code, each naming only its own code.
void TestUpgradePhrases::everyCodeHasItsOwnName()
{
    std::set<std::string> names;
    for (int i = 0; i < static_cast<int>(api::UpgradePhrase::Count_); ++i) {
        const auto code = static_cast<api::UpgradePhrase>(i);
        const std::string name = api::upgradePhraseName(code);
        QVERIFY2(!name.empty() && names.insert(name).second, name.c_str());
        QCOMPARE(api::upgradePhraseNamed(name), std::optional(code));
    }
    QCOMPARE(api::upgradePhraseName(api::UpgradePhrase::StillRestarting), "StillRestarting");
    names.clear();
    for (int i = 0; i < api::kUpgradeReasonCount; ++i) {
        const auto reason = static_cast<api::UpgradeReason>(i);
        const std::string name = api::upgradeReasonName(reason);
        QVERIFY2(!name.empty() && names.insert(name).second, name.c_str());
        QCOMPARE(api::upgradeReasonNamed(name), std::optional(reason));
    }
    QVERIFY(!api::upgradePhraseNamed("stillrestarting")); // names are exact
}

// A phrase leaves the process as JSON (status.headlinePhrase) and comes back equal: the same
// tree, so the same English and the same translation.
void TestUpgradePhrases::phrasesTravelAsJson_data()
{
    using api::phrase;
    using api::UpgradePhrase;
    QTest::addColumn<api::Phrase>("original");
    QTest::newRow("literal") << api::Phrase("node-7");
    QTest::newRow("empty literal") << api::Phrase("");
    QTest::newRow("template without slots") << phrase(UpgradePhrase::PreviewNothing);
    const std::vector<api::Phrase> holders = {phrase(UpgradePhrase::HolderNotReadyOutside, {{"node", "n3"}}),
                                              phrase(UpgradePhrase::HolderFailed, {{"node", "n4"}})};
    QTest::newRow("nested, slots out of alphabetical order") << phrase(
        UpgradePhrase::Waiting,
        {{"why", phrase(UpgradePhrase::BudgetUsedBy,
                        {{"used", "2"}, {"max", "2"}, {"holders", api::Phrase::list(holders, ", ")}})}});
    QTest::newRow("long list shown in part") << phrase(
        UpgradePhrase::NotReadyMany,
        {{"nodes", api::Phrase::list(std::vector<std::string>{"a", "b", "c", "d", "e", "f"}, ", ", 5)}});
    QTest::newRow("event catalogue") << api::upgradeEventPhrase(
        api::UpgradeReason::WriteRefused, {{"write", phrase(UpgradePhrase::WriteCordon)}, {"code", "500"}});
    QTest::newRow("quotes and non-ASCII") << api::Phrase("Knoten \"ä\"\n{not a slot}");
}

void TestUpgradePhrases::phrasesTravelAsJson()
{
    QFETCH(api::Phrase, original);
    const std::string text = api::phraseToJson(original).dump();
    const auto back = api::phraseFromJson(kube::Json::parse(text));
    QVERIFY2(back, text.c_str());
    QVERIFY2(*back == original, text.c_str());
    QCOMPARE(api::english(*back), api::english(original));
    QCOMPARE(api::phraseToJson(*back).dump(), text);
}

// What this version cannot read is refused whole, so the console shows the English text
// instead of a sentence with a part missing.
void TestUpgradePhrases::unreadablePhrasesAreRefused_data()
{
    QTest::addColumn<QString>("json");
    QTest::newRow("unknown phrase (a newer controller's)") << QStringLiteral("{\"phrase\":\"SomethingNew\"}");
    QTest::newRow("unknown event") << QStringLiteral("{\"event\":\"SomethingNew\"}");
    QTest::newRow("unknown phrase inside a known one")
        << QStringLiteral("{\"phrase\":\"Waiting\",\"args\":[[\"why\",{\"phrase\":\"SomethingNew\"}]]}");
    QTest::newRow("both catalogues") << QStringLiteral("{\"phrase\":\"Waiting\",\"event\":\"NodeCordoned\"}");
    QTest::newRow("neither") << QStringLiteral("{\"args\":[]}");
    QTest::newRow("name not a string") << QStringLiteral("{\"phrase\":3}");
    QTest::newRow("args not a list") << QStringLiteral("{\"phrase\":\"Waiting\",\"args\":{\"why\":\"x\"}}");
    QTest::newRow("arg not a pair") << QStringLiteral("{\"phrase\":\"Waiting\",\"args\":[[\"why\"]]}");
    QTest::newRow("slot name not a string")
        << QStringLiteral("{\"phrase\":\"Waiting\",\"args\":[[1,\"x\"]]}");
    QTest::newRow("unknown member") << QStringLiteral("{\"phrase\":\"Waiting\",\"extra\":1}");
    QTest::newRow("list without separator") << QStringLiteral("{\"list\":[\"a\"]}");
    QTest::newRow("list not a list") << QStringLiteral("{\"list\":\"a\",\"separator\":\", \"}");
    QTest::newRow("list shows at most 0")
        << QStringLiteral("{\"list\":[\"a\"],\"separator\":\", \",\"max\":0}");
    QTest::newRow("list max negative")
        << QStringLiteral("{\"list\":[\"a\"],\"separator\":\", \",\"max\":-1}");
    QTest::newRow("number") << QStringLiteral("42");
    QTest::newRow("null") << QStringLiteral("null");
    QTest::newRow("array") << QStringLiteral("[\"a\"]");
}

void TestUpgradePhrases::unreadablePhrasesAreRefused()
{
    QFETCH(QString, json);
    QVERIFY(!api::phraseFromJson(kube::Json::parse(json.toStdString())));
}

// The controller writes its headline as text and as a phrase; whoever reads the status phrases
// it in their language. A phrase this version cannot read leaves the status readable, with the
// text shown instead.
void TestUpgradePhrases::theStatusCarriesTheHeadlineAsAPhrase()
{
    api::HeadlineInput in;
    in.phase = api::RolloutPhase::Paused;
    in.pausedBy = "admin";
    in.counts.nodes = 5;
    in.counts.upToDate = 2;
    api::NodeUpgradeRolloutStatus st;
    st.phase = in.phase;
    st.headlinePhrase = api::headline(in);
    st.headline = api::english(st.headlinePhrase);
    const auto back = api::NodeUpgradeRolloutStatus::fromJson(kube::Json::parse(st.toJson().dump()));
    QVERIFY(back);
    QVERIFY(*back == st);

    gui::AppTranslator::install(QStringLiteral("de"));
    QCOMPARE(models::phraseText(back->headlinePhrase), QStringLiteral("Pausiert von admin"));
    gui::AppTranslator::install(QStringLiteral("en"));
    QCOMPARE(models::phraseText(back->headlinePhrase), QStringLiteral("Paused by admin"));
    QCOMPARE(back->headline, "Paused by admin");

    kube::Json newer = st.toJson();
    newer["headlinePhrase"] = {{"phrase", "SomethingNew"}};
    const auto fromNewer = api::NodeUpgradeRolloutStatus::fromJson(newer);
    QVERIFY(fromNewer);
    QVERIFY(fromNewer->headlinePhrase.empty());
    QCOMPARE(fromNewer->headline, "Paused by admin");
    // A writer that sends no phrase (an older controller): the text alone.
    newer.erase("headlinePhrase");
    QVERIFY(api::NodeUpgradeRolloutStatus::fromJson(newer)->headlinePhrase.empty());
}

QTEST_MAIN(TestUpgradePhrases)
#include "tst_upgradephrases.moc"
