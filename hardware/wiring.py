"""Draw wiring.svg from firmware/config.py, so the diagram cannot drift from the firmware.

    .venv/bin/python hardware/wiring.py        # rewrites hardware/wiring.svg

Every wire is labelled with its signal and pin numbers; colours are only a help (the labels and
the dash patterns carry the meaning too).
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware import config

# Pico: physical pin of each GPIO (pins 1-20 down the left side, 21-40 up the right side).
GPIO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}  # fmt: skip
POWER_PINS = {"3V3(OUT)": 36, "VBUS": 40, "GND": 38}

# (role in config.PINS, component label, wire colour, dash pattern)
WIRES = [
    ("OLED_SDA", "SSD1306 OLED  SDA", "#1f77b4", ""),
    ("OLED_SCL", "SSD1306 OLED  SCL", "#17becf", "6 3"),
    ("BUZZER", "piezo (+) via 100 Ω", "#9467bd", "2 2"),
    ("BTN_DONE", "button DONE → GND", "#2ca02c", ""),
    ("BTN_PAUSE", "button PAUSE → GND", "#ff7f0e", "6 3"),
    ("BTN_MUTE", "button MUTE → GND", "#8c564b", "2 2"),
    ("LED_RING", f"WS2812 ring ×{config.LED_COUNT}  DIN via 330 Ω", "#d62728", "10 3 2 3"),
]


def pin_y(pin: int) -> float:
    """Vertical position of a physical pin on the drawn Pico (both sides top to bottom)."""
    row = pin - 1 if pin <= 20 else 40 - pin
    return 190 + row * 22


def svg() -> str:
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="700" '
        'font-family="monospace" font-size="13">',
        '<rect width="900" height="700" fill="white"/>',
        '<text x="20" y="28" font-size="18">tableref table device: Raspberry Pi Pico wiring '
        "(generated from firmware/config.py)</text>",
        '<rect x="120" y="170" width="160" height="460" rx="8" fill="#e8f5e9" stroke="black"/>',
        '<text x="165" y="405">Raspberry</text><text x="165" y="422">Pi Pico</text>',
        '<rect x="180" y="160" width="40" height="14" fill="#bbb" stroke="black"/>',
        '<text x="186" y="156" font-size="11">USB</text>',
    ]
    for pin in range(1, 41):
        x = 120 if pin <= 20 else 280
        y = pin_y(pin)
        out.append(f'<circle cx="{x}" cy="{y}" r="3" fill="black"/>')
        anchor = "start" if pin <= 20 else "end"
        tx = x + 8 if pin <= 20 else x - 8
        out.append(f'<text x="{tx}" y="{y + 4}" font-size="10" text-anchor="{anchor}">{pin}</text>')
    left = right = 0
    for role, label, colour, dash in WIRES:
        gpio = config.PINS[role]
        pin = GPIO_PIN[gpio]
        y0 = pin_y(pin)
        if pin <= 20:  # left side: out to the left, over the top of the board
            xs = 40 + left * 14
            y1 = 60 + left * 40
            path = f"M120,{y0} H{xs} V{y1} H560"
            left += 1
        else:
            xs = 330 + right * 14
            y1 = 200 + right * 44
            path = f"M280,{y0} H{xs} V{y1} H560"
            right += 1
        d = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2.5"{d}/>')
        box = f'<rect x="560" y="{y1 - 16}" width="320" height="30" fill="#fafafa" stroke="#555"/>'
        out.append(box)
        text = escape(f"GP{gpio} (pin {pin}) → {label}")
        out.append(f'<text x="568" y="{y1 + 4}">{text}</text>')
    y = 240 + right * 44
    for name, pin in POWER_PINS.items():
        out.append(f'<text x="560" y="{y}">{escape(name)} (pin {pin}) → ')
        out.append(
            {
                "3V3(OUT)": "OLED VCC",
                "VBUS": "LED ring 5V, 1000 µF cap (+)",
                "GND": "OLED, ring, cap (−), buttons, piezo (−)",
            }[name]
            + "</text>"
        )
        y += 20
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    Path(__file__).with_name("wiring.svg").write_text(svg(), encoding="utf-8")


if __name__ == "__main__":
    main()
