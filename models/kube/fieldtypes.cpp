#include "models/kube/fieldtypes.h"

#include "models/kube/yamldocument.h"

#include <cmath>
#include <cstdint>
#include <utility>

namespace kube {

namespace {

constexpr std::size_t kMaxErrors = 20; // the API server also stops listing at some point
constexpr std::size_t kMaxValueText = 80;

enum class Type { Any, Object, String, Bool, Int32, Int64, IntOrString, Quantity, List, Map };

struct Schema
{
    Type type = Type::Any;
    const Schema *items = nullptr;                                    // List elements, Map values
    std::vector<std::pair<const char *, const Schema *>> fields = {}; // Object members that are checked
};

// The Go types of k8s.io/api, as far as this app looks into them. Members point at each other,
// so they are built once, in order, and never move.
struct Schemas
{
    Schema any{Type::Any};
    Schema object{Type::Object};
    Schema string{Type::String};
    Schema boolean{Type::Bool};
    Schema int32{Type::Int32};
    Schema int64{Type::Int64};
    Schema intOrString{Type::IntOrString};
    Schema quantity{Type::Quantity};
    Schema stringList{Type::List, &string};
    Schema stringMap{Type::Map, &string};
    Schema quantityMap{Type::Map, &quantity};

    Schema ownerReference{Type::Object,
                          nullptr,
                          {{"apiVersion", &string},
                           {"kind", &string},
                           {"name", &string},
                           {"uid", &string},
                           {"controller", &boolean},
                           {"blockOwnerDeletion", &boolean}}};
    Schema ownerReferences{Type::List, &ownerReference};
    Schema objectMeta{Type::Object,
                      nullptr,
                      {{"name", &string},
                       {"generateName", &string},
                       {"namespace", &string},
                       {"uid", &string},
                       {"resourceVersion", &string},
                       {"generation", &int64},
                       {"creationTimestamp", &string},
                       {"deletionTimestamp", &string},
                       {"deletionGracePeriodSeconds", &int64},
                       {"labels", &stringMap},
                       {"annotations", &stringMap},
                       {"ownerReferences", &ownerReferences},
                       {"finalizers", &stringList}}};

    Schema selectorRequirement{
        Type::Object, nullptr, {{"key", &string}, {"operator", &string}, {"values", &stringList}}};
    Schema selectorRequirements{Type::List, &selectorRequirement};
    Schema labelSelector{
        Type::Object, nullptr, {{"matchLabels", &stringMap}, {"matchExpressions", &selectorRequirements}}};

    Schema envVar{Type::Object, nullptr, {{"name", &string}, {"value", &string}, {"valueFrom", &object}}};
    Schema envVars{Type::List, &envVar};
    Schema envFromSources{Type::List, &object};
    Schema containerPort{Type::Object,
                         nullptr,
                         {{"name", &string},
                          {"containerPort", &int32},
                          {"hostPort", &int32},
                          {"hostIP", &string},
                          {"protocol", &string}}};
    Schema containerPorts{Type::List, &containerPort};
    Schema resources{Type::Object, nullptr, {{"limits", &quantityMap}, {"requests", &quantityMap}}};
    Schema volumeMount{Type::Object,
                       nullptr,
                       {{"name", &string},
                        {"mountPath", &string},
                        {"subPath", &string},
                        {"readOnly", &boolean},
                        {"mountPropagation", &string}}};
    Schema volumeMounts{Type::List, &volumeMount};
    Schema execAction{Type::Object, nullptr, {{"command", &stringList}}};
    Schema httpGet{Type::Object,
                   nullptr,
                   {{"path", &string}, {"port", &intOrString}, {"host", &string}, {"scheme", &string}}};
    Schema tcpSocket{Type::Object, nullptr, {{"port", &intOrString}, {"host", &string}}};
    Schema probe{Type::Object,
                 nullptr,
                 {{"exec", &execAction},
                  {"httpGet", &httpGet},
                  {"tcpSocket", &tcpSocket},
                  {"initialDelaySeconds", &int32},
                  {"timeoutSeconds", &int32},
                  {"periodSeconds", &int32},
                  {"successThreshold", &int32},
                  {"failureThreshold", &int32},
                  {"terminationGracePeriodSeconds", &int64}}};
    Schema container{Type::Object,
                     nullptr,
                     {{"name", &string},
                      {"image", &string},
                      {"command", &stringList},
                      {"args", &stringList},
                      {"workingDir", &string},
                      {"ports", &containerPorts},
                      {"envFrom", &envFromSources},
                      {"env", &envVars},
                      {"resources", &resources},
                      {"volumeMounts", &volumeMounts},
                      {"livenessProbe", &probe},
                      {"readinessProbe", &probe},
                      {"startupProbe", &probe},
                      {"lifecycle", &object},
                      {"terminationMessagePath", &string},
                      {"terminationMessagePolicy", &string},
                      {"imagePullPolicy", &string},
                      {"securityContext", &object},
                      {"stdin", &boolean},
                      {"stdinOnce", &boolean},
                      {"tty", &boolean}}};
    Schema containers{Type::List, &container};

