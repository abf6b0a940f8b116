#pragma once
// FakeApiServer — a loopback HTTP/1.1 (optionally HTTPS) server on its own thread that answers
// with canned responses from a handler and records every request. Responses can be plain,
// or chunked streams that end cleanly, drop the connection, or stay open (watches).

#include <QByteArray>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

class QThread;

struct FakeRequest
{
    std::string method;
    std::string path;
    std::map<std::string, std::string> query; // decoded
    std::string rawQuery;
    std::map<std::string, std::string> headers; // lower-case names
    std::string body;

    std::string header(const std::string &name) const
    {
        auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
    bool has(const std::string &key) const { return query.count(key) != 0; }
    std::string q(const std::string &key) const
    {
        auto it = query.find(key);
        return it == query.end() ? std::string() : it->second;
    }
};

struct FakeResponse
{
    enum class Stream { None, End, Drop, Hold };
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    Stream stream = Stream::None;    // None: Content-Length body
    std::vector<std::string> chunks; // for streams, each written as one chunk

    static FakeResponse json(const std::string &body, int status = 200)
    {
        FakeResponse r;
        r.status = status;
        r.body = body;
        return r;
    }
    static FakeResponse watch(std::vector<std::string> lines, Stream how)
    {
        FakeResponse r;
        for (auto &l : lines)
            r.chunks.push_back(l + "\n");
        r.stream = how;
        return r;
    }
};

struct FakeTls
{
    QString certFile;
    QString keyFile;
};

class FakeApiServer
{
public:
    using Handler = std::function<FakeResponse(const FakeRequest &)>;

    explicit FakeApiServer(Handler handler, const FakeTls *tls = nullptr);
    ~FakeApiServer();

    quint16 port() const { return m_port; }
    std::string url() const; // http(s)://127.0.0.1:PORT

    void setHandler(Handler handler);
    std::vector<FakeRequest> requests() const;
    // Requests whose path ends with `suffix` and whose query has watch=true (or not).
    std::vector<FakeRequest> requestsTo(const std::string &pathSuffix, bool watches) const;
    int count(const std::string &pathSuffix, bool watches) const
    {
        return static_cast<int>(requestsTo(pathSuffix, watches).size());
    }

    // Called from the server thread.
    FakeResponse handle(const FakeRequest &r);

private:
    mutable std::mutex m_mutex;
    Handler m_handler;
    std::vector<FakeRequest> m_requests;
    QThread *m_thread = nullptr;
    quint16 m_port = 0;
    bool m_tls = false;
};
