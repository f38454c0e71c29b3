// The udev rules generator on its own (tools/eboard-udev-rules/udev_rules.hpp): what it makes
// of driver tables, and what it refuses. udev itself evaluates the rules in
// udev_rules_test.sh.
#include <catch2/catch.hpp>

#include "tools/eboard-udev-rules/udev_rules.hpp"

using namespace eboard;
using namespace eboard::drivers;
using eboard::tools::IdTable;
using eboard::tools::udev_rules;

namespace {

DriverInfo driver(std::string_view name, std::vector<UsbId> ids) {
    DriverInfo d;
    d.name = name;
    d.usb_ids = std::move(ids);
    return d;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("udev rules: every registered id of every driver is in the generated rules") {
    const auto drivers = all_drivers();
    auto rules = udev_rules(drivers, "test");
    REQUIRE(rules);
    int ids = 0;
    for (const DriverInfo* d : drivers)
        for (const UsbId& id : d->usb_ids) {
            char match[120];
            if (id.last() == id.pid)
                std::snprintf(match, sizeof match, "{idVendor}==\"%04x\", %s{idProduct}==\"%04x\"",
                              id.vid, id.access == UsbAccess::Tty ? "ATTRS" : "ATTR", id.pid);
            else  // a range: its comment line (the glob is checked in the range test)
                std::snprintf(match, sizeof match, "# %04x:%04x-%04x %s: ", id.vid, id.pid, id.last(),
                              std::string(d->name).c_str());
            CHECK(contains(*rules, match));
            CHECK(contains(*rules, "SYMLINK+=\"eboard-" + std::string(d->name) + "-$env{EBOARD_ID}\""));
            ++ids;
        }
    CHECK(ids > 0);
}

TEST_CASE("udev rules: a tty id and a libusb id get their own sections") {
    const DriverInfo a = driver("alpha", {{0x1209, 0x0001, "vendor", true, UsbAccess::Libusb},
                                          {0x1209, 0x0002, "cdc", false, UsbAccess::Tty}});
    const DriverInfo quiet = driver("quiet", {});
    auto rules = udev_rules({&a, &quiet}, "9.9");
    REQUIRE(rules);
    CHECK(contains(*rules, "eboardd 9.9"));
    CHECK(contains(*rules, "# quiet: no USB id known"));
    CHECK(contains(*rules, "SUBSYSTEM==\"tty\", SUBSYSTEMS==\"usb\", GOTO=\"eboard_tty\""));
    CHECK(contains(*rules, "SUBSYSTEM==\"usb\", ENV{DEVTYPE}==\"usb_device\", GOTO=\"eboard_usb\""));
    CHECK(contains(*rules, "ATTRS{idVendor}==\"1209\", ATTRS{idProduct}==\"0002\", ENV{EBOARD_DRIVER}+=\"alpha\""));
    CHECK(contains(*rules, "ATTR{idVendor}==\"1209\", ATTR{idProduct}==\"0001\", ENV{EBOARD_DRIVER}+=\"alpha\""));
    CHECK(contains(*rules, "# 1209:0002 alpha: cdc (uncertain id: the driver probes the board)"));
    CHECK(contains(*rules, "ENV{SYSTEMD_WANTS}+=\"eboardd-device@%k.service\""));
    CHECK(contains(*rules, "ENV{SYSTEMD_WANTS}+=\"eboardd-device@bus-usb-$env{BUSNUM}-$env{DEVNUM}.service\""));
    // No link without a serial number or a port to name it by.
    CHECK(contains(*rules, "ENV{EBOARD_ID}==\"?*\", ENV{EBOARD_DRIVER}==\"alpha|alpha *|* alpha|* alpha *\", SYMLINK+=\"eboard-alpha-$env{EBOARD_ID}\""));
    // The driver list starts afresh: a change event begins with the database's properties.
    CHECK(contains(*rules, "LABEL=\"eboard_tty\"\nENV{EBOARD_DRIVER}=\"\", ENV{EBOARD_ID}=\"\"\n"));
}

TEST_CASE("udev rules: without ids of a kind there is no section for it") {
    const DriverInfo a = driver("alpha", {{0x1209, 0x0002, "cdc", true, UsbAccess::Tty}});
    auto rules = udev_rules({&a}, "1");
    REQUIRE(rules);
    CHECK_FALSE(contains(*rules, "eboard_usb"));
    auto none = udev_rules({}, "1");
    REQUIRE(none);
    CHECK_FALSE(contains(*none, "eboard_tty"));
    CHECK(contains(*none, "LABEL=\"eboard_end\""));
}

TEST_CASE("udev rules: names that cannot be part of a device link, and broken notes, are refused") {
    const DriverInfo upper = driver("Dgt", {});
    auto r1 = udev_rules({&upper}, "1");
    REQUIRE_FALSE(r1);
    CHECK(contains(r1.error().message, "'Dgt'"));
    const DriverInfo slash = driver("a/b", {});
    CHECK_FALSE(udev_rules({&slash}, "1"));
    const DriverInfo note = driver("x", {{1, 2, "two\nlines", true, UsbAccess::Tty}});
    auto r2 = udev_rules({&note}, "1");
    REQUIRE_FALSE(r2);
    CHECK(contains(r2.error().message, "line break"));
}

TEST_CASE("udev rules: an id table reads back what --ids prints") {
    const DriverInfo a = driver("alpha", {{0x2d80, 0x8002, "air", true, UsbAccess::Libusb}});
    const DriverInfo b = driver("beta", {{0x0403, 0x6001, "ftdi", false, UsbAccess::Tty}});
    const std::string listed = tools::udev_id_list({&a, &b});
    CHECK(listed == "alpha 2d80 8002 libusb certain\nbeta 0403 6001 tty uncertain\n");
    auto table = IdTable::parse("# comment\n\n" + listed, "ids.txt");
    REQUIRE(table);
    const auto drivers = table->drivers();
    REQUIRE(drivers.size() == 2);
    CHECK(tools::udev_id_list(drivers) == listed);
    CHECK(drivers[0]->usb_ids[0].note == "from ids.txt");
}

TEST_CASE("udev rules: a range of product ids is one glob, listed as PID-LAST and read back") {
    // Chessnut: any PID 80xx-86xx, as the vendor SDK takes them (issue 23).
    const DriverInfo a = driver("alpha", {{0x2d80, 0x8000, "family", true, UsbAccess::Libusb, 0x86ff}});
    auto rules = udev_rules({&a}, "1");
    REQUIRE(rules);
    CHECK(contains(*rules, "ATTR{idVendor}==\"2d80\", ATTR{idProduct}==\"8[0123456]??\", ENV{EBOARD_DRIVER}+=\"alpha\""));
    CHECK(contains(*rules, "# 2d80:8000-86ff alpha: family"));
    const DriverInfo wide = driver("wide", {{0x1209, 0x0f00, "w", true, UsbAccess::Tty, 0x11ff}});
    auto wide_rules = udev_rules({&wide}, "1");
    REQUIRE(wide_rules);
    CHECK(contains(*wide_rules, "ATTRS{idProduct}==\"0f??|1[01]??\""));
    const std::string listed = tools::udev_id_list({&a});
    CHECK(listed == "alpha 2d80 8000-86ff libusb certain\n");
    auto table = IdTable::parse(listed, "ids.txt");
    REQUIRE(table);
    REQUIRE(table->drivers().size() == 1);
    const UsbId& back = table->drivers()[0]->usb_ids.at(0);
    CHECK(back.matches(0x2d80, 0x8405));
    CHECK_FALSE(back.matches(0x2d80, 0x8700));
    CHECK(tools::udev_id_list(table->drivers()) == listed);
    // A range udev cannot match in whole 0x100 blocks is refused; so is a backwards one.
    const DriverInfo odd = driver("odd", {{0x2d80, 0x8001, "x", true, UsbAccess::Libusb, 0x8003}});
    CHECK_FALSE(udev_rules({&odd}, "1"));
    CHECK_FALSE(IdTable::parse("a 2d80 86ff-8000 libusb certain\n", "t"));
}

TEST_CASE("udev rules: a malformed id table line is named") {
    auto bad = IdTable::parse("alpha 1209 0001 tty certain\nbeta 12 0001 tty certain\n", "t");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().line == 2);
    CHECK(contains(bad.error().message, "t:2:"));
    CHECK_FALSE(IdTable::parse("a 1209 0001 serial certain\n", "t"));
    CHECK_FALSE(IdTable::parse("a 1209 0001 tty sure\n", "t"));
    CHECK_FALSE(IdTable::parse("a 1209 0001 tty certain extra\n", "t"));
    CHECK_FALSE(IdTable::parse("a 1209 00G1 tty certain\n", "t"));
}
