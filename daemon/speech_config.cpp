#include "daemon/speech_config.hpp"

#include "access/announcer.hpp"
#include "access/vocabulary.hpp"
#include "speech/open.hpp"

namespace eboard::daemon {
namespace po = boost::program_options;

po::options_description speech_options_table() {
    po::options_description d("speech for visually impaired players (FIDE Appendix D)");
    // clang-format off
    d.add_options()
        ("speech", po::value<std::string>()->value_name("OUTPUT"), "auto | speechd | espeak | wav:DIR | none (default)")
        ("speech-address", po::value<std::string>()->value_name("ADDRESS"), "speech-dispatcher's, unix_socket:PATH (default: its own)")
        ("speech-vocabulary", po::value<std::string>()->value_name("VOCABULARY"), "appendix-d (default) | en | nl | de | af | fr")
        ("speech-moves", po::value<std::string>()->value_name("both|white|black|none"), "whose moves are announced (default both)")
        ("speech-long-form", po::value<std::string>()->value_name("yes|no"), "yes: the departure squares too (default no)");
    // clang-format on
    return d;
}

Expected<bool> apply_speech_options(const po::variables_map& vm, SpeechOptions& out) {
    if (vm.count("speech")) {
        out.output = vm["speech"].as<std::string>();
        if (!speech::valid_speech_backend(out.output))
            return Error{"--speech: '" + out.output + "' is not auto|speechd|espeak|wav:DIR|none"};
    }
    if (vm.count("speech-address")) out.address = vm["speech-address"].as<std::string>();
    if (vm.count("speech-vocabulary")) {
        out.vocabulary = vm["speech-vocabulary"].as<std::string>();
        if (!access::vocabulary_from_code(out.vocabulary))
            return Error{"--speech-vocabulary: '" + out.vocabulary +
                         "' is not appendix-d|en|nl|de|af|fr"};
    }
    if (vm.count("speech-moves")) {
        out.moves = vm["speech-moves"].as<std::string>();
        if (!access::spoken_sides_from_text(out.moves))
            return Error{"--speech-moves: '" + out.moves + "' is not both|white|black|none"};
    }
    if (vm.count("speech-long-form")) {
        const std::string v = vm["speech-long-form"].as<std::string>();
        if (v != "yes" && v != "no") return Error{"--speech-long-form: '" + v + "' is not yes|no"};
        out.long_form = v == "yes";
    }
    return true;
}

Expected<bool> apply_board_access_key(const std::string& field, const std::string& value,
                                      BoardAccessOptions& out) {
    if (field == "speech-vocabulary") {
        if (!access::vocabulary_from_code(value))
            return Error{"speech-vocabulary: '" + value + "' is not appendix-d|en|nl|de|af|fr"};
        out.vocabulary = value;
    } else if (field == "speech-moves") {
        if (!access::spoken_sides_from_text(value))
            return Error{"speech-moves: '" + value + "' is not both|white|black|none"};
        out.moves = value;
    } else if (field == "tactile") {
        if (value != "yes" && value != "no") return Error{"tactile: '" + value + "' is not yes|no"};
        out.tactile = value == "yes";
    } else if (field == "pair") {
        out.pair = value;
    } else {
        return false;
    }
    return true;
}

const char* board_access_keys() {
    return "speech-vocabulary, speech-moves, tactile, pair";
}

} // namespace eboard::daemon
