#include "models/api/phrasejson.h"

#include "models/api/nodeupgradeevents.h"
#include "models/api/nodeupgradephrases.h"

namespace api {

using kube::Json;

Json phraseToJson(const Phrase &phrase)
{
    switch (phrase.kind) {
    case Phrase::Kind::Literal:
        return phrase.text;
    case Phrase::Kind::Template: {
        Json j = Json::object();
        if (phrase.catalog == PhraseCatalog::Event)
            j["event"] = upgradeReasonName(static_cast<UpgradeReason>(phrase.code));
        else
            j["phrase"] = upgradePhraseName(static_cast<UpgradePhrase>(phrase.code));
        if (!phrase.args.empty()) {
            Json args = Json::array();
            for (const auto &a : phrase.args)
                args.push_back(Json::array({a.name, phraseToJson(a.value)}));
            j["args"] = std::move(args);
        }
        return j;
    }
    case Phrase::Kind::List: {
        Json items = Json::array();
        for (const auto &item : phrase.items)
            items.push_back(phraseToJson(item));
        Json j = {{"list", std::move(items)}, {"separator", phrase.text}};
        if (phrase.max > 0)
            j["max"] = phrase.max;
        return j;
    }
    }
    return Json();
}

namespace {

std::optional<Phrase> templateFromJson(const Json &json)
{
    const auto upgrade = json.find("phrase");
    const auto event = json.find("event");
    if ((upgrade == json.end()) == (event == json.end()))
        return std::nullopt; // exactly one catalogue
    const Json &name = upgrade != json.end() ? *upgrade : *event;
    if (!name.is_string())
        return std::nullopt;
    Phrase p;
    p.kind = Phrase::Kind::Template;
    if (upgrade != json.end()) {
        const auto code = upgradePhraseNamed(name.get_ref<const std::string &>());
        if (!code)
            return std::nullopt;
        p.catalog = PhraseCatalog::Upgrade;
        p.code = static_cast<int>(*code);
    } else {
        const auto code = upgradeReasonNamed(name.get_ref<const std::string &>());
        if (!code)
            return std::nullopt;
        p.catalog = PhraseCatalog::Event;
        p.code = static_cast<int>(*code);
    }
    const auto args = json.find("args");
    if (args == json.end())
        return json.size() == 1 ? std::optional<Phrase>(std::move(p)) : std::nullopt;
    if (!args->is_array() || json.size() != 2)
        return std::nullopt;
    for (const Json &a : *args) {
        if (!a.is_array() || a.size() != 2 || !a[0].is_string())
            return std::nullopt;
        auto value = phraseFromJson(a[1]);
        if (!value)
            return std::nullopt;
        p.args.push_back({a[0].get<std::string>(), std::move(*value)});
    }
    return p;
}

std::optional<Phrase> listFromJson(const Json &json)
{
    const auto items = json.find("list");
    const auto separator = json.find("separator");
    const auto max = json.find("max");
    if (!items->is_array() || separator == json.end() || !separator->is_string())
        return std::nullopt;
    if (json.size() != (max == json.end() ? 2u : 3u))
        return std::nullopt;
    if (max != json.end() && (!max->is_number_unsigned() || max->get<std::uint64_t>() == 0))
        return std::nullopt;
    std::vector<Phrase> phrases;
    phrases.reserve(items->size());
    for (const Json &item : *items) {
        auto value = phraseFromJson(item);
        if (!value)
            return std::nullopt;
        phrases.push_back(std::move(*value));
    }
    return Phrase::list(std::move(phrases), separator->get<std::string>(),
                        max == json.end() ? 0 : static_cast<std::size_t>(max->get<std::uint64_t>()));
}

} // namespace

std::optional<Phrase> phraseFromJson(const Json &json)
{
    if (json.is_string())
        return Phrase(json.get<std::string>());
    if (!json.is_object())
        return std::nullopt;
    if (json.contains("list"))
        return listFromJson(json);
    return templateFromJson(json);
}

} // namespace api
