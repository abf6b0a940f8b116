#include "models/liveupgrade/leaderelection.h"

#include "models/kube/lease.h"
#include "models/kube/timeutil.h"

#include <algorithm>
#include <cmath>

namespace models {

namespace {

constexpr const char *kJson = "application/json";

kube::Timestamp wallNow()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string stringAt(const kube::Json &j, const char *key)
{
    if (!j.is_object())
        return {};
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

const client::ResourceType &leaseResource()
{
    static const client::ResourceType leases{"/apis/coordination.k8s.io/v1", "leases", "Lease",
                                             kube::kLeaseApiVersion, true};
    return leases;
}

LeaderElector::LeaderElector(std::shared_ptr<client::KubeClient> client, LeaderElectionOptions options)
    : m_client(std::move(client)), m_options(std::move(options))
{}

kube::Json LeaderElector::leaseBody(const kube::Json &existing) const
{
    const auto seconds = static_cast<std::int64_t>(std::ceil(m_options.leaseDuration.count() / 1000.0));
    return kube::heldLease(existing, m_options.namespace_, m_options.name, m_options.identity, seconds,
                           wallNow());
}

client::RequestOptions LeaderElector::requestOptions() const
{
    // An attempt never outlasts the renew deadline (client-go bounds it the same way): a leader
    // whose API server hangs must notice in time to stop acting before a candidate may take over.
    client::RequestOptions o;
    o.totalTimeout = m_options.renewDeadline;
    o.connectTimeout = std::min(o.connectTimeout, m_options.renewDeadline);
    return o;
}

kube::Result<bool> LeaderElector::tryAcquireOrRenew()
{
    auto &transport = m_client->transport();
    const client::RequestOptions limits = requestOptions();
    const std::string path = leaseResource().collectionPath(m_options.namespace_);
    auto got = transport.request("GET", path + "/" + m_options.name, {}, {}, {}, kJson, limits);
    const Clock::time_point now = Clock::now();
    if (!got) {
        if (got.error().code != 404)
            return got.error();
        // No Lease yet: create it, holding it.
        auto created =
            transport.request("POST", path, {}, leaseBody(kube::Json()).dump(), kJson, kJson, limits);
        if (!created) {
            m_leading = false;
            if (created.error().code == 409) // another candidate created it first
                return false;
            return created.error();
        }
        m_leading = true;
        m_observedHolder = m_options.identity;
        m_observedAt = m_lastRenew = now;
        return true;
    }
    const kube::Json lease = kube::Json::parse(got->body, nullptr, false);
    if (!lease.is_object())
        return kube::ApiStatus{0, "DecodeError",
                               "the Lease " + m_options.namespace_ + "/" + m_options.name +
                                   " is not a JSON object"};
    const kube::Json spec = lease.contains("spec") ? lease["spec"] : kube::Json::object();
    const std::string holder = stringAt(spec, "holderIdentity");
    const std::string record = holder + "|" + stringAt(spec, "renewTime");
    if (record != m_observedRecord) {
        m_observedRecord = record;
        m_observedAt = now;
    }
    m_observedHolder = holder;
    std::chrono::milliseconds duration = m_options.leaseDuration;
    if (auto it = spec.find("leaseDurationSeconds"); it != spec.end() && it->is_number_integer())
        duration = std::chrono::seconds(std::max<std::int64_t>(0, it->get<std::int64_t>()));
    const bool mine = holder == m_options.identity;
    if (!mine && !holder.empty() && now < m_observedAt + duration) {
        m_leading = false;
        return false; // a live holder
    }
    auto put = transport.request("PUT", path + "/" + m_options.name, {}, leaseBody(lease).dump(), kJson,
                                 kJson, limits);
    if (!put) {
        if (put.error().code == 409) { // someone else wrote it since the GET
            m_leading = false;
            return false;
        }
        return put.error();
    }
    m_leading = true;
    m_observedHolder = m_options.identity;
    const kube::Json written = kube::Json::parse(put->body, nullptr, false);
    m_observedRecord =
        m_options.identity + "|" +
        (written.is_object() && written.contains("spec") ? stringAt(written["spec"], "renewTime")
                                                         : std::string());
    m_observedAt = m_lastRenew = now;
    return true;
}

kube::Result<void> LeaderElector::release()
{
    if (!m_leading)
        return {};
    m_leading = false;
    auto &transport = m_client->transport();
    const client::RequestOptions limits = requestOptions();
    const std::string path = leaseResource().collectionPath(m_options.namespace_) + "/" + m_options.name;
    auto got = transport.request("GET", path, {}, {}, {}, kJson, limits);
    if (!got)
        return got.error();
    kube::Json lease = kube::Json::parse(got->body, nullptr, false);
    if (!lease.is_object() || !lease.contains("spec") ||
        stringAt(lease["spec"], "holderIdentity") != m_options.identity)
        return {};
    lease["spec"]["holderIdentity"] = "";
    lease["spec"]["leaseDurationSeconds"] = 1;
    const std::string now = kube::formatMicroTime(wallNow());
    lease["spec"]["renewTime"] = now;
    lease["spec"]["acquireTime"] = now;
    auto put = transport.request("PUT", path, {}, lease.dump(), kJson, kJson, limits);
    if (!put)
        return put.error();
    return {};
}

} // namespace models
