// toYaml(): the shape of `kubectl get -o yaml`, the quoting rules, and the round trip through
// parseYamlDocuments(); the shortcut both take past resolvePlainScalar.

#include "models/kube/jsonsax.h"
#include "models/kube/yaml.h"
#include "models/kube/yamldocument.h"
#include "models/kube/yamlscalar.h"

#include <QtTest>

#include <random>
#include <set>
#include <string_view>

using kube::Json;

namespace nlohmann {
// Readable QCOMPARE failures.
inline char *toString(const json &value)
{
    return qstrdup(value.dump().c_str());
}
} // namespace nlohmann

namespace {

// The value read back from YAML text, or a string naming the error.
Json readBack(const std::string &yaml)
{
    auto docs = kube::parseYamlDocuments(yaml, "roundtrip.yaml");
    if (!docs)
        return Json{{"error", docs.error().message}};
    if (docs->empty())
        return nullptr; // a document holding only null is skipped
    if (docs->size() != 1)
        return Json{{"documents", docs->size()}};
    return docs->front().value;
}

QByteArray bytes(const std::string &s)
{
    return QByteArray::fromStdString(s);
}

} // namespace

class TestYaml : public QObject
{
    Q_OBJECT

private slots:
    void renders_data();
    void renders();
    void quotesStrings_data();
    void quotesStrings();
    void roundTripsGeneratedValues();
    void roundTripsLongKeysAndHugeStrings();
    void roundTripsEveryCodePoint();
    void invalidUtf8NeverGivesUnreadableEscapes_data();
    void invalidUtf8NeverGivesUnreadableEscapes();
    void surelyPlainStringAgreesWithTheResolver();
};

