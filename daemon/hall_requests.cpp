#include "daemon/hall_requests.hpp"

#include <boost/asio/post.hpp>

#include "daemon/hall_topics.hpp"
#include "daemon/http_console.hpp"
#include "daemon/log.hpp"

namespace eboard::daemon {

std::string request_topic(std::string_view host, std::string_view board) {
    return "eboard/v1/" + topic_level(host) + "/" + topic_level(board) + "/request";
}

std::string reply_topic(std::string_view host, std::string_view board) {
    return "eboard/v1/" + topic_level(host) + "/" + topic_level(board) + "/reply";
}

HallRequests::HallRequests(boost::asio::io_context& io, mqtt::ClientOptions options, std::string host,
                           CommandHandler& handler)
    : io_(io), host_(std::move(host)), handler_(handler) {
    options.will.reset();
    options.clean_session = true;
    mqtt::Callbacks callbacks;
    // On the client's thread: carried out on the loop, where the boards live.
    callbacks.message = [this, alive = alive_](const mqtt::Message& m) {
        boost::asio::post(io_, [this, alive, topic = m.topic, payload = m.payload] {
            if (*alive) carry_out(topic, payload);
        });
    };
    client_ = std::make_unique<mqtt::Client>(std::move(options), std::move(callbacks));
}

HallRequests::~HallRequests() {
    stop();
    *alive_ = false;
}

void HallRequests::start() {
    client_->subscribe("eboard/v1/" + topic_level(host_) + "/+/request", 1);
    client_->start();
}

void HallRequests::stop() { client_->stop(); }

void HallRequests::carry_out(const std::string& topic, const std::string& payload) {
    auto request = nlohmann::json::parse(payload, nullptr, false);
    if (!request.is_object() || !request.contains("board") || !request["board"].is_string()) {
        log_warning("mqtt: " + topic + ": not a request for a board (ignored)");
        return;
    }
    const std::string board = request["board"].get<std::string>();
    if (topic != request_topic(host_, board)) {
        log_warning("mqtt: " + topic + ": the request names board " + board + " (ignored)");
        return;
    }
    log_notice("mqtt: arbiter request from the hub: " + request.value("class", std::string("?")) + " on " + board);
    nlohmann::json reply = execute_json_request(handler_, request);
    if (!client_->publish(reply_topic(host_, board), reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                          1, false))
        log_warning("mqtt: the reply to " + topic + " was not sent (no connection); the hub times out");
}

} // namespace eboard::daemon
