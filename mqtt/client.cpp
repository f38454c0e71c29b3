#include "mqtt/client.hpp"

#include <mosquitto.h>

#include <algorithm>
#include <mutex>

namespace eboard::mqtt {
namespace {

void library_init() {
    static std::once_flag once;
    std::call_once(once, [] { mosquitto_lib_init(); });
}

} // namespace

Client::Client(ClientOptions options, Callbacks callbacks)
    : options_(std::move(options)), callbacks_(std::move(callbacks)) {
    library_init();
}

Client::~Client() { stop(); }

void Client::start() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable() || stopping_) return;
    thread_ = std::thread([this] { run(); });
}

void Client::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        if (mosq_) mosquitto_disconnect(mosq_); // a clean DISCONNECT: the will is not sent
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::optional<int> Client::publish(const std::string& topic, std::string_view payload, int qos, bool retain) {
    std::lock_guard lock(mutex_);
    if (!mosq_ || !connected_) return std::nullopt;
    int mid = 0;
    const int rc = mosquitto_publish(mosq_, &mid, topic.c_str(), static_cast<int>(payload.size()), payload.data(),
                                     qos, retain);
    if (rc != MOSQ_ERR_SUCCESS) return std::nullopt;
    return mid;
}

void Client::subscribe(const std::string& pattern, int qos) {
    std::lock_guard lock(mutex_);
    subscriptions_.emplace_back(pattern, qos);
    if (mosq_ && connected_) mosquitto_subscribe(mosq_, nullptr, pattern.c_str(), qos);
}

bool Client::connected() const {
    std::lock_guard lock(mutex_);
    return connected_;
}

void Client::run() {
    auto delay = options_.reconnect_min;
    for (;;) {
        connack_seen_ = false;
        if (!connect_once()) return;
        if (connack_seen_) delay = options_.reconnect_min;
        if (callbacks_.disconnected) callbacks_.disconnected(last_error_);
        std::unique_lock lock(mutex_);
        if (wake_.wait_for(lock, delay, [this] { return stopping_; })) return;
        delay = std::min(delay * 2, options_.reconnect_max);
    }
}

bool Client::connect_once() {
    last_error_.clear();
    mosquitto* m = mosquitto_new(options_.client_id.empty() ? nullptr : options_.client_id.c_str(),
                                 options_.clean_session, this);
    if (!m) {
        last_error_ = "cannot create an MQTT client (out of memory or a bad client id)";
        return true;
    }
    mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    mosquitto_threaded_set(m, true);
    mosquitto_connect_with_flags_callback_set(m, &Client::on_connect);
    mosquitto_disconnect_callback_set(m, &Client::on_disconnect);
    mosquitto_publish_callback_set(m, &Client::on_publish);
    mosquitto_message_callback_set(m, &Client::on_message);
    const std::string& password = options_.password.empty() ? options_.url.password : options_.password;
    if (!options_.url.user.empty())
        mosquitto_username_pw_set(m, options_.url.user.c_str(), password.empty() ? nullptr : password.c_str());
    if (options_.will)
        mosquitto_will_set(m, options_.will->topic.c_str(), static_cast<int>(options_.will->payload.size()),
                           options_.will->payload.data(), options_.will->qos, options_.will->retain);
    int rc = MOSQ_ERR_SUCCESS;
    if (options_.url.tls)
        rc = mosquitto_tls_set(m, options_.ca_file.empty() ? nullptr : options_.ca_file.c_str(),
                               options_.ca_file.empty() ? "/etc/ssl/certs" : nullptr, nullptr, nullptr, nullptr);
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            mosquitto_destroy(m);
            return false;
        }
        mosq_ = m;
        connected_ = false;
    }
    if (rc == MOSQ_ERR_SUCCESS)
        rc = mosquitto_connect_async(m, options_.url.host.c_str(), options_.url.port, options_.keepalive_s);
    // The loop runs until the connection ends; stop() disconnects, which ends it too.
    while (rc == MOSQ_ERR_SUCCESS) rc = mosquitto_loop(m, 100, 1);
    if (last_error_.empty()) last_error_ = mosquitto_strerror(rc);
    bool stopping = false;
    {
        std::lock_guard lock(mutex_);
        mosq_ = nullptr;
        connected_ = false;
        stopping = stopping_;
    }
    mosquitto_destroy(m);
    return !stopping;
}

void Client::on_connect(mosquitto* m, void* self, int rc, int flags) {
    auto* c = static_cast<Client*>(self);
    if (rc != 0) {
        c->last_error_ = std::string("the broker refused the connection: ") + mosquitto_connack_string(rc);
        mosquitto_disconnect(m);
        return;
    }
    c->connack_seen_ = true;
    {
        std::lock_guard lock(c->mutex_);
        c->connected_ = true;
        for (const auto& [pattern, qos] : c->subscriptions_) mosquitto_subscribe(m, nullptr, pattern.c_str(), qos);
    }
    // CONNACK's flags: bit 0 is "session present" (MQTT 3.1.1, 3.2.2.2).
    if (c->callbacks_.connected) c->callbacks_.connected((flags & 1) != 0);
}

void Client::on_disconnect(mosquitto* /*m*/, void* self, int rc) {
    auto* c = static_cast<Client*>(self);
    std::lock_guard lock(c->mutex_);
    c->connected_ = false;
    if (rc != 0 && c->last_error_.empty()) c->last_error_ = "the connection was lost";
}

void Client::on_publish(mosquitto* /*m*/, void* self, int mid) {
    auto* c = static_cast<Client*>(self);
    if (c->callbacks_.published) c->callbacks_.published(mid);
}

void Client::on_message(mosquitto* /*m*/, void* self, const mosquitto_message* msg) {
    auto* c = static_cast<Client*>(self);
    if (!c->callbacks_.message || !msg || !msg->topic) return;
    Message out;
    out.topic = msg->topic;
    if (msg->payload && msg->payloadlen > 0)
        out.payload.assign(static_cast<const char*>(msg->payload), static_cast<std::size_t>(msg->payloadlen));
    out.qos = msg->qos;
    out.retain = msg->retain;
    c->callbacks_.message(out);
}

} // namespace eboard::mqtt
