#include "daemon/option_error.hpp"

#include <cstdio>
#include <map>
#include <set>

namespace eboard::daemon {
namespace po = boost::program_options;

namespace {

// Reads the protected state of a Boost error (its substitutions and option prefix) through
// pointers to members named via a derived class: legal C++, as the pointers' type is that of
// the base's members. Never constructed.
struct BoostErrorState : po::error_with_option_name {
    BoostErrorState() = delete;
    static std::map<std::string, std::string> substitutions(const po::error_with_option_name& e) {
        auto values = e.*(&BoostErrorState::m_substitutions);
        values["canonical_option"] = e.get_option_name();
        values["prefix"] = (e.*(&BoostErrorState::get_canonical_option_prefix))();
        return values;
    }
};

// User text as it goes into a message: printable bytes as they are (UTF-8 included), control
// characters escaped so that a crafted option name cannot start a new log line.
std::string shown(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') {
            out += "\\n";
        } else if (byte < 0x20 || byte == 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned>(byte));
            out += hex;
        } else {
            out += c;
        }
    }
    return out;
}

// Replaces every `from` in `text`; `to` must not contain `from` (only used on Boost's
// fixed texts below).
void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (auto pos = text.find(from); pos != std::string::npos;
         pos = text.find(from, pos + to.size()))
        text.replace(pos, from.size(), to);
}

// `tmpl` with each `%name%` that `values` knows replaced by its value, left to right, in one
// pass: the values are never scanned again. Unknown placeholders stay as they are.
std::string fill(const std::string& tmpl, const std::map<std::string, std::string>& values) {
    std::string out;
    std::size_t i = 0;
    while (i < tmpl.size()) {
        const auto open = tmpl.find('%', i);
        const auto close = open == std::string::npos ? open : tmpl.find('%', open + 1);
        if (close == std::string::npos) {
            out.append(tmpl, i, std::string::npos);
            break;
        }
        out.append(tmpl, i, open - i);
        const auto it = values.find(tmpl.substr(open + 1, close - open - 1));
        if (it == values.end()) {
            out += '%';
            i = open + 1;
        } else {
            out += shown(it->second);
            i = close + 1;
        }
    }
    return out;
}

} // namespace

std::string option_error_text(const po::error& e) {
    const auto* named = dynamic_cast<const po::error_with_option_name*>(&e);
    if (named == nullptr) return e.what(); // a fixed text (or a file name), no placeholders
    const auto values = BoostErrorState::substitutions(*named);
    std::string tmpl = named->m_error_template;
    // Boost's defaults for a missing name or value (error_with_option_name's constructor).
    if (values.at("canonical_option").empty())
        replace_all(tmpl, "option '%canonical_option%'", "option");
    if (auto v = values.find("value"); v == values.end() || v->second.empty())
        replace_all(tmpl, "argument ('%value%')", "argument");
    std::string text = fill(tmpl, values);
    // ambiguous_option::substitute_placeholders adds the candidates (names from our table).
    if (const auto* ambiguous = dynamic_cast<const po::ambiguous_option*>(&e);
        ambiguous != nullptr && !ambiguous->alternatives().empty()) {
        const std::string prefix = values.at("prefix");
        text += " and matches";
        const char* sep = " ";
        const std::set<std::string> names(ambiguous->alternatives().begin(),
                                          ambiguous->alternatives().end());
        for (const auto& name : names) {
            text += sep + ("'" + prefix + shown(name) + "'");
            sep = ", ";
        }
    }
    return text;
}

} // namespace eboard::daemon