void TestYaml::renders_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("yaml");

    QTest::newRow("a flat map is written with sorted keys")
        << QByteArray(R"({"b":1,"a":"x","c":true})") << QByteArray("a: x\nb: 1\nc: true\n");
    QTest::newRow("nested maps are indented by two spaces")
        << QByteArray(R"({"metadata":{"labels":{"app":"web"},"name":"web"}})")
        << QByteArray("metadata:\n  labels:\n    app: web\n  name: web\n");
    QTest::newRow("a list under a key is not indented")
        << QByteArray(R"({"spec":{"args":["a","b"]}})") << QByteArray("spec:\n  args:\n  - a\n  - b\n");
    QTest::newRow("maps in a list align their keys under the first one")
        << QByteArray(
               R"({"containers":[{"name":"web","image":"nginx:1.26","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{}}]})")
        << QByteArray("containers:\n"
                      "- image: nginx:1.26\n"
                      "  name: web\n"
                      "  ports:\n"
                      "  - containerPort: 80\n"
                      "    protocol: TCP\n"
                      "  resources: {}\n");
    QTest::newRow("lists of lists continue on the dash line")
        << QByteArray(R"([[1,2],[],{},[[3]]])") << QByteArray("- - 1\n  - 2\n- []\n- {}\n- - - 3\n");
    QTest::newRow("empty collections and null are inline")
        << QByteArray(R"({"a":{},"b":[],"c":null})") << QByteArray("a: {}\nb: []\nc: null\n");
    QTest::newRow("an empty top-level map is {}") << QByteArray("{}") << QByteArray("{}\n");
    QTest::newRow("a top-level scalar is one line") << QByteArray("42") << QByteArray("42\n");
    QTest::newRow("a top-level null is null") << QByteArray("null") << QByteArray("null\n");
    QTest::newRow("numbers print as kubectl prints them")
        << QByteArray(
               R"({"a":-7,"b":0.5,"c":3.0,"d":1e21,"e":1.5e-7,"f":1234567.5,"g":18446744073709551615,"h":100000.25})")
        << QByteArray("a: -7\nb: 0.5\nc: 3\nd: 1e+21\ne: 1.5e-07\nf: 1.2345675e+06\ng: 18446744073709551615\n"
                      "h: 100000.25\n");
    QTest::newRow("a multi-line string ending in a newline is a clipped literal block")
        << QByteArray(R"({"script":"echo a\necho b\n"})") << QByteArray("script: |\n  echo a\n  echo b\n");
    QTest::newRow("a multi-line string without final newline is a stripped literal block")
        << QByteArray(R"({"s":"a\n\nb"})") << QByteArray("s: |-\n  a\n\n  b\n");
    QTest::newRow("several final newlines keep the literal block")
        << QByteArray(R"({"s":"a\n\n"})") << QByteArray("s: |+\n  a\n\n");
    QTest::newRow("a literal block starting with a space carries an indentation indicator")
        << QByteArray(R"({"s":"  indented\nline\n"})") << QByteArray("s: |2\n    indented\n  line\n");
    QTest::newRow("a literal block in a list is indented under the dash")
        << QByteArray(R"({"command":["sh","-c","echo hi\nsleep 1\n"]})")
        << QByteArray("command:\n- sh\n- -c\n- |\n  echo hi\n  sleep 1\n");
    QTest::newRow("a space before a line break forces double quotes")
        << QByteArray(R"({"s":"a \nb"})") << QByteArray("s: \"a \\nb\"\n");
    QTest::newRow("a top-level list of maps")
        << QByteArray(R"([{"a":1,"b":{"c":2}},{"d":[]}])") << QByteArray("- a: 1\n  b:\n    c: 2\n- d: []\n");
    QTest::newRow("a DaemonSet looks like kubectl's output")
        << QByteArray(
               R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"annotations":{"deprecated.daemonset.template.generation":"1"},"creationTimestamp":"2024-05-01T10:00:00Z","generation":1,"name":"web","namespace":"default"},"spec":{"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.26","name":"web","resources":{}}],"tolerations":[{"effect":"NoSchedule","operator":"Exists"}]}},"updateStrategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":1},"type":"RollingUpdate"}}})")
        << QByteArray("apiVersion: apps/v1\n"
                      "kind: DaemonSet\n"
                      "metadata:\n"
                      "  annotations:\n"
                      "    deprecated.daemonset.template.generation: \"1\"\n"
                      "  creationTimestamp: \"2024-05-01T10:00:00Z\"\n"
                      "  generation: 1\n"
                      "  name: web\n"
                      "  namespace: default\n"
                      "spec:\n"
                      "  revisionHistoryLimit: 10\n"
                      "  selector:\n"
                      "    matchLabels:\n"
                      "      app: web\n"
                      "  template:\n"
                      "    metadata:\n"
                      "      creationTimestamp: null\n"
                      "      labels:\n"
                      "        app: web\n"
                      "    spec:\n"
                      "      containers:\n"
                      "      - image: nginx:1.26\n"
                      "        name: web\n"
                      "        resources: {}\n"
                      "      tolerations:\n"
                      "      - effect: NoSchedule\n"
                      "        operator: Exists\n"
                      "  updateStrategy:\n"
                      "    rollingUpdate:\n"
                      "      maxSurge: 0\n"
                      "      maxUnavailable: 1\n"
                      "    type: RollingUpdate\n");
}

void TestYaml::renders()
{
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, yaml);
    const Json value = Json::parse(json.toStdString());
    const std::string rendered = kube::toYaml(value);
    QCOMPARE(bytes(rendered), yaml);
    QCOMPARE(readBack(rendered), value);
}

