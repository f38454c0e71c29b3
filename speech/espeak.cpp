#include "speech/espeak.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <fstream>
#include <vector>

namespace eboard::speech {

namespace {

std::atomic<bool> g_in_use{false};

class EspeakSynthesizer;
EspeakSynthesizer* g_current = nullptr; // the callback's target (WAV mode)

/// Writes a RIFF/WAVE header and 16-bit mono samples (little-endian hosts).
bool write_wav(const std::filesystem::path& path, const std::vector<short>& samples, int rate) {
    std::ofstream out(path, std::ios::binary);
    const auto put32 = [&](std::uint32_t v) { out.write(reinterpret_cast<const char*>(&v), 4); };
    const auto put16 = [&](std::uint16_t v) { out.write(reinterpret_cast<const char*>(&v), 2); };
    const auto bytes = static_cast<std::uint32_t>(samples.size() * sizeof(short));
    out.write("RIFF", 4);
    put32(36 + bytes);
    out.write("WAVEfmt ", 8);
    put32(16);
    put16(1); // PCM
    put16(1); // mono
    put32(static_cast<std::uint32_t>(rate));
    put32(static_cast<std::uint32_t>(rate) * 2);
    put16(2);
    put16(16);
    out.write("data", 4);
    put32(bytes);
    out.write(reinterpret_cast<const char*>(samples.data()), static_cast<std::streamsize>(bytes));
    return static_cast<bool>(out.flush());
}

class EspeakSynthesizer final : public Synthesizer {
  public:
    EspeakSynthesizer(int rate, std::optional<std::filesystem::path> dir)
        : rate_(rate), dir_(std::move(dir)) {
        if (dir_) {
            g_current = this;
            espeak_SetSynthCallback(&EspeakSynthesizer::callback);
        }
    }
    ~EspeakSynthesizer() override {
        // Stop talking at once (a daemon must exit within 2 s). espeak-ng stays initialised
        // for the process: espeak-ng 1.51 crashes when espeak_Initialize() runs again after
        // espeak_Terminate() (measured here), so the next user only switches the output mode.
        espeak_Cancel();
        g_current = nullptr;
        g_in_use = false;
    }
    EspeakSynthesizer(const EspeakSynthesizer&) = delete;
    EspeakSynthesizer& operator=(const EspeakSynthesizer&) = delete;

    std::string_view name() const override { return dir_ ? "espeak-ng (wav)" : "espeak-ng"; }

    bool speak(const Utterance& u) override {
        if (u.language != language_) {
            if (espeak_SetVoiceByName(u.language.c_str()) != EE_OK) {
                error_ = "espeak-ng has no voice '" + u.language + "'";
                return false;
            }
            language_ = u.language;
        }
        samples_.clear();
        first_audio_.reset();
        started_ = std::chrono::steady_clock::now();
        // Playback mode: queued, returns at once. WAV mode (synchronous): returns when done.
        const espeak_ERROR e = espeak_Synth(u.text.c_str(), u.text.size() + 1, 0, POS_CHARACTER, 0,
                                            espeakCHARS_UTF8, nullptr, nullptr);
        if (e != EE_OK) {
            error_ =
                "espeak-ng refused the text (error " + std::to_string(static_cast<int>(e)) + ")";
            return false;
        }
        return dir_ ? write_files(u) : true;
    }

    std::string error() const override { return error_; }

    std::optional<std::chrono::nanoseconds> first_audio() const { return first_audio_; }

  private:
    static int callback(short* wav, int count, espeak_EVENT*) {
        EspeakSynthesizer* self = g_current;
        if (self != nullptr && wav != nullptr && count > 0) {
            if (!self->first_audio_)
                self->first_audio_ = std::chrono::steady_clock::now() - self->started_;
            self->samples_.insert(self->samples_.end(), wav, wav + count);
        }
        return 0; // continue
    }

    bool write_files(const Utterance& u) {
        char base[16];
        std::snprintf(base, sizeof base, "%06llu", static_cast<unsigned long long>(++count_));
        const auto txt = *dir_ / (std::string(base) + ".txt");
        const auto wav = *dir_ / (std::string(base) + ".wav");
        std::error_code ec;
        {
            std::ofstream t(*dir_ / (std::string(base) + ".txt.tmp"), std::ios::binary);
            t << u.language << '\t' << u.text << '\n';
        }
        std::filesystem::rename(*dir_ / (std::string(base) + ".txt.tmp"), txt, ec);
        if (ec || !write_wav(*dir_ / (std::string(base) + ".wav.tmp"), samples_, rate_)) {
            error_ = "cannot write " + wav.string();
            return false;
        }
        std::filesystem::rename(*dir_ / (std::string(base) + ".wav.tmp"), wav, ec);
        if (ec) error_ = "cannot write " + wav.string() + ": " + ec.message();
        return !ec;
    }

    int rate_;
    std::optional<std::filesystem::path> dir_;
    std::string language_;
    std::string error_;
    std::vector<short> samples_;
    std::uint64_t count_ = 0;
    std::chrono::steady_clock::time_point started_;
    std::optional<std::chrono::nanoseconds> first_audio_;
};

Expected<std::unique_ptr<Synthesizer>> open(espeak_ng_OUTPUT_MODE mode,
                                            std::optional<std::filesystem::path> dir) {
    if (g_in_use.exchange(true)) return Error{"espeak-ng is already in use"};
    // Once per process (see ~EspeakSynthesizer); espeakINITIALIZE_DONT_EXIT: report missing
    // data instead of exiting.
    static const int rate =
        espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nullptr, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) {
        g_in_use = false;
        return Error{"espeak-ng: cannot initialise (no data?)"};
    }
    if (espeak_ng_InitializeOutput(mode, 0, nullptr) != ENS_OK) {
        g_in_use = false;
        return Error{"espeak-ng: cannot open the audio output"};
    }
    espeak_SetSynthCallback(nullptr);
    return std::unique_ptr<Synthesizer>(std::make_unique<EspeakSynthesizer>(rate, std::move(dir)));
}

} // namespace

Expected<std::unique_ptr<Synthesizer>> open_espeak() {
    return open(ENOUTPUT_MODE_SPEAK_AUDIO, std::nullopt);
}

Expected<std::unique_ptr<Synthesizer>> open_espeak_wav(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error{"cannot create " + dir.string() + ": " + ec.message()};
    return open(ENOUTPUT_MODE_SYNCHRONOUS, dir);
}

std::optional<std::chrono::nanoseconds> espeak_last_first_audio(const Synthesizer& s) {
    const auto* e = dynamic_cast<const EspeakSynthesizer*>(&s);
    return e != nullptr ? e->first_audio() : std::nullopt;
}

} // namespace eboard::speech
