#include "fakeapiserver.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpServer>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <future>

namespace {

class ServerImpl : public QTcpServer
{
public:
    ServerImpl(FakeApiServer *owner, const FakeTls *tls) : m_owner(owner)
    {
        if (tls) {
            QFile cf(tls->certFile), kf(tls->keyFile);
            if (cf.open(QIODevice::ReadOnly) && kf.open(QIODevice::ReadOnly)) {
                m_cert = QSslCertificate(cf.readAll(), QSsl::Pem);
                m_key = QSslKey(kf.readAll(), QSsl::Rsa, QSsl::Pem);
                m_tls = true;
            }
        }
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        QTcpSocket *socket = nullptr;
        if (m_tls) {
            auto *ssl = new QSslSocket(this);
            ssl->setSocketDescriptor(descriptor);
            ssl->setLocalCertificate(m_cert);
            ssl->setPrivateKey(m_key);
            ssl->setPeerVerifyMode(QSslSocket::VerifyNone);
            QObject::connect(ssl, &QSslSocket::sslErrors, ssl, [ssl](const QList<QSslError> &) {});
            ssl->startServerEncryption();
            socket = ssl;
        } else {
            socket = new QTcpSocket(this);
            socket->setSocketDescriptor(descriptor);
        }
        auto buffer = std::make_shared<QByteArray>();
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
            buffer->append(socket->readAll());
            serve(socket, *buffer);
        });
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }

private:
    void serve(QTcpSocket *socket, QByteArray &buffer)
    {
        for (;;) {
            const int headerEnd = buffer.indexOf("\r\n\r\n");
            if (headerEnd < 0)
                return;
            const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
            FakeRequest req;
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            req.method = first.value(0).toStdString();
            const QByteArray target = first.value(1);
            const int qm = target.indexOf('?');
            req.path = (qm < 0 ? target : target.left(qm)).toStdString();
            if (qm >= 0) {
                req.rawQuery = target.mid(qm + 1).toStdString();
                const QUrlQuery uq(QString::fromLatin1(target.mid(qm + 1)));
                for (const auto &[k, v] : uq.queryItems(QUrl::FullyDecoded))
                    req.query[k.toStdString()] = v.toStdString();
            }
            qsizetype length = 0;
            for (int i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines[i].trimmed();
                const int colon = line.indexOf(':');
                if (colon <= 0)
                    continue;
                const std::string name = line.left(colon).trimmed().toLower().toStdString();
                const std::string value = line.mid(colon + 1).trimmed().toStdString();
                if (req.headers.count(name))
                    req.headers[name] += ", " + value;
                else
                    req.headers[name] = value;
                if (name == "content-length")
                    length = std::stoll(value);
            }
            if (buffer.size() < headerEnd + 4 + length)
                return;
            req.body = buffer.mid(headerEnd + 4, length).toStdString();
            buffer.remove(0, headerEnd + 4 + length);
            respond(socket, m_owner->handle(req));
        }
    }

    static void respond(QTcpSocket *socket, const FakeResponse &r)
    {
        QByteArray out = "HTTP/1.1 " + QByteArray::number(r.status) +
                         " X\r\nContent-Type: " + QByteArray::fromStdString(r.contentType) + "\r\n";
        if (r.stream == FakeResponse::Stream::None) {
            out += "Content-Length: " + QByteArray::number(qsizetype(r.body.size())) + "\r\n\r\n";
            out += QByteArray::fromStdString(r.body);
            socket->write(out);
            return;
        }
        out += "Transfer-Encoding: chunked\r\n\r\n";
        for (const auto &c : r.chunks)
            out +=
                QByteArray::number(qsizetype(c.size()), 16) + "\r\n" + QByteArray::fromStdString(c) + "\r\n";
        if (r.stream == FakeResponse::Stream::End)
            out += "0\r\n\r\n";
        socket->write(out);
        socket->flush();
        if (r.stream == FakeResponse::Stream::Drop)
            socket->disconnectFromHost();
    }

    FakeApiServer *m_owner;
    bool m_tls = false;
    QSslCertificate m_cert;
    QSslKey m_key;
};

class ServerThread : public QThread
{
public:
    ServerThread(FakeApiServer *owner, const FakeTls *tls, std::promise<quint16> &port)
        : m_owner(owner), m_tls(tls ? std::optional<FakeTls>(*tls) : std::nullopt), m_port(port)
    {}

protected:
    void run() override
    {
        ServerImpl server(m_owner, m_tls ? &*m_tls : nullptr);
        server.listen(QHostAddress::LocalHost, 0);
        m_port.set_value(server.serverPort());
        exec();
    }

private:
    FakeApiServer *m_owner;
    std::optional<FakeTls> m_tls;
    std::promise<quint16> &m_port;
};

} // namespace

FakeApiServer::FakeApiServer(Handler handler, const FakeTls *tls) : m_handler(std::move(handler)), m_tls(tls)
{
    std::promise<quint16> port;
    auto future = port.get_future();
    m_thread = new ServerThread(this, tls, port);
    m_thread->start();
    m_port = future.get();
}

FakeApiServer::~FakeApiServer()
{
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

std::string FakeApiServer::url() const
{
    return std::string(m_tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(m_port);
}

void FakeApiServer::setHandler(Handler handler)
{
    std::lock_guard lock(m_mutex);
    m_handler = std::move(handler);
}

std::vector<FakeRequest> FakeApiServer::requests() const
{
    std::lock_guard lock(m_mutex);
    return m_requests;
}

std::vector<FakeRequest> FakeApiServer::requestsTo(const std::string &pathSuffix, bool watches) const
{
    std::vector<FakeRequest> out;
    for (const auto &r : requests()) {
        const bool isWatch = r.q("watch") == "true" || r.q("watch") == "1";
        if (isWatch == watches && r.path.size() >= pathSuffix.size() &&
            r.path.compare(r.path.size() - pathSuffix.size(), pathSuffix.size(), pathSuffix) == 0)
            out.push_back(r);
    }
    return out;
}

FakeResponse FakeApiServer::handle(const FakeRequest &r)
{
    Handler h;
    {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(r);
        h = m_handler;
    }
    return h ? h(r)
             : FakeResponse::json(
                   R"({"kind":"Status","code":404,"reason":"NotFound","message":"no handler"})", 404);
}
