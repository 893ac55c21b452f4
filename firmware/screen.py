"""Screen layout for the 128x64 OLED, drawn onto anything with framebuf's drawing methods.

On the Pico the canvas is the SSD1306 driver (a framebuf.FrameBuffer); in the simulator it
is a 1-bit buffer with the same 8x8 font. Everything shown in colour on the LED ring is also
written here in words, so nothing depends on telling colours apart.
"""

from . import protocol as p
from . import timer as t
from .device import Device

WIDTH = 128
HEIGHT = 64
CHARS = WIDTH // 8

# Seven-segment digits for the big countdown: bits a b c d e f g (top, upper right, lower
# right, bottom, lower left, upper left, middle). Drawn with fill_rect, so no big font is
# needed on the Pico.
SEGMENTS = (0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70, 0x7F, 0x7B)
DIGIT_W = 12
DIGIT_H = 20
STROKE = 3
DIGIT_GAP = 4


class Canvas:
    """What screen.render needs: a subset of MicroPython's framebuf.FrameBuffer."""

    def fill(self, c: int) -> None:
        raise NotImplementedError

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        raise NotImplementedError

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        raise NotImplementedError


def ascii_only(text: str) -> str:
    """The OLED's 8x8 font covers ASCII; anything else shows as '?'."""
    return "".join(ch if " " <= ch <= "~" else "?" for ch in text)


def clip(text: str, chars: int) -> str:
    """Fit ``text`` in ``chars`` cells; a "~" marks the cut where there is room for one."""
    text = ascii_only(text)
    if len(text) <= chars:
        return text
    return text[:chars] if chars <= 3 else text[: chars - 1] + "~"


def draw_digit(c: Canvas, digit: int, x: int, y: int) -> None:
    bits = SEGMENTS[digit]
    w, h, s = DIGIT_W, DIGIT_H, STROKE
    mid = y + (h - s) // 2
    if bits & 0x40:
        c.fill_rect(x, y, w, s, 1)
    if bits & 0x20:
        c.fill_rect(x + w - s, y, s, h // 2, 1)
    if bits & 0x10:
        c.fill_rect(x + w - s, y + h // 2, s, h - h // 2, 1)
    if bits & 0x08:
        c.fill_rect(x, y + h - s, w, s, 1)
    if bits & 0x04:
        c.fill_rect(x, y + h // 2, s, h - h // 2, 1)
    if bits & 0x02:
        c.fill_rect(x, y, s, h // 2, 1)
    if bits & 0x01:
        c.fill_rect(x, mid, w, s, 1)


def countdown_text(seconds: int) -> str:
    """ "45" under a minute, "1:00" from a minute up (the colon is drawn as two dots)."""
    if seconds < 60:
        return str(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def draw_big(c: Canvas, text: str, x: int, y: int) -> int:
    """Draw digits and colons; returns the x after the last glyph."""
    for ch in text:
        if ch == ":":
            c.fill_rect(x, y + DIGIT_H // 4, STROKE, STROKE, 1)
            c.fill_rect(x, y + DIGIT_H - DIGIT_H // 4 - STROKE, STROKE, STROKE, 1)
            x += STROKE + DIGIT_GAP
        else:
            draw_digit(c, ord(ch) - 48, x, y)
            x += DIGIT_W + DIGIT_GAP
    return x


def big_width(text: str) -> int:
    w = 0
    for ch in text:
        w += (STROKE if ch == ":" else DIGIT_W) + DIGIT_GAP
    return w - DIGIT_GAP if w else 0


def status_words(dev: Device, now: int) -> list[str]:
    """Short words for the right of the countdown: the timer state and mute."""
    state = dev.countdown.state
    words = []
    if state == t.PAUSED:
        words.append("PAUSE")
    elif state == t.EXPIRED:
        words.append("TIME!")
    elif state == t.RUNNING:
        words.append("RUN")
    else:
        words.append("")
    words.append("MUTE" if dev.muted else "")
    return words


PAGE_MS = 3000  # more players than fit: show the scores a page at a time


def score_rows(dev: Device) -> int:
    """Lines for the scores: three, unless a message takes one (or two suffice)."""
    return 2 if dev.message or len(dev.players) <= 4 else 3


def score_pages(n: int, rows: int) -> int:
    return max(1, (n + 2 * rows - 1) // (2 * rows))


def score_lines(
    players: list[str], scores: list[int], current: int, rows: int, page: int = 0
) -> list[str]:
    """Two players per line ("ann  10 >bob  -5"), ``rows`` lines a page; ">" marks whose turn."""
    n = len(players)
    first = (page % score_pages(n, rows)) * 2 * rows
    out = []
    for row in range(rows):
        text = ""
        for col in range(2):
            i = first + row * 2 + col
            if i >= n:
                break
            width = CHARS // 2 - (1 if col == 0 else 0)  # a space between the two cells
            score = str(scores[i])
            name = clip((">" if i == current else "") + players[i], max(1, width - len(score) - 1))
            cell = name + " " * max(1, width - len(name) - len(score)) + score
            text += cell + (" " if col == 0 else "")
        text = text.rstrip()
        if text:
            out.append(text)
    return out


def render(dev: Device, c: Canvas, now: int) -> None:
    c.fill(0)
    ok = dev.host_ok(now)
    # header: the link state, inverted when the host is away
    if ok:
        c.text(clip(dev.game or "tableref", 11), 0, 0, 1)
        c.text("LINK", WIDTH - 32, 0, 1)
    else:
        c.fill_rect(0, 0, WIDTH, 9, 1)
        c.text("HOST LOST" if dev.host_seen else "NO HOST", 2, 1, 0)
        c.text(clip(dev.game, 5), WIDTH - 40, 1, 0)
    if not dev.have_state:
        c.text("tableref", 32, 24, 1)
        c.text("waiting for host", 0, 40, 1)
        return
    turn = f"T{dev.turn}"
    c.text(turn, WIDTH - 8 * len(turn), 10, 1)
    if dev.current != p.NO_PLAYER and dev.current < len(dev.players):
        c.text("> " + clip(dev.players[dev.current], CHARS - 3 - len(turn)), 0, 10, 1)
    else:
        c.text("-- no turn --", 0, 10, 1)
    # the big countdown; blinks at expiry so "0" is unmistakable
    cd = dev.countdown
    if cd.state != t.IDLE:
        text = countdown_text(cd.seconds(now))
        blink_off = cd.state == t.EXPIRED and (now // 500) % 2 == 1
        if not blink_off:
            draw_big(c, text, max(0, (84 - big_width(text)) // 2), 19)
    y = 19
    for word in status_words(dev, now):
        if word:
            c.text(word, WIDTH - 8 * len(word), y, 1)
        y += 11
    # bottom: an optional message, then the scores (the current player marked with ">")
    rows = score_rows(dev)
    if dev.message:
        c.text(clip(dev.message, CHARS), 0, 41, 1)
    y = 57 - 8 * (rows - 1)
    page = (now // PAGE_MS) % score_pages(len(dev.players), rows)
    for line in score_lines(dev.players, dev.scores, dev.current, rows, page):
        c.text(line, 0, y, 1)
        y += 8


def signature(dev: Device, now: int) -> tuple[object, ...]:
    """Changes exactly when the picture would: redraw only then (an I2C frame costs ~25 ms)."""
    cd = dev.countdown
    blink = (now // 500) % 2 if cd.state == t.EXPIRED else 0
    page = (now // PAGE_MS) % score_pages(len(dev.players), score_rows(dev))
    return (dev.host_ok(now), cd.state, cd.seconds(now), blink, dev.rev, dev.turn, dev.muted, page)
