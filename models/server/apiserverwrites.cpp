#include "models/server/apiserverimpl.h"

namespace server {

kube::Result<Json> ApiServer::Impl::body(const std::string &text)
{
    auto parsed = kube::JsonLimits::parse(text);
    if (!parsed)
        return ApiStatus::badRequest("the request body is refused: " + parsed.error().message);
    // A ControllerRevision's data may come as JSON text, which the engine parses in turn:
    // the same limit applies to it, in a body and in a JSON patch that sets it.
    auto embedded = [](const Json &v) -> kube::Result<void> {
        if (!v.is_string())
            return {};
        if (auto inner = kube::JsonLimits::parse(v.get<std::string>()); !inner)
            return ApiStatus::badRequest("the request body is refused: data: " + inner.error().message);
        return {};
    };
    if (parsed->is_object()) {
        if (auto d = parsed->find("data"); d != parsed->end())
            if (auto r = embedded(*d); !r)
                return r.error();
    } else if (parsed->is_array()) {
        for (const auto &op : *parsed)
            if (op.is_object() && op.contains("path") && op["path"].is_string() &&
                op["path"].get<std::string>().rfind("/data", 0) == 0 && op.contains("value"))
                if (auto r = embedded(op["value"]); !r)
                    return r.error();
    }
    return parsed;
}

kube::Result<Json> ApiServer::Impl::optionsBody(const httplib::Request &req, const std::string &text)
{
    if (isProtobufContentType(req.get_header_value("Content-Type")))
        return decodeProtobufBody(text);
    return body(text);
}

kube::Result<bool> ApiServer::Impl::dryRunFrom(const httplib::Request &req, std::vector<std::string> values)
{
    for (std::size_t i = 0, n = req.get_param_value_count("dryRun"); i < n; ++i)
        values.push_back(req.get_param_value("dryRun", i));
    for (const auto &v : values)
        if (v != "All")
            return ApiStatus{400, "BadRequest",
                             "Invalid dry run value: " + v + " (supported values: \"All\")"};
    return !values.empty();
}

kube::Result<sim::WriteOptions> ApiServer::Impl::writeOptions(const httplib::Request &req)
{
    auto dry = dryRunFrom(req);
    if (!dry)
        return dry.error();
    sim::WriteOptions o;
    o.dryRun = *dry;
    return o;
}

kube::Result<ApiServer::Impl::FieldValidation>
ApiServer::Impl::fieldValidationFrom(const httplib::Request &req, const char *optionsKind)
{
    const std::string v = param(req, "fieldValidation");
    if (v.empty() || v == "Warn")
        return FieldValidation::Warn;
    if (v == "Ignore")
        return FieldValidation::Ignore;
    if (v == "Strict")
        return FieldValidation::Strict;
    const std::string why =
        "Unsupported value: " + kube::goQuote(v) + ": supported values: \"Ignore\", \"Strict\", \"Warn\"";
    ApiStatus st =
        ApiStatus::invalid(std::string(optionsKind) + ".meta.k8s.io", "", "fieldValidation: " + why);
    st.causes.push_back({"FieldValueNotSupported", why, "fieldValidation"});
    return st;
}

std::optional<std::string> ApiServer::Impl::decodeFields(Json &object, FieldValidation mode,
                                                         std::vector<std::string> &warnings,
                                                         std::string_view jsonText)
{
    std::vector<std::string> problems;
    if (mode != FieldValidation::Ignore)
        for (const auto &d : kube::schema::duplicateFields(jsonText))
            problems.push_back("duplicate field " + kube::goQuote(d.path));
    const kube::schema::Struct *type = kube::schema::structForObject(object);
    if (type)
        for (const auto &u : kube::schema::unknownFields(object, *type))
            problems.push_back("unknown field " + kube::goQuote(u.path));
    if (problems.empty())
        return std::nullopt;
    if (mode == FieldValidation::Strict) {
        std::string text = "strict decoding error: ";
        for (std::size_t i = 0; i < problems.size(); ++i)
            text += (i ? ", " : "") + problems[i];
        return text;
    }
    if (mode == FieldValidation::Warn)
        warnings.insert(warnings.end(), problems.begin(), problems.end());
    if (type)
        kube::schema::pruneUnknownFields(object, *type);
    return std::nullopt;
}

std::string_view ApiServer::Impl::jsonTextOf(const httplib::Request &req, const std::string &text)
{
    return isProtobufContentType(req.get_header_value("Content-Type")) ? std::string_view() : text;
}

ApiStatus ApiServer::Impl::strictBodyError(const Json &object, const std::string &error)
{
    const std::string kind = kube::stringOr(object, "kind");
    const std::string apiVersion = kube::stringOr(object, "apiVersion");
    const std::string version =
        apiVersion.substr(apiVersion.find('/') == std::string::npos ? 0 : apiVersion.find('/') + 1);
    return ApiStatus::badRequest(kind + " in version " + kube::goQuote(version) + " cannot be handled as a " +
                                 kind + ": " + error);
}

void ApiServer::Impl::addWarnings(httplib::Response &res, const std::vector<std::string> &warnings)
{
    for (const auto &w : warnings)
        res.set_header("Warning", "299 - " + kube::goQuote(w));
}

FieldManagerContext ApiServer::Impl::managerFor(const httplib::Request &req, const ResourcePath &path)
{
    FieldManagerContext ctx;
    ctx.manager = param(req, "fieldManager");
    if (ctx.manager.empty()) {
        const std::string agent = req.get_header_value("User-Agent");
        ctx.manager = agent.substr(0, agent.find('/'));
    }
    ctx.apiVersion = api::apiVersion(*path.kind);
    ctx.subresource = path.subresource;
    return ctx;
}

void ApiServer::Impl::setManagedFields(Json &object, Json managed)
{
    if (managed.empty())
        object["metadata"].erase("managedFields");
    else
        object["metadata"]["managedFields"] = std::move(managed);
}

kube::Result<Json> ApiServer::Impl::objectBody(const httplib::Request &req, const std::string &text)
{
    if (isProtobufContentType(req.get_header_value("Content-Type"))) {
        auto decoded = decodeProtobufBody(text);
        if (!decoded)
            return decoded.error();
        const std::string kind = kube::stringOr(*decoded, "kind");
        if (kind == "DeleteOptions" || kind == "Eviction")
            return ApiStatus::badRequest("the body is a " + kind + ", not an object to store");
        return decoded;
    }
    return body(text);
}

bool ApiServer::Impl::placeInNamespace(Json &object, const ResourcePath &path, httplib::Response &res)
{
    if (!object.is_object()) {
        sendError(res, ApiStatus::badRequest("the body must be a JSON object"));
        return false;
    }
    if (!object.contains("metadata") || !object["metadata"].is_object())
        object["metadata"] = Json::object();
    if (!api::isNamespaced(*path.kind))
        return true;
    const std::string bodyNs = kube::stringOr(object["metadata"], "namespace");
    if (!bodyNs.empty() && !path.ns.empty() && bodyNs != path.ns) {
        sendError(res, ApiStatus::badRequest("the namespace of the provided object does not match the "
                                             "namespace sent on the request"));
        return false;
    }
    if (!path.ns.empty())
        object["metadata"]["namespace"] = path.ns;
    return true;
}

bool ApiServer::Impl::checkKind(Json &object, const ResourcePath &path, httplib::Response &res)
{
    const std::string kind = kube::stringOr(object, "kind");
    const std::string apiVersion = kube::stringOr(object, "apiVersion");
    if (kind.empty())
        object["kind"] = api::kindName(*path.kind);
    if (apiVersion.empty())
        object["apiVersion"] = api::apiVersion(*path.kind);
    if ((!kind.empty() && kind != api::kindName(*path.kind)) ||
        (!apiVersion.empty() && apiVersion != api::apiVersion(*path.kind))) {
        sendError(res,
                  ApiStatus::badRequest("the API version in the data (" + apiVersion + ") and kind (" + kind +
                                        ") do not match the resource " + api::qualifiedResource(*path.kind)));
        return false;
    }
    return true;
}

void ApiServer::Impl::create(const httplib::Request &req, const std::string &text, httplib::Response &res,
                             const ResourcePath &path)
{
    const auto opts = writeOptions(req);
    if (!opts)
        return sendError(res, opts.error());
    auto object = objectBody(req, text);
    if (!object)
        return sendError(res, object.error());
    if (api::isNamespaced(*path.kind) && path.ns.empty())
        return sendError(res, notFoundPath());
    if (!placeInNamespace(*object, path, res) || !checkKind(*object, path, res))
        return;
    const auto validation = fieldValidationFrom(req, "CreateOptions");
    if (!validation)
        return sendError(res, validation.error());
    std::vector<std::string> warnings;
    if (const auto strict = decodeFields(*object, *validation, warnings, jsonTextOf(req, text)))
        return sendError(res, strictBodyError(*object, *strict));
    const std::string name = kube::stringOr((*object)["metadata"], "name");
    FieldManagerContext ctx = managerFor(req, path);
    auto created = engine->call([&](sim::Cluster &c) -> kube::Result<Json> {
        // The creator owns every field of the object as it will be stored (defaults too).
        sim::WriteOptions dry = *opts;
        dry.dryRun = true;
        auto would = c.create(*object, dry);
        if (!would)
            return would.error();
        ctx.time = kube::formatRfc3339(c.now());
        setManagedFields(*object, FieldManager::update(nullptr, *would, ctx));
        return c.create(*object, *opts);
    });
    addWarnings(res, warnings);
    if (!created)
        return sendError(res, created.error(), path, name);
    send(res, 201, *created);
}

void ApiServer::Impl::update(const httplib::Request &req, const std::string &text, httplib::Response &res,
                             const ResourcePath &path)
{
    const auto opts = writeOptions(req);
    if (!opts)
        return sendError(res, opts.error());
    auto object = objectBody(req, text);
    if (!object)
        return sendError(res, object.error());
    if (!placeInNamespace(*object, path, res) || !checkKind(*object, path, res))
        return;
    const std::string bodyName = kube::stringOr((*object)["metadata"], "name");
    if (bodyName != path.name)
        return sendError(res, api::nameMismatch(bodyName, path.name));
    const auto validation = fieldValidationFrom(req, "UpdateOptions");
    if (!validation)
        return sendError(res, validation.error());
    std::vector<std::string> warnings;
    if (const auto strict = decodeFields(*object, *validation, warnings, jsonTextOf(req, text)))
        return sendError(res, strictBodyError(*object, *strict));
    const bool status = path.subresource == "status";
    FieldManagerContext ctx = managerFor(req, path);
    auto updated = engine->call([&](sim::Cluster &c) -> kube::Result<Json> {
        auto write = [&](const sim::WriteOptions &o) {
            return status ? c.updateStatus(*object, o) : c.update(*object, o);
        };
        const auto live = c.get(*path.kind, path.ns, path.name);
        sim::WriteOptions dry = *opts;
        dry.dryRun = true;
        auto would = write(dry);
        if (!would)
            return would.error();
        ctx.time = kube::formatRfc3339(c.now());
        setManagedFields(*object, FieldManager::update(live ? &*live : nullptr, *would, ctx));
        return write(*opts);
    });
    addWarnings(res, warnings);
    if (!updated)
        return sendError(res, updated.error(), path, path.name);
    send(res, 200, *updated);
}

void ApiServer::Impl::patch(const httplib::Request &req, const std::string &text, httplib::Response &res,
                            const ResourcePath &path)
{
    auto opts = writeOptions(req);
    if (!opts)
        return sendError(res, opts.error());
    const auto validation = fieldValidationFrom(req, "PatchOptions");
    if (!validation)
        return sendError(res, validation.error());
    if (req.has_param("force") &&
        lower(req.get_header_value("Content-Type")).rfind("application/apply-patch+yaml", 0) != 0) {
        ApiStatus st = ApiStatus::invalid("PatchOptions.meta.k8s.io", "",
                                          "force: Forbidden: may not be specified for non-apply patch");
        st.causes.push_back(
            {"FieldValueForbidden", "Forbidden: may not be specified for non-apply patch", "force"});
        return sendError(res, st);
    }
    // The patched object is decoded like a body (Strict refuses it as an invalid patch), and
    // the patcher owns what it changed.
    std::vector<std::string> warnings;
    FieldManagerContext ctx = managerFor(req, path);
    std::optional<Json> live;
    opts->decode = [&](Json &object) -> kube::Result<void> {
        const auto strict = decodeFields(object, *validation, warnings);
        if (!strict) {
            if (live)
                setManagedFields(object, FieldManager::update(&*live, object, ctx));
            return {};
        }
        const std::string why = "Invalid value: " + kube::goQuote(kube::goJson(object)) + ": " + *strict;
        ApiStatus st = ApiStatus::invalid(api::qualifiedKind(*path.kind), path.name, "patch: " + why);
        st.causes.push_back({"FieldValueInvalid", why, "patch"});
        return st;
    };
    const std::optional<api::PatchType> known = patchTypeOf(req);
    // Strategic merge is for the built-in kinds only.
    const bool takesIt =
        known && !(*known == api::PatchType::Strategic && *path.kind == api::Kind::NodeUpgradeRollout);
    if (!takesIt && mediaType(req) == "application/apply-patch+yaml")
        return applyPatch(req, text, res, path, *opts, *validation);
    if (!takesIt)
        return sendError(res, {415, "UnsupportedMediaType",
                               "the body of the request was in an unknown format - accepted media types "
                               "include: application/json-patch+json, application/merge-patch+json, "
                               "application/apply-patch+yaml" +
                                   std::string(*path.kind == api::Kind::NodeUpgradeRollout
                                                   ? ""
                                                   : ", application/strategic-merge-patch+json")});
    const api::PatchType type = *known;
    auto patchBody = body(text);
    if (!patchBody)
        return sendError(res, patchBody.error());
    const bool status = path.subresource == "status";
    auto patched = engine->call([&](sim::Cluster &c) -> kube::Result<Json> {
        ctx.time = kube::formatRfc3339(c.now());
        if (auto current = c.get(*path.kind, path.ns, path.name))
            live = std::move(*current);
        return status ? c.patchStatus(*path.kind, path.ns, path.name, type, *patchBody, *opts)
                      : c.patch(*path.kind, path.ns, path.name, type, *patchBody, *opts);
    });
    addWarnings(res, warnings);
    if (!patched)
        return sendError(res, patched.error(), path, path.name);
    send(res, 200, *patched);
}

std::string ApiServer::Impl::mediaType(const httplib::Request &req)
{
    const std::string contentType = lower(req.get_header_value("Content-Type"));
    return contentType.substr(0, contentType.find(';'));
}

std::optional<api::PatchType> ApiServer::Impl::patchTypeOf(const httplib::Request &req)
{
    const std::string type = mediaType(req);
    if (type == "application/merge-patch+json")
        return api::PatchType::Merge;
    if (type == "application/json-patch+json")
        return api::PatchType::Json;
    if (type == "application/strategic-merge-patch+json")
        return api::PatchType::Strategic;
    return std::nullopt;
}

void ApiServer::Impl::scale(const httplib::Request &req, const std::string &text, httplib::Response &res,
                            const ResourcePath &path)
{
    const std::string &m = req.method;
    if (m == "GET") {
        auto got = engine->call([&](sim::Cluster &c) { return c.getScale(*path.kind, path.ns, path.name); });
        if (!got)
            return sendError(res, got.error(), path, path.name);
        return send(res, 200, *got);
    }
    auto opts = writeOptions(req);
    if (!opts)
        return sendError(res, opts.error());
    std::optional<api::PatchType> type;
    if (m == "PATCH") {
        type = patchTypeOf(req);
        if (!type)
            return sendError(res, {415, "UnsupportedMediaType",
                                   "the body of the request was in an unknown format - accepted media types "
                                   "include: application/json-patch+json, application/merge-patch+json, "
                                   "application/strategic-merge-patch+json"});
    }
    auto in = m == "PATCH" ? body(text) : objectBody(req, text);
    if (!in)
        return sendError(res, in.error());
    auto written = engine->call([&](sim::Cluster &c) {
        return type ? c.patchScale(*path.kind, path.ns, path.name, *type, *in, *opts)
                    : c.updateScale(*path.kind, path.ns, path.name, *in, *opts);
    });
    if (!written)
        return sendError(res, written.error(), path, path.name);
    send(res, 200, *written);
}

void ApiServer::Impl::applyPatch(const httplib::Request &req, const std::string &text, httplib::Response &res,
                                 const ResourcePath &path, const sim::WriteOptions &opts,
                                 FieldValidation validation)
{
    FieldManagerContext ctx = managerFor(req, path);
    if (param(req, "fieldManager").empty()) {
        ApiStatus st = ApiStatus::invalid("PatchOptions.meta.k8s.io", "",
                                          "fieldManager: Required value: is required for apply patch");
        st.causes.push_back(
            {"FieldValueRequired", "Required value: is required for apply patch", "fieldManager"});
        return sendError(res, st);
    }
    const std::string force = param(req, "force");
    if (!force.empty() && force != "true" && force != "false")
        return sendError(res, ApiStatus::badRequest("force: invalid boolean value " + kube::goQuote(force)));
    auto docs = kube::parseYamlDocuments(text, "body");
    if (!docs)
        return sendError(res, ApiStatus::badRequest("error decoding YAML: " + docs.error().message));
    if (docs->size() != 1 || !(*docs)[0].value.is_object())
        return sendError(res, ApiStatus::badRequest("the apply configuration must be one object"));
    Json config = std::move((*docs)[0].value);
    if (!placeInNamespace(config, path, res) || !checkKind(config, path, res))
        return;
    const std::string name = kube::stringOr(config["metadata"], "name");
    if (name.empty())
        config["metadata"]["name"] = path.name;
    else if (name != path.name)
        return sendError(res, api::nameMismatch(name, path.name));
    std::vector<std::string> warnings;
    if (const auto strict = decodeFields(config, validation, warnings))
        return sendError(res, strictBodyError(config, *strict));
    const bool status = path.subresource == "status";
    bool created = false;
    auto applied = engine->call([&](sim::Cluster &c) -> kube::Result<Json> {
        ctx.time = kube::formatRfc3339(c.now());
        auto live = c.get(*path.kind, path.ns, path.name);
        if (!live && live.error().code != 404)
            return live.error();
        if (!live && status)
            return live.error();
        auto merged = FieldManager::apply(live ? &*live : nullptr, config, ctx, force == "true");
        if (!merged)
            return merged.error();
        if (!live) {
            created = true;
            return c.create(*merged, opts);
        }
        (*merged)["metadata"]["resourceVersion"] = kube::stringOr((*live)["metadata"], "resourceVersion");
        return status ? c.updateStatus(*merged, opts) : c.update(*merged, opts);
    });
    addWarnings(res, warnings);
    if (!applied)
        return sendError(res, applied.error(), path, path.name);
    send(res, created ? 201 : 200, *applied);
}

kube::Result<api::DeleteOptions> ApiServer::Impl::deleteOptions(const httplib::Request &req, const Json &body)
{
    api::DeleteOptions o;
    if (auto g = body.find("gracePeriodSeconds"); g != body.end() && g->is_number_integer())
        o.gracePeriodSeconds = g->get<std::int64_t>();
    if (auto p = body.find("preconditions"); p != body.end() && p->is_object()) {
        o.preconditions.uid = kube::stringOr(*p, "uid");
        o.preconditions.resourceVersion = kube::stringOr(*p, "resourceVersion");
    }
    std::vector<std::string> dryRun;
    if (auto d = body.find("dryRun"); d != body.end() && !d->is_null()) {
        if (!d->is_array())
            return ApiStatus::badRequest("DeleteOptions.dryRun must be a list of strings");
        for (const auto &v : *d) {
            if (!v.is_string())
                return ApiStatus::badRequest("DeleteOptions.dryRun must be a list of strings");
            dryRun.push_back(v.get<std::string>());
        }
    }
    auto dry = dryRunFrom(req, std::move(dryRun));
    if (!dry)
        return dry.error();
    o.dryRun = *dry;
    std::string policy;
    if (auto p = body.find("propagationPolicy"); p != body.end() && p->is_string())
        policy = p->get<std::string>();
    else if (p != body.end() && !p->is_null())
        return ApiStatus::badRequest("DeleteOptions.propagationPolicy must be a string");
    if (const std::string q = req.get_param_value("propagationPolicy"); !q.empty())
        policy = q;
    // The deprecated orphanDependents flag, when no policy is given.
    bool orphan = false;
    if (auto od = body.find("orphanDependents"); od != body.end() && od->is_boolean())
        orphan = od->get<bool>();
    if (const std::string q = req.get_param_value("orphanDependents"); !q.empty())
        orphan = q == "true";
    if (!policy.empty() && body.contains("orphanDependents") && !body["orphanDependents"].is_null())
        return ApiStatus{422, "Invalid",
                         "DeleteOptions: orphanDependents and propagationPolicy cannot both be set"};
    if (policy == "Orphan" || (policy.empty() && orphan))
        o.propagation = api::DeletePropagation::Orphan;
    else if (policy == "Foreground")
        o.propagation = api::DeletePropagation::Foreground;
    else if (policy.empty() || policy == "Background")
        o.propagation = api::DeletePropagation::Background;
    else
        return ApiStatus{422, "Invalid",
                         "DeleteOptions.propagationPolicy: Unsupported value: \"" + policy +
                             "\": supported values: \"Foreground\", \"Background\", \"Orphan\""};
    return o;
}

void ApiServer::Impl::remove(const httplib::Request &req, const std::string &text, httplib::Response &res,
                             const ResourcePath &path)
{
    Json options = Json::object();
    if (!text.empty()) {
        auto b = optionsBody(req, text);
        if (!b)
            return sendError(res, b.error());
        if (b->is_object())
            options = std::move(*b);
    }
    auto deleteOpts = deleteOptions(req, options);
    if (!deleteOpts)
        return sendError(res, deleteOpts.error());
    if (const std::string g = param(req, "gracePeriodSeconds"); !g.empty()) {
        auto n = parseRv(g);
        if (!n)
            return sendError(res, ApiStatus::badRequest("invalid gracePeriodSeconds: " + g));
        deleteOpts->gracePeriodSeconds = static_cast<std::int64_t>(*n);
    }
    auto removed =
        engine->call([&](sim::Cluster &c) { return c.remove(*path.kind, path.ns, path.name, *deleteOpts); });
    if (!removed)
        return sendError(res, removed.error(), path, path.name);
    send(res, 200, *removed);
}

void ApiServer::Impl::evict(const httplib::Request &req, const std::string &text, httplib::Response &res,
                            const ResourcePath &path)
{
    auto b = optionsBody(req, text);
    if (!b)
        return sendError(res, b.error());
    if (!b->is_object())
        return sendError(res, ApiStatus::badRequest("the body must be an Eviction object"));
    const std::string kind =
        b->contains("kind") && (*b)["kind"].is_string() ? (*b)["kind"].get<std::string>() : std::string();
    const std::string apiVersion = b->contains("apiVersion") && (*b)["apiVersion"].is_string()
                                       ? (*b)["apiVersion"].get<std::string>()
                                       : std::string();
    if ((!kind.empty() && kind != "Eviction") ||
        (!apiVersion.empty() && apiVersion != "policy/v1" && apiVersion != "policy/v1beta1"))
        return sendError(res,
                         ApiStatus::badRequest("not a Eviction object: " + apiVersion + ", Kind=" + kind));
    std::string bodyName;
    if (auto m = b->find("metadata"); m != b->end() && m->is_object())
        if (auto n = m->find("name"); n != m->end() && n->is_string())
            bodyName = n->get<std::string>();
    if (bodyName != path.name)
        return sendError(res, ApiStatus::badRequest("name in URL does not match name in Eviction object"));
    Json opts = Json::object();
    if (auto d = b->find("deleteOptions"); d != b->end() && d->is_object())
        opts = *d;
    const bool bodyDryRun = opts.contains("dryRun") && opts["dryRun"].is_array() && !opts["dryRun"].empty();
    const bool queryDryRun = req.get_param_value_count("dryRun") > 0;
    if (bodyDryRun && queryDryRun) {
        Json fromQuery = Json::array();
        for (std::size_t i = 0, n = req.get_param_value_count("dryRun"); i < n; ++i)
            fromQuery.push_back(req.get_param_value("dryRun", i));
        if (fromQuery != opts["dryRun"])
            return sendError(
                res, ApiStatus::badRequest("Non-matching dry-run options in request and content: " +
                                           kube::goJson(fromQuery) + " and " + kube::goJson(opts["dryRun"])));
    }
    const auto parsed = deleteOptions(req, opts);
    if (!parsed)
        return sendError(res, parsed.error());
    auto done = engine->call([&](sim::Cluster &c) { return c.evict(path.ns, path.name, *parsed); });
    if (!done)
        return sendError(res, done.error(), path, path.name);
    // metav1.Status{Status: Success}, answered with 201 Created as for any create.
    send(res, 201,
         {{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", Json::object()}, {"status", "Success"}});
}

} // namespace server
