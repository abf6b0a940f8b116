// kube::parseJsonSax against nlohmann's Json::sax_parse: on every input the two accept or refuse
// alike, and on what they accept they send the same events with the same values, in order. The
// document JsonLimits::parse builds from those events is the one nlohmann's parser builds.
// Numbers are read in the C locale whatever the process's locale says.
#include "models/kube/jsonlimits.h"
#include "models/kube/jsonsax.h"
#include "tests/support/saxrecorder.h"

#include <QTest>

#include <clocale>

class TstJsonSax : public QObject
{
    Q_OBJECT

private slots:
    void readsAsNlohmannDoes_data();
    void readsAsNlohmannDoes();
    void numbersIgnoreTheProcessLocale();
    void aHandlerThatStopsStopsTheRead();
    void documentsNestedTooDeepAreRefused();
};

namespace {

struct Reading
{
    kube::SaxResult result = kube::SaxResult::Ok;
    std::vector<std::string> ours, theirs;
    bool theirsOk = false;
};

Reading read(const std::string &text)
{
    Reading r;
    testsupport::SaxRecorder ours, theirs;
    r.result = kube::parseJsonSax(text, ours);
    r.theirsOk = kube::Json::sax_parse(text.begin(), text.end(), &theirs);
    r.ours = ours.events;
    r.theirs = theirs.events;
    return r;
}

} // namespace

void TstJsonSax::readsAsNlohmannDoes_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("valid");
    const auto row = [](const char *name, const std::string &text, bool valid) {
        QTest::newRow(name) << QByteArray::fromStdString(text) << valid;
    };
    row("pod list",
        R"({"apiVersion":"v1","items":[{"metadata":{"name":"a","labels":{"app":"x"}},)"
        R"("spec":{"nodeName":"n1","containers":[{"name":"c","image":"i:1"}]},)"
        R"("status":{"phase":"Running"}}],"kind":"PodList","metadata":{"resourceVersion":"7"}})",
        true);
    row("whitespace everywhere", " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } , \"c\" : [ ] } \n", true);
    row("scalars at the top", "\"text\"", true);
    row("literals", R"([true,false,null])", true);
    row("integers", R"([0,-0,1,-1,9223372036854775807,-9223372036854775808,18446744073709551615])", true);
    row("integers beyond 64 bits", R"([18446744073709551616,-9223372036854775809])", true);
    row("floats", R"([0.5,-1.25e-3,1E10,2e+3,1.7976931348623157e308,4.9e-324,1e-400])", true);
    row("escapes", R"(["\"\\\/\b\f\n\r\t","\u0041\u00e9\u20ac","\ud83d\ude00","\u0000"])", true);
    row("UTF-8",
        "[\"caf\xC3\xA9\",\"\xE2\x82\xAC\",\"\xF0\x9F\x98\x80\",\"\xED\x9F\xBF\",\"\xF4\x8F\xBF\xBF\"]",
        true);
    row("byte order mark", "\xEF\xBB\xBF{\"a\":1}", true);
    row("deep nesting", std::string(5000, '[') + std::string(5000, ']'), true);
    row("repeated keys", R"({"a":1,"a":2})", true);
    row("a NUL after the value", std::string("{\"a\":1}\0\0", 9), true);
    row("anything after a NUL", std::string("[1] \0 x", 7), true);
    row("a NUL inside", std::string("[1\0]", 4), false);
    row("a NUL in a string", std::string("[\"a\0\"]", 6), false);
    row("a NUL alone", std::string("\0", 1), false);
    row("empty", "", false);
    row("only whitespace", "  \n", false);
    row("two values", "1 2", false);
    row("trailing comma in an array", "[1,]", false);
    row("trailing comma in an object", R"({"a":1,})", false);
    row("missing colon", R"({"a" 1})", false);
    row("a number as a key", R"({1:2})", false);
    row("unclosed object", R"({"a":1)", false);
    row("unclosed string", R"(["abc)", false);
    row("mismatched brackets", R"([1})", false);
    row("leading zero", "[01]", false);
    row("a bare minus", "[-]", false);
    row("a dot without digits", "[1.]", false);
    row("an exponent without digits", "[1e]", false);
    row("a leading plus", "[+1]", false);
    row("a number too large", "[1e400]", false);
    row("a control character", "[\"a\tb\"]", false);
    row("an unknown escape", R"(["\x"])", false);
    row("a short unicode escape", R"(["\u12"])", false);
    row("a lone high surrogate", R"(["\ud83d"])", false);
    row("a lone low surrogate", R"(["\ude00"])", false);
    row("a high surrogate and no low one", R"(["\ud83d\u0041"])", false);
    row("a bad literal", "[tru]", false);
    row("a continuation byte alone", "[\"\x80\"]", false);
    row("an overlong encoding", "[\"\xC0\xAF\"]", false);
    row("a surrogate in UTF-8", "[\"\xED\xA0\x80\"]", false);
    row("beyond U+10FFFF", "[\"\xF4\x90\x80\x80\"]", false);
    row("a truncated sequence", "[\"\xE2\x82\"]", false);
    row("a single quote", "['a']", false);
}

