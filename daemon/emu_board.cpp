#include "daemon/emu_board.hpp"

#include <array>

#include "drivers/emu/chessnut_emulator.hpp"
#include "drivers/emu/dgt_emulator.hpp"
#include "drivers/emu/line_emulator.hpp"
#include "drivers/emu/millennium_emulator.hpp"
#include "rules/time_control.hpp"

namespace eboard::daemon {
namespace emu = drivers::emu;

namespace {

// A Certabo/Sentio streams a frame every 100 ms here (the official simulator: 1 s; the real
// rate is not documented, certabo-sentio.md 3.2): with the 2-of-3 vote a change shows within
// about 0.3 s.
constexpr TimeMs kLineFramePeriodMs = 100;

BoardReading state_of(const Position& pos) {
    BoardReading b;
    for (int s = 0; s < 64; ++s) b.set(Square(s), pos.piece_on(Square(s)));
    return b;
}

// The boards served on a pty: the real driver opens the pty like any tty.
template <typename Emulator>
class PtyEmuBoard final : public EmuBoard {
  public:
    template <typename Options>
    PtyEmuBoard(std::string driver, Options options, bool identity, bool clock)
        : driver_(std::move(driver)), emulator_(std::move(options)), identity_(identity), clock_(clock) {}

    Expected<std::unique_ptr<drivers::DeviceSession>> open_session(
        drivers::DeviceSession::EventSink sink, const drivers::DriverOptions& options) override {
        return drivers::open_device(driver_ + ":" + emulator_.pty_slave_path(), std::move(sink), options);
    }
    SimulatedPlayer::Hands hands() override {
        SimulatedPlayer::Hands h{[this](Square s) { emulator_.lift(s); },
                                 [this](Square s, Piece p) { emulator_.place(s, p); }, {}};
        if constexpr (requires(Emulator& e) { e.press_lever(drivers::ClockSide::Left); })
            if (clock_) h.press = [this](drivers::ClockSide side) { emulator_.press_lever(side); };
        return h;
    }
    [[nodiscard]] bool identity() const override { return identity_; }
    [[nodiscard]] bool has_clock() const override { return clock_; }

  private:
    std::string driver_;
    Emulator emulator_;
    bool identity_;
    bool clock_;
};

// The Chessnut is a USB HID board: its reports go straight into the driver's session through
// an in-process loopback transport (libusb needs a real or umockdev device).
class ChessnutEmuBoard final : public EmuBoard {
  public:
    explicit ChessnutEmuBoard(emu::ChessnutEmulatorOptions options)
        : emulator_(std::make_shared<emu::ChessnutEmulator>(std::move(options))) {}

    Expected<std::unique_ptr<drivers::DeviceSession>> open_session(
        drivers::DeviceSession::EventSink sink, const drivers::DriverOptions& options) override {
        const drivers::DriverInfo* info = drivers::find_driver("chessnut");
        if (!info) return Error{"emu-chessnut: no chessnut driver in this build"};
        drivers::DriverOptions o = options;
        o.model = std::string(info->model("")->name);
        auto driver = info->create(o);
        if (!driver) return Error{"emu-chessnut: the driver rejected its options"};
        return std::make_unique<drivers::DeviceSession>(
            std::make_unique<emu::ReportLoopback>(emulator_, "emu-chessnut"), std::move(driver), std::move(sink));
    }
    SimulatedPlayer::Hands hands() override {
        return {[this](Square s) { emulator_->lift(s); }, [this](Square s, Piece p) { emulator_->place(s, p); }, {}};
    }

  private:
    std::shared_ptr<emu::ChessnutEmulator> emulator_;
};

} // namespace

std::int64_t clock_start_ms(const std::string& tc_text) {
    auto tc = parse_time_control(tc_text);
    if (tc && tc->kind == TimeControl::Kind::Periods && !tc->periods.empty() && tc->periods.front().time_ms > 0)
        return tc->periods.front().time_ms;
    return 90 * 60 * 1000;
}

Expected<std::unique_ptr<EmuBoard>> EmuBoard::create(const std::string& kind, const Position& shown,
                                                     std::int64_t clock_ms) {
    const BoardReading board = state_of(shown);
    try {
        if (kind == "dgt") {
            emu::DgtEmulatorOptions o;
            o.position = board;
            o.clock.left_ms = clock_ms;
            o.clock.right_ms = clock_ms;
            return std::unique_ptr<EmuBoard>(new PtyEmuBoard<emu::DgtEmulator>("dgt", o, true, true));
        }
        if (kind == "certabo" || kind == "sentio") {
            emu::LineEmulatorOptions o;
            o.kind = kind == "certabo" ? emu::LineBoardKind::Certabo : emu::LineBoardKind::Sentio;
            o.position = board;
            o.frame_period_ms = kLineFramePeriodMs;
            return std::unique_ptr<EmuBoard>(new PtyEmuBoard<emu::LineEmulator>(kind, o, kind == "certabo", false));
        }
        if (kind == "millennium") {
            emu::MillenniumEmulatorOptions o;
            o.position = board;
            return std::unique_ptr<EmuBoard>(new PtyEmuBoard<emu::MillenniumEmulator>("millennium", o, true, false));
        }
        if (kind == "chessnut") {
            emu::ChessnutEmulatorOptions o;
            o.position = board;
            return std::unique_ptr<EmuBoard>(new ChessnutEmuBoard(o));
        }
    } catch (const std::exception& e) {
        return Error{"emu-" + kind + ": cannot open the emulated board: " + e.what()};
    }
    return Error{"unknown emulator 'emu-" + kind + "'"};
}

} // namespace eboard::daemon