    Schema nodeSelectorTerm{
        Type::Object,
        nullptr,
        {{"matchExpressions", &selectorRequirements}, {"matchFields", &selectorRequirements}}};
    Schema nodeSelectorTerms{Type::List, &nodeSelectorTerm};
    Schema nodeSelector{Type::Object, nullptr, {{"nodeSelectorTerms", &nodeSelectorTerms}}};
    Schema preferredTerm{Type::Object, nullptr, {{"weight", &int32}, {"preference", &nodeSelectorTerm}}};
    Schema preferredTerms{Type::List, &preferredTerm};
    Schema nodeAffinity{Type::Object,
                        nullptr,
                        {{"requiredDuringSchedulingIgnoredDuringExecution", &nodeSelector},
                         {"preferredDuringSchedulingIgnoredDuringExecution", &preferredTerms}}};
    Schema affinity{
        Type::Object,
        nullptr,
        {{"nodeAffinity", &nodeAffinity}, {"podAffinity", &object}, {"podAntiAffinity", &object}}};
    Schema toleration{Type::Object,
                      nullptr,
                      {{"key", &string},
                       {"operator", &string},
                       {"value", &string},
                       {"effect", &string},
                       {"tolerationSeconds", &int64}}};
    Schema tolerations{Type::List, &toleration};
    Schema volume{Type::Object, nullptr, {{"name", &string}}};
    Schema volumes{Type::List, &volume};
    Schema localObjectReference{Type::Object, nullptr, {{"name", &string}}};
    Schema imagePullSecrets{Type::List, &localObjectReference};
    Schema podSpec{Type::Object,
                   nullptr,
                   {{"volumes", &volumes},
                    {"initContainers", &containers},
                    {"containers", &containers},
                    {"restartPolicy", &string},
                    {"terminationGracePeriodSeconds", &int64},
                    {"activeDeadlineSeconds", &int64},
                    {"dnsPolicy", &string},
                    {"nodeSelector", &stringMap},
                    {"serviceAccountName", &string},
                    {"serviceAccount", &string},
                    {"automountServiceAccountToken", &boolean},
                    {"nodeName", &string},
                    {"hostNetwork", &boolean},
                    {"hostPID", &boolean},
                    {"hostIPC", &boolean},
                    {"securityContext", &object},
                    {"imagePullSecrets", &imagePullSecrets},
                    {"hostname", &string},
                    {"subdomain", &string},
                    {"affinity", &affinity},
                    {"schedulerName", &string},
                    {"tolerations", &tolerations},
                    {"priorityClassName", &string},
                    {"priority", &int32}}};
    Schema podTemplateSpec{Type::Object, nullptr, {{"metadata", &objectMeta}, {"spec", &podSpec}}};

