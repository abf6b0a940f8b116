#include "models/kube/labelselector.h"

#include <algorithm>

namespace kube {

bool LabelSelector::matches(const StringMap &labels) const
{
    for (const auto &[k, v] : matchLabels) {
        auto it = labels.find(k);
        if (it == labels.end() || it->second != v)
            return false;
    }
    for (const auto &req : matchExpressions) {
        auto it = labels.find(req.key);
        const bool has = it != labels.end();
        const bool inValues =
            has && std::find(req.values.begin(), req.values.end(), it->second) != req.values.end();
        if (req.op == "In" && !inValues)
            return false;
        if (req.op == "NotIn" && inValues)
            return false;
        if (req.op == "Exists" && !has)
            return false;
        if (req.op == "DoesNotExist" && has)
            return false;
    }
    return true;
}

std::string LabelSelector::toQueryString() const
{
    std::string out;
    auto add = [&](const std::string &part) {
        if (!out.empty())
            out += ',';
        out += part;
    };
    for (const auto &[k, v] : matchLabels)
        add(k + "=" + v);
    for (const auto &req : matchExpressions) {
        std::vector<std::string> values = req.values;
        std::sort(values.begin(), values.end());
        std::string list;
        for (const auto &v : values)
            list += (list.empty() ? "" : ",") + v;
        if (req.op == "In")
            add(req.key + " in (" + list + ")");
        else if (req.op == "NotIn")
            add(req.key + " notin (" + list + ")");
        else if (req.op == "Exists")
            add(req.key);
        else if (req.op == "DoesNotExist")
            add("!" + req.key);
    }
    return out;
}

std::vector<std::string> LabelSelector::splitTerms(const std::string &text)
{
    std::vector<std::string> parts;
    std::string cur;
    int depth = 0;
    for (char c : text) {
        if (c == '(')
            ++depth;
        else if (c == ')')
            --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

namespace {

std::string trimSpaces(const std::string &s)
{
    const auto b = s.find_first_not_of(' ');
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(' ');
    return s.substr(b, e - b + 1);
}

} // namespace

Result<LabelSelector> LabelSelector::fromQueryString(const std::string &text)
{
    LabelSelector sel;
    for (const auto &raw : splitTerms(text)) {
        const std::string term = trimSpaces(raw);
        if (term.empty())
            continue;
        LabelSelectorRequirement r;
        std::size_t pos;
        if ((pos = term.find(" notin ")) != std::string::npos ||
            (pos = term.find(" in ")) != std::string::npos) {
            const bool notIn = term.compare(pos, 7, " notin ") == 0;
            r.key = trimSpaces(term.substr(0, pos));
            r.op = notIn ? "NotIn" : "In";
            const std::string vals = trimSpaces(term.substr(pos + (notIn ? 7 : 4)));
            if (vals.size() < 2 || vals.front() != '(' || vals.back() != ')')
                return ApiStatus::badRequest("unable to parse requirement: " + term);
            for (const auto &v : splitTerms(vals.substr(1, vals.size() - 2)))
                if (!trimSpaces(v).empty())
                    r.values.push_back(trimSpaces(v));
        } else if ((pos = term.find("!=")) != std::string::npos) {
            r.key = trimSpaces(term.substr(0, pos));
            r.op = "NotIn";
            r.values = {trimSpaces(term.substr(pos + 2))};
        } else if ((pos = term.find('=')) != std::string::npos) {
            const std::size_t skip = term.compare(pos, 2, "==") == 0 ? 2 : 1;
            r.key = trimSpaces(term.substr(0, pos));
            r.op = "In";
            r.values = {trimSpaces(term.substr(pos + skip))};
        } else if (term[0] == '!') {
            r.key = trimSpaces(term.substr(1));
            r.op = "DoesNotExist";
        } else {
            r.key = term;
            r.op = "Exists";
        }
        if (r.key.empty() || r.key.find_first_of(" ()!=") != std::string::npos)
            return ApiStatus::badRequest("unable to parse requirement: " + term);
        sel.matchExpressions.push_back(std::move(r));
    }
    return sel;
}

Json LabelSelector::toJson() const
{
    Json j = Json::object();
    if (!matchLabels.empty())
        j["matchLabels"] = stringMapToJson(matchLabels);
    if (!matchExpressions.empty()) {
        Json arr = Json::array();
        for (const auto &r : matchExpressions) {
            Json e = {{"key", r.key}, {"operator", r.op}};
            if (!r.values.empty())
                e["values"] = r.values;
            arr.push_back(std::move(e));
        }
        j["matchExpressions"] = std::move(arr);
    }
    return j;
}

Result<LabelSelector> LabelSelector::fromJson(const Json &j)
{
    LabelSelector s;
    if (j.is_null())
        return s;
    if (!j.is_object())
        return ApiStatus::badRequest("field selector: expected an object");
    if (auto it = j.find("matchLabels"); it != j.end()) {
        auto m = stringMapFromJson(*it, "selector.matchLabels");
        if (!m)
            return m.error();
        s.matchLabels = std::move(*m);
    }
    if (auto it = j.find("matchExpressions"); it != j.end() && !it->is_null()) {
        if (!it->is_array())
            return ApiStatus::badRequest("field selector.matchExpressions: expected a list");
        for (const auto &e : *it) {
            if (!e.is_object() || !e.contains("key") || !e["key"].is_string() || !e.contains("operator") ||
                !e["operator"].is_string())
                return ApiStatus::badRequest(
                    "field selector.matchExpressions[]: expected {key, operator, values}");
            LabelSelectorRequirement r;
            r.key = e["key"].get<std::string>();
            r.op = e["operator"].get<std::string>();
            if (r.op != "In" && r.op != "NotIn" && r.op != "Exists" && r.op != "DoesNotExist")
                return ApiStatus::badRequest("field selector.matchExpressions[].operator: \"" + r.op +
                                             "\" is not a valid label selector operator");
            if (auto v = e.find("values"); v != e.end() && !v->is_null()) {
                if (!v->is_array())
                    return ApiStatus::badRequest("field selector.matchExpressions[].values: expected a list");
                for (const auto &x : *v) {
                    if (!x.is_string())
                        return ApiStatus::badRequest(
                            "field selector.matchExpressions[].values[]: expected a string");
                    r.values.push_back(x.get<std::string>());
                }
            }
            if ((r.op == "In" || r.op == "NotIn") && r.values.empty())
                return ApiStatus::badRequest(
                    "field selector.matchExpressions[].values: must be specified when "
                    "`operator` is 'In' or 'NotIn'");
            if ((r.op == "Exists" || r.op == "DoesNotExist") && !r.values.empty())
                return ApiStatus::badRequest("field selector.matchExpressions[].values: may not be specified "
                                             "when `operator` is 'Exists' or 'DoesNotExist'");
            s.matchExpressions.push_back(std::move(r));
        }
    }
    return s;
}

} // namespace kube
