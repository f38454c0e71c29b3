// The boards the daemon has open: one record per board (its session, its link, how it was
// attached), found by name or URI. The registry owns them; it opens and closes nothing itself
// (the daemon starts and stops links, RetiredBoards waits for a closed one's device thread).
//
// Contract: used on the event loop's thread only. The order of the records is the order the
// boards were added (BOARDS lists them so). A record's session and link live as long as it is in
// the registry; take() hands both over at once, so that a link never outlives its session here.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "daemon/board_link.hpp"
#include "daemon/board_session.hpp"

namespace eboard::daemon {

/// One open board.
struct BoardRecord {
    std::unique_ptr<BoardSession> session; ///< never null
    std::unique_ptr<BoardLink> link;       ///< never null; reads the device into `session`
    std::string device; ///< the device node ATTACH `device` opened it by; "" otherwise
};

class BoardRegistry {
  public:
    /// Adds a board (its name is not taken: the caller checked).
    BoardRecord& add(BoardRecord record);
    /// The board named `name_or_uri` (its name, or its URI as given), or nullptr.
    [[nodiscard]] BoardRecord* find(const std::string& name_or_uri);
    /// The record of `session`, or nullptr.
    [[nodiscard]] BoardRecord* find(const BoardSession* session);
    /// The board attached by the device node `device` (ATTACH `device`), or nullptr.
    [[nodiscard]] BoardRecord* find_by_device(const std::string& device);
    /// Removes the board of `session` and hands it over (empty record when it is not here).
    [[nodiscard]] BoardRecord take(const BoardSession* session);
    /// Removes the last board added (an ATTACH that failed half-way).
    void drop_last();

    [[nodiscard]] std::vector<BoardRecord>& records() { return records_; }
    [[nodiscard]] const std::vector<BoardRecord>& records() const { return records_; }
    [[nodiscard]] std::size_t size() const { return records_.size(); }

    /// Starts every board's link (at start-up).
    void start_all();
    /// Stops every board's link, waiting for their device threads (at exit).
    void stop_all();
    /// "C/N boards connected, G games in progress" (the service manager's STATUS=).
    [[nodiscard]] std::string status_text() const;

  private:
    std::vector<BoardRecord> records_;
};

} // namespace eboard::daemon
