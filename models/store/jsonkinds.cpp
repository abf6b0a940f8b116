// Store: the JSON kinds — NodeUpgradeRollout, coordination.k8s.io/v1 Lease and v1
// Service. Their objects are decoded, checked and defaulted here and kept in canonical form
// (known fields only, defaults filled in), so two writes of the same object compare equal as
// JSON and a write that changes nothing is not made.
//
// Lease: LeaseSpec's fields with their Go types; acquireTime and renewTime are MicroTime
// (RFC 3339 with six fractional digits, UTC); ValidateLeaseSpec's checks. The Service is in
// servicekind.cpp, the Job in jobkind.cpp.

#include "models/api/nodeupgraderollout.h"
#include "models/api/validation.h"
#include "models/kube/jsonfield.h"
#include "models/store/jsondecode.h"
#include "models/store/store.h"

#include <algorithm>
#include <cstdio>

namespace store {

using kube::ApiStatus;
using kube::Json;

namespace {

const char *goJsonTypeName(const Json &v)
{
    if (v.is_string())
        return "string";
    if (v.is_number())
        return "number";
    if (v.is_boolean())
        return "bool";
    if (v.is_array())
        return "array";
    return "object";
}

} // namespace

ApiStatus cannotDecode(api::Kind kind, const std::string &goField, const Json &got, const char *goType)
{
    const std::string version = api::apiVersion(kind);
    const auto slash = version.find('/');
    return ApiStatus::badRequest(std::string(api::kindName(kind)) + " in version \"" +
                                 (slash == std::string::npos ? version : version.substr(slash + 1)) +
                                 "\" cannot be handled as a " + api::kindName(kind) +
                                 ": json: cannot unmarshal " + goJsonTypeName(got) +
                                 " into Go struct field " + goField + " of type " + goType);
}

bool isInt32(const Json &v)
{
    if (!v.is_number_integer())
        return false;
    const auto n = v.get<long long>();
    return n >= INT32_MIN && n <= INT32_MAX;
}

namespace {

// metav1.MicroTime as the API server writes it back: UTC with six fractional digits. The
// fraction is taken from the text (offsets shift whole minutes, never the fraction).
std::optional<std::string> canonicalMicroTime(const std::string &text)
{
    auto t = kube::parseRfc3339(text);
    if (!t)
        return std::nullopt;
    std::int64_t micros = 0;
    std::size_t digits = 0;
    if (auto dot = text.find('.'); dot != std::string::npos)
        for (std::size_t i = dot + 1;
             i < text.size() && digits < 6 && std::isdigit(static_cast<unsigned char>(text[i]));
             ++i, ++digits)
            micros = micros * 10 + (text[i] - '0');
    for (; digits < 6; ++digits)
        micros *= 10;
    const std::int64_t seconds = (*t - (((*t % 1000) + 1000) % 1000)) / 1000;
    return kube::formatMicroTime(seconds, micros);
}

// ---- Lease ----------------------------------------------------------------------------------

kube::Result<Json> leaseSpec(const Json *spec, const std::string &name)
{
    Json out = Json::object();
    if (!spec || spec->is_null())
        return out;
    if (!spec->is_object())
        return cannotDecode(api::Kind::Lease, "Lease.spec", *spec, "v1.LeaseSpec");
    std::vector<std::string> errors;
    for (const char *field : {"holderIdentity", "strategy", "preferredHolder"}) {
        const Json *v = kube::member(*spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_string())
            return cannotDecode(api::Kind::Lease, std::string("LeaseSpec.spec.") + field, *v, "string");
        out[field] = *v;
    }
    for (const char *field : {"leaseDurationSeconds", "leaseTransitions"}) {
        const Json *v = kube::member(*spec, field);
        if (!v || v->is_null())
            continue;
        if (!isInt32(*v))
            return cannotDecode(api::Kind::Lease, std::string("LeaseSpec.spec.") + field, *v, "int32");
        out[field] = *v;
        const long long n = v->get<long long>();
        if (std::string(field) == "leaseDurationSeconds" && n <= 0)
            errors.push_back("spec.leaseDurationSeconds: Invalid value: " + std::to_string(n) +
                             ": must be greater than 0");
        if (std::string(field) == "leaseTransitions" && n < 0)
            errors.push_back("spec.leaseTransitions: Invalid value: " + std::to_string(n) +
                             ": must be greater than or equal to 0");
    }
    for (const char *field : {"acquireTime", "renewTime"}) {
        const Json *v = kube::member(*spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_string())
            return cannotDecode(api::Kind::Lease, std::string("LeaseSpec.spec.") + field, *v, "v1.MicroTime");
        auto canonical = canonicalMicroTime(v->get<std::string>());
        if (!canonical)
            return ApiStatus::badRequest(
                "Lease in version \"v1\" cannot be handled as a Lease: parsing time \"" +
                v->get<std::string>() + "\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse");
        out[field] = *canonical;
    }
    if (out.contains("preferredHolder") && !out.contains("strategy"))
        errors.push_back("spec.strategy: Required value: must be specified when preferredHolder is set");
    if (auto r = api::invalidIfAny(api::qualifiedKind(api::Kind::Lease), name, std::move(errors)); !r)
        return r.error();
    return out;
}

// A rollout the reader refuses, as kube-apiserver's Invalid with one cause naming the field
// under spec, so kubectl prints "… is invalid: spec.restart.mechanism: must be one of …".
ApiStatus rolloutInvalid(const std::string &kind, const std::string &name, const std::string &message)
{
    api::SpecError e = api::splitSpecError(message);
    if (!e.field.empty() && e.field.rfind("metadata", 0) != 0 && e.field.rfind("status", 0) != 0 &&
        e.field.rfind("spec", 0) != 0)
        e.field = "spec." + e.field;
    ApiStatus st = ApiStatus::invalid(kind, name, e.field.empty() ? e.message : e.field + ": " + e.message);
    st.causes.push_back({"FieldValueInvalid", e.message, e.field});
    return st;
}

} // namespace

Json withStatus(const Json &object, Json status)
{
    Json out = Json::object();
    for (auto it = object.begin(); it != object.end(); ++it)
        if (it.key() != "status")
            out[it.key()] = it.value();
    out["status"] = std::move(status);
    return out;
}

kube::Result<Json> Store::prepareRollout(Json m, const Json *old, bool statusOnly)
{
    const std::string name = kube::stringOr(m["metadata"], "name");
    auto parse = [&](const Json &j) -> kube::Result<api::NodeUpgradeRollout> {
        try {
            auto r = api::NodeUpgradeRollout::fromJson(j);
            if (!r)
                return rolloutInvalid(api::qualifiedKind(api::Kind::NodeUpgradeRollout), name,
                                      r.error().message);
            return r;
        } catch (const std::exception &e) {
            return ApiStatus::badRequest(std::string("decoding ") + e.what());
        }
    };
    if (!old) {
        m.erase("status");
        auto r = parse(m);
        if (!r)
            return r.error();
        r->metadata.uid = rng.uuid();
        r->metadata.creationTimestamp = now;
        r->metadata.generation = 1;
        return r->toJson();
    }
    if (statusOnly) {
        // The stored object (as toJson() wrote it) with the status replaced: only the status is
        // read and written again, the controller's write at every pass.
        const Json *status = kube::member(m, "status");
        auto parsed = api::NodeUpgradeRolloutStatus::fromJson(status ? *status : Json::object());
        if (!parsed)
            return ApiStatus::invalid(api::qualifiedKind(api::Kind::NodeUpgradeRollout), name,
                                      parsed.error().message);
        return withStatus(*old, parsed->toJson());
    }
    auto before = parse(*old);
    if (!before)
        return before.error();
    auto r = parse(m);
    if (!r)
        return r.error();
    r->status = before->status;
    r->metadata.generation = before->metadata.generation + (r->spec == before->spec ? 0 : 1);
    return r->toJson();
}

kube::Result<Json> Store::prepareJsonObject(api::Kind kind, Json m, const Json *old, bool statusOnly)
{
    if (kind == api::Kind::NodeUpgradeRollout)
        return prepareRollout(std::move(m), old, statusOnly);
    const std::string name = kube::stringOr(m["metadata"], "name");
    // Lease, Job and Service: the metadata as ObjectMeta writes it, then the kind's own fields.
    if (statusOnly && kind == api::Kind::Lease)
        return *old; // a Lease has no status
    auto meta = kube::ObjectMeta::fromJson(m["metadata"]);
    if (!meta)
        return meta.error();
    if (!old) {
        meta->uid = rng.uuid();
        meta->creationTimestamp = now;
    }
    Json out = {
        {"apiVersion", api::apiVersion(kind)}, {"kind", api::kindName(kind)}, {"metadata", meta->toJson()}};

    if (kind == api::Kind::Job)
        return prepareJob(std::move(out), m, old, statusOnly);
    if (kind == api::Kind::Lease) {
        auto spec = leaseSpec(kube::member(m, "spec"), name);
        if (!spec)
            return spec.error();
        out["spec"] = std::move(*spec);
        return out;
    }

    return prepareService(std::move(out), m, old, statusOnly);
}

} // namespace store