void TestYaml::quotesStrings_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QByteArray>("written");

    const auto row = [](const char *name, const std::string &value, const char *written) {
        QTest::newRow(name) << bytes(value) << QByteArray(written);
    };
    row("an ordinary word stays plain", "nginx", "nginx");
    row("an image reference with a colon stays plain", "nginx:1.26", "nginx:1.26");
    row("a word with inner spaces stays plain", "hello world", "hello world");
    row("an option starting with a dash stays plain", "-Xmx512m", "-Xmx512m");
    row("a path stays plain", "/dev/termination-log", "/dev/termination-log");
    row("a hash without a space before it stays plain", "a#b", "a#b");
    row("a non-ASCII letter stays plain", "caf\xC3\xA9", "caf\xC3\xA9");
    row("a replacement character stays plain", "\xEF\xBF\xBD", "\xEF\xBF\xBD");
    row("true is double-quoted", "true", "\"true\"");
    row("False is double-quoted", "False", "\"False\"");
    row("yes is double-quoted as a YAML 1.1 boolean", "yes", "\"yes\"");
    row("no is double-quoted as a YAML 1.1 boolean", "no", "\"no\"");
    row("on is double-quoted as a YAML 1.1 boolean", "on", "\"on\"");
    row("OFF is double-quoted as a YAML 1.1 boolean", "OFF", "\"OFF\"");
    row("y is double-quoted as a YAML 1.1 boolean", "y", "\"y\"");
    row("an integer is double-quoted", "1", "\"1\"");
    row("a negative integer is double-quoted", "-42", "\"-42\"");
    row("an octal-looking number is double-quoted", "0644", "\"0644\"");
    row("a hex number is double-quoted", "0x1F", "\"0x1F\"");
    row("an integer with underscores is double-quoted", "1_000", "\"1_000\"");
    row("a float is double-quoted", "1.0", "\"1.0\"");
    row("an exponent float is double-quoted", "1e3", "\"1e3\"");
    row("infinity is double-quoted", ".inf", "\".inf\"");
    row("null is double-quoted", "null", "\"null\"");
    row("a tilde is double-quoted", "~", "\"~\"");
    row("the empty string is double-quoted", "", "\"\"");
    row("a timestamp is double-quoted", "2024-05-01T10:00:00Z", "\"2024-05-01T10:00:00Z\"");
    row("a date is double-quoted", "2024-05-01", "\"2024-05-01\"");
    row("a sexagesimal number is double-quoted", "1:20", "\"1:20\"");
    row("the merge key is double-quoted", "<<", "\"<<\"");
    row("colon space is single-quoted", "a: b", "'a: b'");
    row("a trailing colon is single-quoted", "key:", "'key:'");
    row("space hash is single-quoted", "a #b", "'a #b'");
    row("a leading space is single-quoted", " a", "' a'");
    row("a trailing space is single-quoted", "a ", "'a '");
    row("a lone dash is single-quoted", "-", "'-'");
    row("dash space is single-quoted", "- a", "'- a'");
    row("a leading question mark and space is single-quoted", "? a", "'? a'");
    row("a leading colon and space is single-quoted", ": a", "': a'");
    row("a leading comma is single-quoted", ",a", "',a'");
    row("a leading bracket is single-quoted", "[a]", "'[a]'");
    row("a leading closing bracket is single-quoted", "]a", "']a'");
    row("a leading brace is single-quoted", "{a}", "'{a}'");
    row("a leading closing brace is single-quoted", "}a", "'}a'");
    row("a leading hash is single-quoted", "#a", "'#a'");
    row("a leading ampersand is single-quoted", "&a", "'&a'");
    row("a star is single-quoted", "*", "'*'");
    row("a leading exclamation mark is single-quoted", "!a", "'!a'");
    row("a leading pipe is single-quoted", "|a", "'|a'");
    row("a leading greater-than is single-quoted", ">a", "'>a'");
    row("a leading single quote is single-quoted and doubled", "'a", "'''a'");
    row("a leading double quote is single-quoted", "\"a", "'\"a'");
    row("a leading percent is single-quoted", "%a", "'%a'");
    row("a leading at sign is single-quoted", "@a", "'@a'");
    row("a leading backtick is single-quoted", "`a", "'`a'");
    row("a document marker is single-quoted", "---", "'---'");
    row("a tab is escaped in double quotes", "a\tb", "\"a\\tb\"");
    row("a carriage return is escaped in double quotes", "a\r", "\"a\\r\"");
    row("a control character is escaped in double quotes",
        std::string("a\x01"
                    "b"),
        "\"a\\x01b\"");
    row("a NUL is escaped in double quotes", std::string("a\0b", 3), "\"a\\0b\"");
    row("a byte order mark is escaped in double quotes", "\xEF\xBB\xBFx", "\"\\uFEFFx\"");
    row("a character beyond the BMP is escaped like go-yaml", "\xF0\x9F\x98\x80", "\"\\U0001F600\"");
    row("a line separator is escaped in double quotes",
        "a\xE2\x80\xA8"
        "b",
        "\"a\\Lb\"");
}

