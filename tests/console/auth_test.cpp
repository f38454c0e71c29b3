// The console's password, sessions and cross-site refusals (console/auth.hpp).
#include "console/auth.hpp"
#include "console/page.hpp"

#include "../support/process.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

using namespace eboard::console;

TEST_CASE("the arbiter password file is refused when others may read it") {
    eboard::test::TempDir dir;
    const auto path = (dir.path / "password").string();
    std::ofstream(path) << "s3cret\nignored\n";
    ::chmod(path.c_str(), 0644);
    auto open = read_password_file(path);
    REQUIRE_FALSE(open);
    CHECK(open.error().message.find("chmod 600") != std::string::npos);
    ::chmod(path.c_str(), 0600);
    auto ok = read_password_file(path);
    REQUIRE(ok);
    CHECK(*ok == "s3cret");
    CHECK_FALSE(read_password_file((dir.path / "none").string()));
    std::ofstream(path, std::ios::trunc) << "\n";
    CHECK_FALSE(read_password_file(path));
}

TEST_CASE("a session from the right password only, until logout or its end") {
    Sessions s(std::string("s3cret"), 1000);
    CHECK_FALSE(s.login("wrong", 0));
    CHECK_FALSE(s.login("s3cre", 0));
    CHECK_FALSE(s.login("s3cret!", 0));
    const auto t = s.login("s3cret", 0);
    REQUIRE(t);
    CHECK(t->size() == 32);
    const auto t2 = s.login("s3cret", 0);
    REQUIRE(t2);
    CHECK(*t2 != *t);
    CHECK(s.valid(*t, 999));
    CHECK_FALSE(s.valid(*t, 1000));
    CHECK_FALSE(s.valid("", 0));
    CHECK_FALSE(s.valid("0123456789abcdef0123456789abcdef", 0));
    s.logout(*t2);
    CHECK_FALSE(s.valid(*t2, 1));
    Sessions none(std::nullopt);
    CHECK_FALSE(none.enabled());
    CHECK_FALSE(none.login("", 0));
}

TEST_CASE("the session cookie is HttpOnly and SameSite=Strict, read back from a Cookie header") {
    CHECK(set_cookie_value("abc") == "eboard_session=abc; HttpOnly; SameSite=Strict; Path=/");
    CHECK(set_cookie_value("").find("Max-Age=0") != std::string::npos);
    CHECK(session_from_cookie_header("a=1; eboard_session=abc ; b=2") == "abc");
    CHECK(session_from_cookie_header("eboard_session=xyz") == "xyz");
    CHECK(session_from_cookie_header("other_eboard_session=1") == "");
    CHECK(session_from_cookie_header("") == "");
}

TEST_CASE("cross-site requests are refused, the page's own requests pass") {
    RequestOrigin own{"application/json", "http://127.0.0.1:8080", "127.0.0.1:8080", "same-origin"};
    CHECK_FALSE(cross_site_refusal(own));
    RequestOrigin curl{"application/json; charset=utf-8", "", "127.0.0.1:8080", ""};
    CHECK_FALSE(cross_site_refusal(curl));
    RequestOrigin form = own;
    form.content_type = "application/x-www-form-urlencoded";
    CHECK(cross_site_refusal(form));
    RequestOrigin other = own;
    other.origin = "http://evil.example";
    CHECK(cross_site_refusal(other));
    RequestOrigin fetch_site = curl;
    fetch_site.sec_fetch_site = "cross-site";
    CHECK(cross_site_refusal(fetch_site));
}

TEST_CASE("the page's files are compiled in with their types") {
    const auto index = page_file("/");
    REQUIRE(index);
    CHECK(index->content_type.find("text/html") == 0);
    CHECK(index->body.find("aria-live") != std::string_view::npos);
    const auto js = page_file("/console.js");
    REQUIRE(js);
    CHECK(js->content_type.find("javascript") != std::string_view::npos);
    CHECK(js->body.find("data-alert-kind") != std::string_view::npos);
    CHECK(page_file("/console.css"));
    CHECK_FALSE(page_file("/etc/passwd"));
    CHECK_FALSE(page_file("/../index.html"));
}