    Schema rollingUpdateDaemonSet{
        Type::Object, nullptr, {{"maxUnavailable", &intOrString}, {"maxSurge", &intOrString}}};
    Schema daemonSetUpdateStrategy{
        Type::Object, nullptr, {{"type", &string}, {"rollingUpdate", &rollingUpdateDaemonSet}}};
    Schema daemonSetSpec{Type::Object,
                         nullptr,
                         {{"selector", &labelSelector},
                          {"template", &podTemplateSpec},
                          {"updateStrategy", &daemonSetUpdateStrategy},
                          {"minReadySeconds", &int32},
                          {"revisionHistoryLimit", &int32}}};
    Schema daemonSetStatus{Type::Object,
                           nullptr,
                           {{"currentNumberScheduled", &int32},
                            {"numberMisscheduled", &int32},
                            {"desiredNumberScheduled", &int32},
                            {"numberReady", &int32},
                            {"observedGeneration", &int64},
                            {"updatedNumberScheduled", &int32},
                            {"numberAvailable", &int32},
                            {"numberUnavailable", &int32},
                            {"collisionCount", &int32}}};
    Schema daemonSet{Type::Object,
                     nullptr,
                     {{"apiVersion", &string},
                      {"kind", &string},
                      {"metadata", &objectMeta},
                      {"spec", &daemonSetSpec},
                      {"status", &daemonSetStatus}}};
    Schema controllerRevision{Type::Object,
                              nullptr,
                              {{"apiVersion", &string},
                               {"kind", &string},
                               {"metadata", &objectMeta},
                               {"data", &any},
                               {"revision", &int64}}};
    // Deployment, ReplicaSet and StatefulSet share what is read here.
    Schema workloadSpec{Type::Object,
                        nullptr,
                        {{"replicas", &int32},
                         {"selector", &labelSelector},
                         {"template", &podTemplateSpec},
                         {"minReadySeconds", &int32},
                         {"revisionHistoryLimit", &int32}}};
    Schema workload{
        Type::Object,
        nullptr,
        {{"apiVersion", &string}, {"kind", &string}, {"metadata", &objectMeta}, {"spec", &workloadSpec}}};
    Schema pod{Type::Object,
               nullptr,
               {{"apiVersion", &string}, {"kind", &string}, {"metadata", &objectMeta}, {"spec", &podSpec}}};
    Schema podTemplate{Type::Object,
                       nullptr,
                       {{"apiVersion", &string},
                        {"kind", &string},
                        {"metadata", &objectMeta},
                        {"template", &podTemplateSpec}}};
    Schema taint{Type::Object,
                 nullptr,
                 {{"key", &string}, {"value", &string}, {"effect", &string}, {"timeAdded", &string}}};
    Schema taints{Type::List, &taint};
    Schema nodeSpec{Type::Object,
                    nullptr,
                    {{"podCIDR", &string},
                     {"podCIDRs", &stringList},
                     {"providerID", &string},
                     {"unschedulable", &boolean},
                     {"taints", &taints}}};
    Schema node{Type::Object,
                nullptr,
                {{"apiVersion", &string}, {"kind", &string}, {"metadata", &objectMeta}, {"spec", &nodeSpec}}};
    Schema other{
        Type::Object, nullptr, {{"apiVersion", &string}, {"kind", &string}, {"metadata", &objectMeta}}};