void TestYaml::quotesStrings()
{
    QFETCH(QByteArray, value);
    QFETCH(QByteArray, written);
    const Json object{{"k", value.toStdString()}};
    const std::string rendered = kube::toYaml(object);
    QCOMPARE(bytes(rendered), "k: " + written + "\n");
    QCOMPARE(readBack(rendered), object);
    // The same string as a key.
    const Json asKey{{value.toStdString(), 1}};
    QCOMPARE(readBack(kube::toYaml(asKey)), asKey);
}

namespace {

// Strings that exercise every quoting rule, mixed into generated documents.
const std::vector<std::string> &trickyStrings()
{
    static const std::vector<std::string> s = {
        "",
        " ",
        "  ",
        "a",
        "true",
        "True",
        "yes",
        "No",
        "on",
        "OFF",
        "y",
        "n",
        "null",
        "~",
        "NULL",
        "0",
        "-1",
        "+1",
        "1.5",
        "1e5",
        ".5",
        "0x1F",
        "0o17",
        "0b101",
        "0644",
        "1_000",
        ".inf",
        "-.inf",
        ".nan",
        "<<",
        "2024-01-02",
        "2024-01-02T03:04:05Z",
        "2024-1-2 3:04:05",
        "1:20",
        "a: b",
        "a:b",
        "a #b",
        "a#b",
        "#a",
        "-",
        "- a",
        "-a",
        "--",
        "---",
        "...",
        "?",
        "? a",
        "?a",
        ":",
        ": a",
        ":a",
        ",",
        "[",
        "]",
        "{",
        "}",
        "&a",
        "*a",
        "!a",
        "|",
        ">",
        "'",
        "\"",
        "%",
        "@",
        "`",
        "a'b",
        "a\"b",
        "a\\b",
        "\\",
        "a\nb",
        "a\nb\n",
        "a\n\n",
        "\n",
        "\n\n",
        "\na",
        " a\nb",
        "a \nb",
        "a\n b",
        "\ta",
        "a\t",
        "a\rb",
        "a\r\nb",
        "\x01",
        std::string("\0", 1),
        "\x7F",
        "\xC2\x85",
        "\xC2\xA0",
        "\xE2\x80\xA8",
        "\xEF\xBB\xBF",
        "\xF0\x9F\x98\x80",
        "caf\xC3\xA9",
        "key: |\n  x",
        "# comment\nx",
        "line1\n  indented\nline3\n",
        "trailing spaces   \nnext",
        "%YAML 1.2",
        "@at",
        "x: y: z",
        "a,b",
        "[1, 2]",
        "{a: 1}",
        "'quoted'",
        "\"dq\"",
        "end:",
        "end: ",
        "=",
        "0.",
        "-.5",
        "1e400",
        "99999999999999999999999",
        "9223372036854775808",
        "-9223372036854775809",
    };
    return s;
}

Json generate(std::mt19937 &rng, int depth)
{
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const auto &strings = trickyStrings();
    const int kind = depth >= 4 ? pick(6) : pick(9);
    switch (kind) {
    case 0:
        return nullptr;
    case 1:
        return pick(2) == 0;
    case 2:
        return static_cast<std::int64_t>(rng()) - (1LL << 31);
    case 3:
        return static_cast<double>(pick(100000)) / 64.0 - 500.0;
    case 4:
    case 5:
        return strings[static_cast<std::size_t>(pick(static_cast<int>(strings.size())))];
    case 6:
    case 7: {
        Json object = Json::object();
        const int n = pick(5);
        for (int i = 0; i < n; ++i) {
            std::string key = strings[static_cast<std::size_t>(pick(static_cast<int>(strings.size())))];
            object[key] = generate(rng, depth + 1);
        }
        return object;
    }
    default: {
        Json array = Json::array();
        const int n = pick(5);
        for (int i = 0; i < n; ++i)
            array.push_back(generate(rng, depth + 1));
        return array;
    }
    }
}

} // namespace

