"""tools/present.py holds the server's port while the preheated kernel starts, so that kernel
cannot take it (a CI run once found a kernel's handshake at the page's address)."""
import errno
import importlib.util
import socket
from pathlib import Path

import pytest

pytest.importorskip("voila")

ROOT = Path(__file__).resolve().parents[2]


def _present():
    spec = importlib.util.spec_from_file_location("present", ROOT / "tools" / "present.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _taken_by_a_probe():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_held_port_is_not_handed_out_and_is_free_after():
    port_held = _present().port_held
    port = _taken_by_a_probe()
    with port_held(port) as held:
        assert held
        with socket.socket() as other, pytest.raises(OSError) as refused:
            other.bind(("127.0.0.1", port))        # as a kernel binding that port
        assert refused.value.errno == errno.EADDRINUSE
    with socket.socket() as server:                 # the server binds it once released
        server.bind(("127.0.0.1", port))


def test_nothing_is_held_for_port_0_or_a_port_in_use():
    port_held = _present().port_held
    with port_held(0) as held:
        assert not held
    with socket.socket() as user:
        user.bind(("127.0.0.1", 0))
        with port_held(user.getsockname()[1]) as held:
            assert not held