void TstJsonSax::readsAsNlohmannDoes()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, valid);
    const Reading r = read(text.toStdString());
    QCOMPARE(r.theirsOk, valid); // the row says what nlohmann does
    QCOMPARE(r.result == kube::SaxResult::Ok, valid);
    if (valid)
        QCOMPARE(r.ours, r.theirs);
    else
        QCOMPARE(r.result, kube::SaxResult::Invalid);
    const auto dom = kube::JsonLimits::parse(text.toStdString(), 100000);
    QCOMPARE(dom.ok(), valid);
    if (valid)
        QVERIFY(*dom == kube::Json::parse(text.begin(), text.end()));
    else
        QVERIFY2(dom.error().message.rfind("not valid JSON: ", 0) == 0, dom.error().message.c_str());
}

void TstJsonSax::numbersIgnoreTheProcessLocale()
{
    // A decimal comma locale, as a German desktop session sets it; skipped where not installed.
    const std::string before = std::setlocale(LC_NUMERIC, nullptr);
    if (!std::setlocale(LC_NUMERIC, "de_DE.UTF-8"))
        QSKIP("the de_DE.UTF-8 locale is not installed");
    const Reading r = read("[1.5,2.25e1]");
    std::setlocale(LC_NUMERIC, before.c_str());
    QCOMPARE(r.result, kube::SaxResult::Ok);
    QCOMPARE(r.ours, r.theirs);
    QVERIFY(r.ours.size() == 4 && r.ours[1].find(" 1.5") != std::string::npos);
    double d = 0;
    const std::string bits = r.ours[1].substr(6, r.ours[1].find(' ', 6) - 6);
    const std::uint64_t b = std::stoull(bits);
    std::memcpy(&d, &b, sizeof d);
    QCOMPARE(d, 1.5);
}

void TstJsonSax::aHandlerThatStopsStopsTheRead()
{
    class StopAtKey : public testsupport::SaxRecorder
    {
    public:
        bool key(string_t &k) override
        {
            SaxRecorder::key(k);
            return k != "stop";
        }
    };
    StopAtKey sax;
    QCOMPARE(kube::parseJsonSax(R"({"a":1,"stop":2,"b":3})", sax), kube::SaxResult::Stopped);
    QCOMPARE(sax.events, (std::vector<std::string>{"{ 18446744073709551615", "key a", "uint 1", "key stop"}));
}

void TstJsonSax::documentsNestedTooDeepAreRefused()
{
    const std::string ok = std::string(1000, '[') + std::string(1000, ']');
    QVERIFY(kube::JsonLimits::parse(ok).ok());
    const std::string deep = "{\"a\":" + std::string(1000, '[') + std::string(1000, ']') + "}";
    const auto refused = kube::JsonLimits::parse(deep);
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, 400);
    QCOMPARE(refused.error().message, kube::JsonLimits::tooDeepMessage());
    // Too deep and broken after the deep part: still too deep, as nlohmann's pass reported it.
    const auto broken = kube::JsonLimits::parse(deep.substr(0, deep.size() - 1) + ",");
    QVERIFY(!broken);
    QCOMPARE(broken.error().message, kube::JsonLimits::tooDeepMessage());
}

QTEST_GUILESS_MAIN(TstJsonSax)
#include "tst_jsonsax.moc"