void TestYaml::roundTripsGeneratedValues()
{
    std::mt19937 rng(20240501);
    for (int i = 0; i < 3000; ++i) {
        const Json value = generate(rng, 0);
        const std::string yaml = kube::toYaml(value);
        const Json back = readBack(yaml);
        if (back != value) {
            qWarning("value: %s\nyaml:\n%s\nread back: %s", value.dump().c_str(), yaml.c_str(),
                     back.dump().c_str());
        }
        QCOMPARE(back, value);
    }
    // Every tricky string on its own, as a value and as a key, at the top level too.
    for (const std::string &s : trickyStrings()) {
        for (const Json &value :
             {Json(s), Json{{"k", s}}, Json{{s, s}}, Json::array({s, Json::array({s})})}) {
            const std::string yaml = kube::toYaml(value);
            const Json back = readBack(yaml);
            if (back != value)
                qWarning("value: %s\nyaml:\n%s\nread back: %s", value.dump().c_str(), yaml.c_str(),
                         back.dump().c_str());
            QCOMPARE(back, value);
        }
    }
}

// Property: render -> parse gives the same string for any sequence of Unicode scalar values,
// with emphasis on the astral planes, NEL (a line break to YAML), LS/PS, the BOM and controls.
void TestYaml::roundTripsEveryCodePoint()
{
    static const char32_t special[] = {
        0x85, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0xE0001, 0x0, 0x9, 0xA, 0xD,
        0x1B, 0x7F,   0xA0,   ' ',    ':',    '#',    '-',     '"',     '\'',     '\\',    'a', 'y', '1'};
    std::mt19937 rng(85);
    for (int i = 0; i < 4000; ++i) {
        std::string s;
        const int length = static_cast<int>(rng() % 6);
        for (int k = 0; k < length; ++k) {
            char32_t c;
            switch (rng() % 3) {
            case 0:
                c = special[rng() % (sizeof special / sizeof *special)];
                break;
            case 1:
                c = 0x10000 + rng() % (0x110000 - 0x10000); // astral
                break;
            default:
                c = rng() % 0x10000;
                if (c >= 0xD800 && c <= 0xDFFF) // surrogates are not scalar values
                    c = 0x85;
                break;
            }
            kube::appendUtf8(s, c);
        }
        const Json value = {{"v", s}, {s.empty() ? std::string("k") : s, Json::array({s})}};
        const std::string yaml = kube::toYaml(value);
        const Json back = readBack(yaml);
        if (back != value)
            qWarning("yaml:\n%s", yaml.c_str());
        QCOMPARE(back, value);
    }
}

void TestYaml::invalidUtf8NeverGivesUnreadableEscapes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("a code point above U+10FFFF (F4 90 80 80)") << QByteArray("a\xF4\x90\x80\x80"
                                                                             "b");
    QTest::newRow("a lead byte beyond F4") << QByteArray("\xF5\x80\x80\x80");
    QTest::newRow("an encoded surrogate") << QByteArray("\xED\xA0\x80");
    QTest::newRow("an overlong NUL") << QByteArray("\xC0\x80");
    QTest::newRow("an overlong slash") << QByteArray("\xE0\x80\xAF");
    QTest::newRow("a truncated emoji") << QByteArray("\xF0\x9F\x98");
    QTest::newRow("a lone continuation byte") << QByteArray("\x85");
}

