"""hardware/ agrees with the firmware: pinout table, wiring diagram, parts list."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

from firmware import config

# Physical pin of each GPIO on the Raspberry Pi Pico board.
PICO_PIN = {4: 6, 5: 7, 15: 20, 16: 21, 17: 22, 18: 24, 22: 29, 25: None}


def pinout_rows(repo: Path) -> dict[str, tuple[int, int]]:
    rows = {}
    text = (repo / "hardware" / "PINOUT.md").read_text(encoding="utf-8")
    for m in re.finditer(r"^\| (\w+) \| GP(\d+) \| (\d+) \|", text, re.MULTILINE):
        rows[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return rows


def test_pinout_document_matches_firmware_config(repo: Path) -> None:
    rows = pinout_rows(repo)
    assert rows, "no signal rows found in hardware/PINOUT.md"
    assert set(rows) == set(config.PINS), "roles differ between PINOUT.md and config.PINS"
    for role, gpio in config.PINS.items():
        doc_gpio, doc_pin = rows[role]
        assert doc_gpio == gpio, f"{role}: PINOUT.md says GP{doc_gpio}, config.py GP{gpio}"
        assert doc_pin == PICO_PIN[gpio], f"{role}: GP{gpio} is physical pin {PICO_PIN[gpio]}"
    assert len(set(config.PINS.values())) == len(config.PINS), "a GPIO used twice"


def test_config_comments_name_the_same_physical_pins(repo: Path) -> None:
    text = (repo / "firmware" / "config.py").read_text()
    for m in re.finditer(r"^PIN_\w+ = (\d+)\b.*physical pin (\d+)", text, re.MULTILINE):
        assert PICO_PIN[int(m.group(1))] == int(m.group(2)), m.group(0)


def test_wiring_diagram_is_generated_from_config(repo: Path, tmp_path: Path) -> None:
    committed = (repo / "hardware" / "wiring.svg").read_text(encoding="utf-8")
    script = repo / "hardware" / "wiring.py"
    code = "import runpy, sys; m = runpy.run_path(sys.argv[1]); print(m['svg'](), end='')"
    fresh = subprocess.run(
        [sys.executable, "-c", code, str(script)], capture_output=True, text=True, check=True
    ).stdout
    assert fresh == committed, "hardware/wiring.svg is stale: run hardware/wiring.py"
    for role, gpio in config.PINS.items():
        assert f"GP{gpio} (pin {PICO_PIN[gpio]})" in committed, role


def test_parts_list_is_complete(repo: Path) -> None:
    with (repo / "hardware" / "parts.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["part", "quantity", "typical_price_eur", "alternatives", "notes"]
    names = " ".join(r["part"] for r in rows)
    for needed in ("Pico", "SSD1306", "piezo", "button", "WS2812", "Camera", "Raspberry Pi 5"):
        assert needed in names, needed
    for r in rows:
        assert int(r["quantity"]) >= 1 and float(r["typical_price_eur"]) > 0, r
    buttons = [r for r in rows if "button" in r["part"]]
    assert int(buttons[0]["quantity"]) == 3


def test_pi_setup_files(repo: Path) -> None:
    rule = (repo / "hardware" / "pi" / "99-tableref-pico.rules").read_text()
    assert 'ATTRS{idVendor}=="2e8a"' in rule and "SYMLINK+=" in rule
    unit = (repo / "hardware" / "pi" / "tableref.service").read_text()
    for key in ("[Service]", "ExecStart=", "Restart=", "dialout", "WantedBy=multi-user.target"):
        assert key in unit
    assert "/dev/tableref-pico" in unit and "tableref-pico" in rule


def test_camera_mounting_numbers_follow_from_the_field_of_view(repo: Path) -> None:
    import math

    text = (repo / "hardware" / "CAMERA.md").read_text(encoding="utf-8")
    for vfov in (41, 67):  # Camera Module 3, Camera Module 3 Wide (datasheet, degrees)
        height = 50 / math.tan(math.radians(vfov / 2))  # 100 cm seen on the short axis
        assert f"**{height:.1f} cm**" in text
    covered = 2 * 80 * math.tan(math.radians(67 / 2))
    assert f"**{covered:.1f} cm**" in text
    assert f"**{covered * 10 / 2592:.2f} mm per pixel**" in text
