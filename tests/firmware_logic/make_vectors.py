"""Regenerate vectors.json: ONLY when the wire format changes on purpose (and VERSION with it).

    .venv/bin/python tests/firmware_logic/make_vectors.py

The COBS vectors are the published examples (checked by hand), not output of our encoder.
"""

from __future__ import annotations

import json
from pathlib import Path

from firmware import protocol as p

RUN = bytes(range(1, 255)).hex()
COBS = [
    ("", "01"),
    ("00", "0101"),
    ("0000", "010101"),
    ("001100", "01021101"),
    ("11220033", "0311220233"),
    ("11223344", "0511223344"),
    ("11000000", "0211010101"),
    (RUN, "ff" + RUN),
    ("00" + RUN, "01ff" + RUN),
    (bytes(range(1, 256)).hex(), "ff" + RUN + "02ff"),
    (bytes(range(2, 256)).hex() + "00", "ff" + bytes(range(2, 256)).hex() + "0101"),
    (bytes(range(3, 256)).hex() + "0001", "fe" + bytes(range(3, 256)).hex() + "0201"),
]


def frame(seq: int, ftype: int, payload: bytes) -> str:
    return p.encode_frame(seq, ftype, payload).hex()


def main() -> None:
    st1 = p.State(5, 12, 1, True, False, False, 60000, 0, "rummikub", "", ["ann", "bob", "Zoë"])
    st1.scores = [10, -25, 0]
    st1.seen = 301
    st2 = p.State(
        0xFFFFFFFF, 0xFFFF, p.NO_PLAYER, False, True, True, 0, 1234, "", "invalid: r5 twice"
    )
    states = [
        {"name": name, "fields": list(st.fields()), "payload": p.encode_state(st).hex()}
        for name, st in (("three players", st1), ("no turn, all flags", st2))
    ]
    hb = p.encode_heartbeat(
        0xDEADBEEF, 5, 12, 1, p.HB_RUNNING | p.HB_HOST_OK | p.HB_HAS_STATE, 41500
    )
    msgs = [
        ("host heartbeat", 1, p.HEARTBEAT, b""),
        ("ack", 7, p.ACK, b""),
        ("ack seq wraps", 0xFFFF, p.ACK, b""),
        ("nak", 8, p.NAK, p.encode_nak(p.NAK_PAYLOAD, "STATE payload is 2 bytes, needs 18")),
        ("device hello", 1, p.HELLO, p.encode_hello(0xDEADBEEF, 1, "tableref-fw")),
        ("host hello", 1, p.HELLO, p.encode_hello(0, 0, "tableref-host")),
        ("device heartbeat", 300, p.HEARTBEAT, hb),
        ("state", 42, p.STATE, p.encode_state(st1)),
        ("event done", 301, p.EVENT, p.encode_event(p.EV_DONE, 12, 1, 17250)),
        ("event expired", 302, p.EVENT, p.encode_event(p.EV_EXPIRED, 13, 2, 0)),
        ("press done", 43, p.PRESS, p.encode_press(p.BTN_DONE)),
        ("repl", 44, p.REPL, b""),
    ]
    good = p.encode_state(st1)
    bad = [
        ("STATE", b"\x01\x02", "STATE payload is 2 bytes, needs 18"),
        ("STATE", good + b"\x00", "1 stray bytes after STATE"),
        ("STATE", good[:-3], "payload ends inside player 2 score"),
        ("STATE", good[:18] + b"\x20", "game: bad length 32"),
        ("EVENT", bytes.fromhex("0901000000000000"), "unknown event kind 9"),
        ("HELLO", b"\x01", "HELLO payload is 1 bytes, needs 7"),
    ]
    data = {
        "cobs": [{"raw": r, "encoded": e} for r, e in COBS],
        "frames": [
            {
                "name": n,
                "seq": s,
                "type": t,
                "payload": pl.hex(),
                "frame": p.encode_frame(s, t, pl).hex(),
            }
            for n, s, t, pl in msgs
        ],
        "states": states,
        "bad_payloads": [{"type": t, "payload": pl.hex(), "error": e} for t, pl, e in bad],
    }
    out = Path(__file__).with_name("vectors.json")
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