// Such bytes cannot round-trip (YAML text is Unicode), but the output must stay readable: each
// bad byte is written as a \x escape, never as \U00110000 or \uD800, which yaml-cpp refuses.
void TestYaml::invalidUtf8NeverGivesUnreadableEscapes()
{
    QFETCH(QByteArray, bytes);
    const std::string s = bytes.toStdString();
    const std::string yaml = kube::toYaml(Json{{"k", s}});
    QVERIFY2(yaml.find("\\U") == std::string::npos && yaml.find("\\uD") == std::string::npos, yaml.c_str());
    const Json back = readBack(yaml);
    QVERIFY2(!back.contains("error"), yaml.c_str());
    QVERIFY(back.at("k").is_string());
}

void TestYaml::roundTripsLongKeysAndHugeStrings()
{
    const std::string longKey(300, 'k');
    const std::string veryLongKey(5000, 'q');
    std::string huge(5 * 1024 * 1024, 'x');
    for (std::size_t i = 100; i < huge.size(); i += 100)
        huge[i] = ' ';
    std::string hugeLines;
    for (int i = 0; i < 100000; ++i)
        hugeLines += "line " + std::to_string(i) + " of a long literal block\n";
    const Json value{
        {longKey, "v"},
        {veryLongKey, {{"nested", Json::array({1, 2})}}},
        {"list", Json::array({Json{{veryLongKey, "x"}, {"a", 1}}, Json{{"b", Json::array({longKey})}}})},
        {"huge", huge},
        {"lines", hugeLines}};
    QVERIFY(kube::toYaml(Json{{longKey, "v"}}) == "? " + longKey + "\n: v\n");
    const std::string yaml = kube::toYaml(value);
    QCOMPARE(readBack(yaml), value);
}

void TestYaml::surelyPlainStringAgreesWithTheResolver()
{
    // The words YAML 1.1 reads as null, booleans or a merge key; every other text that does not
    // start like a number is a string. Checked on those words, some near them, and every text of
    // up to three characters from an alphabet of their first letters, number characters and
    // indicators.
    const std::set<std::string> words = {"",      "~",     "null",  "Null", "NULL", "y",    "Y",
                                         "yes",   "Yes",   "YES",   "true", "True", "TRUE", "on",
                                         "On",    "ON",    "n",     "N",    "no",   "No",   "NO",
                                         "false", "False", "FALSE", "off",  "Off",  "OFF",  "<<"};
    std::vector<std::string> texts(words.begin(), words.end());
    for (const char *near :
         {"nULL", "nulls", "tRUE",  "falsey", "yES",  "oN",         "oFF",       "offer", "nO",
          "none", "name",  "image", "value",  "<<<",  "~~",         ".inf",      "-.Inf", "+.INF",
          ".nan", "1e3",   "0x1F",  "1_000",  "1:20", "2024-01-02", "agent:1.2", "a: b",  "#x"})
        texts.emplace_back(near);
    const std::string alphabet = "nNoOyYtTfFlLsSeEuUaA~<.+-0x_: #";
    for (char a : alphabet) {
        texts.emplace_back(1, a);
        for (char b : alphabet) {
            texts.push_back(std::string{a, b});
            for (char c : alphabet)
                texts.push_back(std::string{a, b, c});
        }
    }
    for (const std::string &text : texts) {
        const bool sure = kube::surelyPlainString(text);
        const bool numberLike =
            !text.empty() && std::string_view("0123456789+-.").find(text[0]) != std::string_view::npos;
        if (numberLike) {
            QVERIFY2(!sure, ("surely a string, though it starts like a number: \"" + text + "\"").c_str());
            continue;
        }
        const bool expected = !words.count(text);
        QVERIFY2(sure == expected, ("surelyPlainString wrong about \"" + text + "\"").c_str());
        const bool resolved = kube::resolvePlainScalar(text).kind == kube::PlainScalarKind::String;
        QVERIFY2(resolved == expected, ("resolvePlainScalar wrong about \"" + text + "\"").c_str());
    }
}

QTEST_APPLESS_MAIN(TestYaml)
#include "tst_yaml.moc"
