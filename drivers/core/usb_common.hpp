// Internal to drivers/core's USB files: the libusb context handle and id-table helpers.
#pragma once

#include "drivers/core/usb.hpp"

#include <libusb.h>

#include <memory>

namespace eboard::drivers {

struct UsbContextDeleter {
    void operator()(libusb_context* c) const noexcept { libusb_exit(c); }
};
/// One libusb context (each transport and monitor has its own).
using UsbContext = std::unique_ptr<libusb_context, UsbContextDeleter>;

/// libusb_init, with the failure said in words.
[[nodiscard]] Expected<UsbContext> make_usb_context();

/// True if vid:pid is in `ids` (one of its ids or ranges).
[[nodiscard]] bool usb_id_listed(std::span<const UsbId> ids, std::uint16_t vid, std::uint16_t pid) noexcept;

/// "2d80:8001, 2d80:8002", a range as "2d80:8000-86ff".
[[nodiscard]] std::string usb_ids_text(std::span<const UsbId> ids);

} // namespace eboard::drivers
