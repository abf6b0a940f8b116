#include "models/api/phrase.h"

#include "models/api/nodeupgradeevents.h"
#include "models/api/nodeupgradephrases.h"

namespace api {

Phrase Phrase::of(PhraseCatalog catalog, int code, std::vector<PhraseArg> args)
{
    Phrase p;
    p.kind = Kind::Template;
    p.catalog = catalog;
    p.code = code;
    p.args = std::move(args);
    return p;
}

Phrase Phrase::list(std::vector<Phrase> items, std::string separator, std::size_t max)
{
    Phrase p;
    p.kind = Kind::List;
    p.text = std::move(separator);
    p.items = std::move(items);
    p.max = max;
    return p;
}

Phrase Phrase::list(const std::vector<std::string> &items, std::string separator, std::size_t max)
{
    std::vector<Phrase> phrases;
    phrases.reserve(items.size());
    for (const auto &s : items)
        phrases.emplace_back(s);
    return list(std::move(phrases), std::move(separator), max);
}

const Phrase *Phrase::arg(std::string_view name) const
{
    for (const auto &a : args)
        if (a.name == name)
            return &a.value;
    return nullptr;
}

bool Phrase::operator==(const Phrase &o) const
{
    return kind == o.kind && catalog == o.catalog && code == o.code && text == o.text && args == o.args &&
           items == o.items && max == o.max;
}

std::string fillTemplate(std::string_view text, const std::vector<PhraseArg> &args,
                         const PhraseLookup &lookup)
{
    std::string out;
    out.reserve(text.size() + 16);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{') {
            const auto end = text.find('}', i);
            if (end != std::string_view::npos) {
                const std::string_view name = text.substr(i + 1, end - i - 1);
                for (const auto &a : args)
                    if (a.name == name) {
                        out += render(a.value, lookup);
                        break;
                    }
                i = end;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

std::string render(const Phrase &p, const PhraseLookup &lookup)
{
    switch (p.kind) {
    case Phrase::Kind::Literal:
        return p.text;
    case Phrase::Kind::Template:
        return fillTemplate(lookup(p.catalog, p.code), p.args, lookup);
    case Phrase::Kind::List:
        break;
    }
    const std::size_t shown = p.max > 0 && p.items.size() > p.max ? p.max : p.items.size();
    std::string out;
    for (std::size_t i = 0; i < shown; ++i) {
        if (i)
            out += p.text;
        out += render(p.items[i], lookup);
    }
    if (shown == p.items.size())
        return out;
    return fillTemplate(
        lookup(PhraseCatalog::Upgrade, static_cast<int>(UpgradePhrase::AndMore)),
        {{"items", Phrase(std::move(out))}, {"count", std::to_string(p.items.size() - shown)}}, lookup);
}

std::string english(const Phrase &phrase)
{
    static const PhraseLookup lookup = [](PhraseCatalog catalog, int code) -> std::string {
        if (catalog == PhraseCatalog::Event)
            return upgradeReasonText(static_cast<UpgradeReason>(code));
        return upgradePhraseText(static_cast<UpgradePhrase>(code));
    };
    return render(phrase, lookup);
}

} // namespace api
