"""EVF replays (formats/notations/evf.py), built here byte for byte from the format's specification."""
from __future__ import annotations


from helpers import FIXTURES


def tiny_evf() -> bytes:
    """A 3 x 3 EVF v3 game built from the specification: mine at row 0 col 2, a click on row 2 col 0."""
    head = bytes([3, 0xE0, 0, 3, 3]) + (1).to_bytes(2, "big") + bytes([16]) + (0).to_bytes(2, "big")
    head += (1).to_bytes(2, "big") + (300).to_bytes(3, "big")
    for text in ("mineconv test fixture", "tester", "", "", "", "", "XX", ""):
        head += text.encode() + b"\0"
    board = bytes([0b00100000, 0])               # cells row-major, high bit first: cell 2 is the mine

    def event(code: int, ms: int, x: int, y: int) -> bytes:
        return bytes([code]) + ms.to_bytes(3, "big") + x.to_bytes(2, "big") + y.to_bytes(2, "big")

    events = event(1, 0, 8, 40) + event(2, 0, 8, 40) + event(3, 0, 8, 40) + event(1, 100, 20, 41)
    events += event(4, 250, 40, 8) + event(5, 300, 40, 8)
    return head + board + events + b"\0" + b"0" * 32


def test_tiny_evf_fixture_is_what_the_builder_makes() -> None:
    assert (FIXTURES / "replays" / "tiny_3x3.evf").read_bytes() == tiny_evf()
