#include "speech/open.hpp"

#include "speech/espeak.hpp"
#include "speech/speechd.hpp"

namespace eboard::speech {

namespace {

Expected<std::unique_ptr<SpeechQueue>> queue(Expected<std::unique_ptr<Synthesizer>> s,
                                             std::string& note) {
    if (!s) return s.error();
    auto q = std::make_unique<SpeechQueue>(std::move(s.value()));
    if (note.empty()) note = "speech through " + std::string(q->name());
    return q;
}

} // namespace

bool valid_speech_backend(std::string_view backend) noexcept {
    return backend == "auto" || backend == "speechd" || backend == "espeak" || backend == "none" ||
           (backend.starts_with("wav:") && backend.size() > 4);
}

Expected<std::unique_ptr<SpeechQueue>>
open_speech(std::string_view backend, const std::string& speechd_address, std::string& note) {
    note.clear();
    if (backend == "none") {
        note = "speech off";
        return std::unique_ptr<SpeechQueue>();
    }
    if (backend == "speechd") return queue(open_speechd(speechd_address), note);
    if (backend == "espeak") return queue(open_espeak(), note);
    if (backend.starts_with("wav:") && backend.size() > 4)
        return queue(open_espeak_wav(std::string(backend.substr(4))), note);
    if (backend == "auto") {
        auto s = open_speechd(speechd_address);
        if (s) return queue(std::move(s), note);
        note = "speech through espeak-ng (no speech-dispatcher: " + s.error().message + ")";
        return queue(open_espeak(), note);
    }
    return Error{"unknown speech output '" + std::string(backend) + "'"};
}

} // namespace eboard::speech
