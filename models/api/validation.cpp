#include "models/api/validation.h"

#include "models/kube/fieldtypes.h"
#include "models/kube/jsonfield.h"

#include <cctype>

namespace api {

using kube::Json;

namespace {

constexpr std::size_t kShownValueLength = 256;

// A copy of the member, or null: the callers below only read, and a null of the right type
// lets one code path cover "absent", "null" and "not an object".
Json memberOrNull(const Json &object, const char *key)
{
    const Json *v = kube::member(object, key);
    return v ? *v : Json();
}

bool isAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool isLabelText(std::string_view s)
{
    if (s.empty() || !isAlnum(s.front()) || !isAlnum(s.back()))
        return false;
    for (char c : s)
        if (!isAlnum(c) && c != '-')
            return false;
    return true;
}

bool isDns1123Label(const std::string &s)
{
    return isLabelText(s);
}

// Labels joined by '.'
bool isDns1123Subdomain(const std::string &s)
{
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = s.find('.', start);
        if (!isLabelText(std::string_view(s).substr(start, dot == std::string::npos ? std::string::npos
                                                                                    : dot - start)))
            return false;
        if (dot == std::string::npos)
            return true;
        start = dot + 1;
    }
}

std::string goQuote(const std::string &s)
{
    std::string out;
    kube::appendGoString(out, s);
    return out;
}

// Go's %q of a string value; very long values are cut (upstream prints them whole).
std::string shownValue(const std::string &value)
{
    if (value.size() <= kShownValueLength)
        return goQuote(value);
    return goQuote(value.substr(0, kShownValueLength)) + "... (" + std::to_string(value.size()) + " bytes)";
}

std::string goMap(const Json &labels)
{
    if (!labels.is_object() || labels.empty())
        return "map[string]string(nil)";
    std::string out = "map[string]string{";
    bool first = true;
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        if (!first)
            out += ", ";
        first = false;
        out += goQuote(it.key()) + ":" +
               goQuote(it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
    }
    return out + "}";
}

std::string goIntOrString(const Json &v)
{
    if (v.is_string())
        return "intstr.IntOrString{Type:1, IntVal:0, StrVal:" + goQuote(v.get<std::string>()) + "}";
    const long long i = v.is_number_integer() ? v.get<long long>() : 0;
    return "intstr.IntOrString{Type:0, IntVal:" + std::to_string(i) + ", StrVal:\"\"}";
}

std::string goSelector(const Json &sel)
{
    std::string out =
        "v1.LabelSelector{MatchLabels:" + goMap(sel.is_object() ? sel.value("matchLabels", Json()) : Json());
    out += ", MatchExpressions:";
    const Json me = sel.is_object() ? sel.value("matchExpressions", Json()) : Json();
    if (!me.is_array() || me.empty()) {
        out += "[]v1.LabelSelectorRequirement(nil)";
    } else {
        out += "[]v1.LabelSelectorRequirement{";
        bool first = true;
        for (const auto &r : me) {
            if (!first)
                out += ", ";
            first = false;
            out += "v1.LabelSelectorRequirement{Key:" + goQuote(kube::stringOr(r, "key")) +
                   ", Operator:" + goQuote(kube::stringOr(r, "operator")) + ", Values:[]string{";
            bool f2 = true;
            const Json values = memberOrNull(r, "values");
            for (const auto &v : values.is_array() ? values : Json::array()) {
                if (!f2)
                    out += ", ";
                f2 = false;
                out += goQuote(v.is_string() ? v.get<std::string>() : v.dump());
            }
            out += "}}";
        }
        out += "}";
    }
    return out + "}";
}

bool isPercent(const std::string &s)
{
    if (s.size() < 2 || s.back() != '%')
        return false;
    for (std::size_t i = 0; i + 1 < s.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return false;
    return true;
}

// getIntOrPercentValue: the int, or the number before '%' (0 when unparsable; percentages past
// any sensible value saturate instead of overflowing).
long long intOrPercentValue(const Json &v)
{
    if (v.is_number_integer())
        return v.get<long long>();
    if (v.is_string() && isPercent(v.get<std::string>())) {
        long long n = 0;
        const std::string &s = v.get_ref<const std::string &>();
        for (std::size_t i = 0; i + 1 < s.size() && n <= 1'000'000'000; ++i)
            n = n * 10 + (s[i] - '0');
        return n;
    }
    return 0;
}

struct Errors
{
    std::vector<std::string> list;
    void add(std::string e) { list.push_back(std::move(e)); }
    void nonNegative(const Json &spec, const char *field, const std::string &path)
    {
        const long long v = kube::integerOr(spec, field, 0LL);
        if (v < 0)
            add(path + ": Invalid value: " + std::to_string(v) + ": must be greater than or equal to 0");
    }
    void intOrPercent(const Json &v, const std::string &path)
    {
        if (v.is_string()) {
            if (!isPercent(v.get<std::string>()))
                add(path + ": Invalid value: " + goIntOrString(v) +
                    ": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%', "
                    " or "
                    "'93%', regex used for validation is '[0-9]+%')");
        } else if (intOrPercentValue(v) < 0) {
            add(path + ": Invalid value: " + std::to_string(intOrPercentValue(v)) +
                ": must be greater than or equal to 0");
        }
        if (v.is_string() && isPercent(v.get<std::string>()) && intOrPercentValue(v) > 100)
            add(path + ": Invalid value: " + goIntOrString(v) + ": must not be greater than 100%");
    }
};

} // namespace

std::vector<std::string> rollingUpdateErrors(const Json &rollingUpdate)
{
    Errors e;
    const Json *muField = kube::member(rollingUpdate, "maxUnavailable");
    const Json *msField = kube::member(rollingUpdate, "maxSurge");
    const Json mu = muField ? *muField : Json(0);
    const Json ms = msField ? *msField : Json(0);
    e.intOrPercent(mu, "spec.updateStrategy.rollingUpdate.maxUnavailable");
    e.intOrPercent(ms, "spec.updateStrategy.rollingUpdate.maxSurge");
    const bool hasUnavailable = intOrPercentValue(mu) != 0;
    const bool hasSurge = intOrPercentValue(ms) != 0;
    if (hasUnavailable && hasSurge)
        e.add("spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: " + goIntOrString(ms) +
              ": may not be set when maxUnavailable is non-zero");
    else if (!hasUnavailable && !hasSurge)
        e.add("spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when "
              "maxSurge is 0");
    return std::move(e.list);
}

kube::ApiStatus nameMismatch(const std::string &objectName, const std::string &urlName)
{
    return kube::ApiStatus::badRequest("the name of the object (" + objectName +
                                       ") does not match the name on the URL (" + urlName + ")");
}

kube::Result<void> invalidIfAny(const std::string &kind, const std::string &name,
                                std::vector<std::string> errors)
{
    if (errors.empty())
        return {};
    std::string why;
    if (errors.size() == 1) {
        why = errors.front();
    } else {
        why = "[";
        for (std::size_t i = 0; i < errors.size(); ++i)
            why += (i ? ", " : "") + errors[i];
        why += "]";
    }
    kube::ApiStatus status = kube::ApiStatus::invalid(kind, name, why);
    // details.causes as NewInvalid builds them: one per field error, its type from the error's
    // wording, its message the error without the field path.
    static const std::pair<const char *, const char *> kTypes[] = {
        {"Invalid value", "FieldValueInvalid"},     {"Unsupported value", "FieldValueNotSupported"},
        {"Required value", "FieldValueRequired"},   {"Forbidden", "FieldValueForbidden"},
        {"Duplicate value", "FieldValueDuplicate"}, {"Too long", "FieldValueTooLong"},
        {"Too many", "FieldValueTooMany"},          {"Not found", "FieldValueNotFound"}};
    for (const auto &error : errors) {
        kube::StatusCause cause;
        const auto colon = error.find(": ");
        cause.field = colon == std::string::npos ? std::string() : error.substr(0, colon);
        cause.message = colon == std::string::npos ? error : error.substr(colon + 2);
        cause.type = "FieldValueInvalid";
        for (const auto &[wording, type] : kTypes)
            if (cause.message.rfind(wording, 0) == 0)
                cause.type = type;
        status.causes.push_back(std::move(cause));
    }
    return status;
}

std::vector<std::string> dns1123SubdomainErrors(const std::string &value)
{
    std::vector<std::string> errs;
    if (value.size() > kDns1123SubdomainMaxLength)
        errs.push_back("must be no more than " + std::to_string(kDns1123SubdomainMaxLength) + " characters");
    if (!isDns1123Subdomain(value))
        errs.push_back(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
            "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
            "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    return errs;
}

std::vector<std::string> dns1123LabelErrors(const std::string &value)
{
    std::vector<std::string> errs;
    if (value.size() > kDns1123LabelMaxLength)
        errs.push_back("must be no more than " + std::to_string(kDns1123LabelMaxLength) + " characters");
    if (!isDns1123Label(value)) {
        if (isDns1123Subdomain(value)) // a valid subdomain, so it has dots
            errs.push_back("must not contain dots");
        else
            errs.push_back(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                "and must start and end with an alphanumeric character (e.g. 'my-name',  or "
                "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    }
    return errs;
}

// ValidateObjectMeta (apimachinery/pkg/api/validation/objectmeta.go), the parts the engine keeps.
std::vector<std::string> objectMetaErrors(const kube::ObjectMeta &meta, bool namespaced, NameRule rule)
{
    Errors e;
    const auto nameErrors = [&](const std::string &name) {
        return rule == NameRule::Dns1123Label ? dns1123LabelErrors(name) : dns1123SubdomainErrors(name);
    };
    if (!meta.generateName.empty()) {
        // A prefix may end in '-': the generated suffix follows it.
        std::string prefix = meta.generateName;
        if (prefix.size() > 1 && prefix.back() == '-')
            prefix.back() = 'a';
        for (const auto &msg : nameErrors(prefix))
            e.add("metadata.generateName: Invalid value: " + shownValue(meta.generateName) + ": " + msg);
    }
    if (meta.name.empty()) {
        e.add("metadata.name: Required value: name or generateName is required");
    } else {
        for (const auto &msg : nameErrors(meta.name))
            e.add("metadata.name: Invalid value: " + shownValue(meta.name) + ": " + msg);
    }
    if (namespaced) {
        if (meta.namespace_.empty()) {
            e.add("metadata.namespace: Required value");
        } else {
            for (const auto &msg : dns1123LabelErrors(meta.namespace_))
                e.add("metadata.namespace: Invalid value: " + shownValue(meta.namespace_) + ": " + msg);
        }
    } else if (!meta.namespace_.empty()) {
        e.add("metadata.namespace: Forbidden: not allowed on this type");
    }
    if (meta.generation < 0)
        e.add("metadata.generation: Invalid value: " + std::to_string(meta.generation) +
              ": must be greater than or equal to 0");
    std::size_t annotationBytes = 0;
    for (const auto &[k, v] : meta.annotations)
        annotationBytes += k.size() + v.size();
    if (annotationBytes > kTotalAnnotationSizeLimit)
        e.add("metadata.annotations: Too long: must have at most " +
              std::to_string(kTotalAnnotationSizeLimit) + " bytes");
    return std::move(e.list);
}

kube::Result<void> validateObjectMeta(const std::string &qualifiedKind, const kube::ObjectMeta &meta,
                                      bool namespaced, NameRule rule)
{
    return invalidIfAny(qualifiedKind, meta.name, objectMetaErrors(meta, namespaced, rule));
}

kube::Result<void> validateDaemonSet(const kube::DaemonSet &ds, const kube::DaemonSet *old)
{
    Errors e;
    e.list = objectMetaErrors(ds.metadata, true, NameRule::Dns1123Subdomain);
    // The API server decodes the body into typed structs before it validates anything, so a
    // value of the wrong JSON type is reported alone: nothing after it could be read.
    if (const auto typeErrors = kube::daemonSetSpecTypeErrors(ds.spec); !typeErrors.empty()) {
        for (const auto &t : typeErrors)
            e.add(t.text());
        return invalidIfAny("DaemonSet.apps", ds.metadata.name, std::move(e.list));
    }
    // From here on every field has its type (or is absent or null).
    const Json &spec = ds.spec;
    const Json sel = memberOrNull(spec, "selector");
    const Json &tpl = ds.podTemplate();
    const Json tplLabels = memberOrNull(memberOrNull(tpl, "metadata"), "labels");
    if (sel.is_null()) {
        e.add("spec.selector: Required value");
        e.add("spec.template.metadata.labels: Invalid value: " + goMap(tplLabels) +
              ": `selector` does not match template `labels`");
    } else {
        auto selector = ds.selector();
        kube::StringMap labels;
        if (auto l = kube::stringMapFromJson(tplLabels, "labels"))
            labels = *l;
        if (selector && !selector->matches(labels))
            e.add("spec.template.metadata.labels: Invalid value: " + goMap(tplLabels) +
                  ": `selector` does not match template `labels`");
        if (selector && selector->empty())
            e.add("spec.selector: Invalid value: " + goSelector(sel) +
                  ": empty selector is invalid for daemonset");
    }
    const Json podSpec = memberOrNull(tpl, "spec");
    const Json containers = memberOrNull(podSpec, "containers");
    if (!containers.is_array() || containers.empty()) {
        e.add("spec.template.spec.containers: Required value");
    } else {
        for (std::size_t i = 0; i < containers.size(); ++i) {
            const std::string p = "spec.template.spec.containers[" + std::to_string(i) + "]";
            if (kube::stringOr(containers[i], "name").empty())
                e.add(p + ".name: Required value");
            if (kube::stringOr(containers[i], "image").empty())
                e.add(p + ".image: Required value");
        }
    }
    const std::string restart = kube::stringOr(podSpec, "restartPolicy", "Always");
    if (restart != "Always")
        e.add("spec.template.spec.restartPolicy: Unsupported value: " + goQuote(restart) +
              ": supported values: \"Always\"");
    if (const Json *deadline = kube::member(podSpec, "activeDeadlineSeconds"))
        e.add("spec.template.spec.activeDeadlineSeconds: Invalid value: " + deadline->dump() +
              ": activeDeadlineSeconds in DaemonSet is not Supported");
    e.nonNegative(spec, "minReadySeconds", "spec.minReadySeconds");
    const Json us = memberOrNull(spec, "updateStrategy");
    const std::string type = kube::stringOr(us, "type");
    if (type == "RollingUpdate") {
        const Json ru = memberOrNull(us, "rollingUpdate");
        if (!ru.is_object()) {
            e.add("spec.updateStrategy.rollingUpdate: Required value");
        } else {
            for (std::string &error : rollingUpdateErrors(ru))
                e.add(std::move(error));
        }
    } else if (type != "OnDelete") {
        std::string ru = "(*apps.RollingUpdateDaemonSet)(nil)";
        e.add("spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:" + goQuote(type) +
              ", RollingUpdate:" + ru + "}: supported values: \"RollingUpdate\", \"OnDelete\"");
    }
    e.nonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit");
    if (old) {
        const Json oldSel = memberOrNull(old->spec, "selector");
        if (oldSel != sel)
            e.add("spec.selector: Invalid value: " + goSelector(sel) + ": field is immutable");
    }
    return invalidIfAny("DaemonSet.apps", ds.metadata.name, std::move(e.list));
}

kube::Result<void> validateDaemonSetStatus(const kube::DaemonSet &ds, const kube::DaemonSet &old)
{
    std::vector<std::string> errs;
    const auto &s = ds.status;
    const std::pair<const char *, long long> counters[] = {
        {"currentNumberScheduled", s.currentNumberScheduled},
        {"numberMisscheduled", s.numberMisscheduled},
        {"desiredNumberScheduled", s.desiredNumberScheduled},
        {"numberReady", s.numberReady},
        {"observedGeneration", s.observedGeneration},
        {"updatedNumberScheduled", s.updatedNumberScheduled},
        {"numberAvailable", s.numberAvailable},
        {"numberUnavailable", s.numberUnavailable}};
    for (const auto &[name, v] : counters)
        if (v < 0)
            errs.push_back(std::string("status.") + name + ": Invalid value: " + std::to_string(v) +
                           ": must be greater than or equal to 0");
    if (s.collisionCount && *s.collisionCount < 0)
        errs.push_back("status.collisionCount: Invalid value: " + std::to_string(*s.collisionCount) +
                       ": must be greater than or equal to 0");
    if (old.status.collisionCount && (!s.collisionCount || *s.collisionCount < *old.status.collisionCount))
        errs.push_back("status.collisionCount: Invalid value: " +
                       (s.collisionCount ? std::to_string(*s.collisionCount) : std::string("null")) +
                       ": cannot be decremented");
    return invalidIfAny("DaemonSet.apps", ds.metadata.name, std::move(errs));
}

kube::Result<void> validatePodDisruptionBudget(const kube::PodDisruptionBudget &pdb)
{
    Errors e;
    const auto &spec = pdb.spec;
    if (spec.minAvailable && spec.maxUnavailable)
        e.add("spec: Invalid value: " + kube::goJson(pdb.toJson()["spec"]) +
              ": minAvailable and maxUnavailable cannot be both set");
    if (spec.minAvailable)
        e.intOrPercent(spec.minAvailable->toJson(), "spec.minAvailable");
    if (spec.maxUnavailable)
        e.intOrPercent(spec.maxUnavailable->toJson(), "spec.maxUnavailable");
    const std::string &policy = spec.unhealthyPodEvictionPolicy;
    if (!policy.empty() && policy != "IfHealthyBudget" && policy != "AlwaysAllow")
        e.add("spec.unhealthyPodEvictionPolicy: Unsupported value: \"" + policy +
              "\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"");
    return invalidIfAny("PodDisruptionBudget.policy", pdb.metadata.name, std::move(e.list));
}

} // namespace api