    const Schema &forKind(const std::string &kind) const
    {
        if (kind == "DaemonSet")
            return daemonSet;
        if (kind == "ControllerRevision")
            return controllerRevision;
        if (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet")
            return workload;
        if (kind == "Pod")
            return pod;
        if (kind == "PodTemplate")
            return podTemplate;
        if (kind == "Node")
            return node;
        return other;
    }
};

const Schemas &schemas()
{
    static const Schemas s;
    return s;
}

// Go's encoding/json fills an integer field from a JSON number without a fraction; YAML's 1.0
// reaches it as 1 through sigs.k8s.io/yaml, so integral doubles count as integers.
bool integerIn(const Json &v, std::int64_t lo, std::int64_t hi)
{
    if (v.is_number_unsigned())
        return hi >= 0 && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi);
    if (v.is_number_integer())
        return v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
    if (v.is_number_float()) {
        const double d = v.get<double>();
        return std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(lo) &&
               d <= static_cast<double>(hi);
    }
    return false;
}

const char *mismatch(const Json &v, Type type)
{
    switch (type) {
    case Type::Any:
        return nullptr;
    case Type::Object:
        return v.is_object() ? nullptr : "must be an object";
    case Type::Map:
        return v.is_object() ? nullptr : "must be a map";
    case Type::List:
        return v.is_array() ? nullptr : "must be a list";
    case Type::String:
        return v.is_string() ? nullptr : "must be a string";
    case Type::Bool:
        return v.is_boolean() ? nullptr : "must be a boolean";
    case Type::Int32:
        return integerIn(v, INT32_MIN, INT32_MAX) ? nullptr : "must be a 32-bit integer";
    case Type::Int64:
        return integerIn(v, INT64_MIN, INT64_MAX) ? nullptr : "must be a 64-bit integer";
    case Type::IntOrString:
        return v.is_string() || integerIn(v, INT32_MIN, INT32_MAX) ? nullptr
                                                                   : "must be a 32-bit integer or a string";
    case Type::Quantity:
        return v.is_string() || v.is_number() ? nullptr : "must be a quantity such as 500m or 1Gi";
    }
    return nullptr;
}

std::string valueText(const Json &v)
{
    std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (text.size() > kMaxValueText)
        text = text.substr(0, kMaxValueText) + "...";
    return text;
}

void check(const Json &v, const Schema &s, const std::string &pointer, const std::string &path,
           std::vector<FieldTypeError> &out)
{
    if (v.is_null() || out.size() >= kMaxErrors)
        return;
    if (const char *detail = mismatch(v, s.type)) {
        out.push_back({pointer, path, valueText(v), detail});
        return;
    }
    switch (s.type) {
    case Type::Object:
        for (const auto &[name, field] : s.fields)
            if (const auto it = v.find(name); it != v.end())
                check(*it, *field, appendPointer(pointer, name), path.empty() ? name : path + "." + name,
                      out);
        break;
    case Type::List:
        for (std::size_t i = 0; i < v.size(); ++i)
            check(v[i], *s.items, pointer + "/" + std::to_string(i), path + "[" + std::to_string(i) + "]",
                  out);
        break;
    case Type::Map:
        for (auto it = v.begin(); it != v.end(); ++it)
            check(it.value(), *s.items, appendPointer(pointer, it.key()), path + "[" + it.key() + "]", out);
        break;
    default:
        break;
    }
}

} // namespace

std::string FieldTypeError::text() const
{
    return path + ": Invalid value: " + value + ": " + detail;
}

std::vector<FieldTypeError> fieldTypeErrors(const Json &object)
{
    std::vector<FieldTypeError> out;
    if (!object.is_object()) {
        out.push_back({"", "", valueText(object), "must be an object"});
        return out;
    }
    const auto kind = object.find("kind");
    const std::string kindText = kind != object.end() && kind->is_string() ? kind->get<std::string>() : "";
    check(object, schemas().forKind(kindText), "", "", out);
    return out;
}

std::vector<FieldTypeError> daemonSetSpecTypeErrors(const Json &spec)
{
    std::vector<FieldTypeError> out;
    check(spec, schemas().daemonSetSpec, "/spec", "spec", out);
    return out;
}

std::vector<FieldTypeError> podTemplateTypeErrors(const Json &tpl, const std::string &pointer,
                                                  const std::string &path)
{
    std::vector<FieldTypeError> out;
    check(tpl, schemas().podTemplateSpec, pointer, path, out);
    return out;
}

} // namespace kube
