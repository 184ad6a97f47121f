"""Where the phone server listens and the address phones use to reach it (config `[network]`).

`bind_address(bind)`: the config's `bind` ("" = every interface, an IP address, or an interface
name such as `wlan0`) as an address to listen on. `lan_address(bind)`: the address to put in
the QR code: the bound address itself, or, when listening everywhere, the address of the
interface that holds the default route (found by connecting a UDP socket, which sends nothing).
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address
ANY = "0.0.0.0"
PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737): a UDP connect only picks a route


def bind_address(bind: str) -> str:
    """The address to listen on; `ValueError` for an interface that does not exist or has no
    IPv4 address."""
    bind = bind.strip()
    if not bind:
        return ANY
    try:
        return str(ipaddress.ip_address(bind))
    except ValueError:
        pass
    return interface_address(bind)


def interface_address(name: str) -> str:
    """The IPv4 address of network interface `name` (Linux); `ValueError` if none."""
    if not name or len(name) > 15 or not name.isprintable():
        raise ValueError(f"not an interface name: {name[:20]!r}")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR,
                                 struct.pack("256s", name.encode()[:15]))
        except OSError as exc:
            raise ValueError(f"interface {name!r} has no IPv4 address ({exc.strerror})") from None
    return socket.inet_ntoa(packed[20:24])


def lan_address(bind: str) -> str:
    """The address phones would use (127.0.0.1 when the machine has no network at all)."""
    try:
        address = bind_address(bind)
    except ValueError:
        return "127.0.0.1"
    if address not in (ANY, "::"):
        return address
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(PROBE)
            return str(sock.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def port_problem(address: str, port: int) -> str | None:
    """None if a TCP server could listen on `address`:`port` now, else why not."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address, port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def join_url(address: str, port: int, token: str, seat: int | None = None) -> str:
    """The page's URL with the table token in the fragment (never sent in a request); with
    `seat`, the page joins that seat at once (a QR code per phone seat)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/#{token}" + (f"&seat={seat}" if seat is not None else "")
