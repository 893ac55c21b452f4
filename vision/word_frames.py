"""A word index's frame reaches along its letters, not only over the letters a frame read.

Some decks print a special card's index as a word spelt down the corner ("JOKER", "RUNE"),
three to four times as long as it is wide, with the card's sign under it. The detector frames
index-shaped parts of it, and a part read as the card is framed a third of the index's length:
the card is named, in a frame that is not the index's (on unseen one-print decks, dev seeds,
the enrolled deck's joker and rune were missed in 60 of 88 reads, mostly so). The word's
letters continue along the read frame's up-down axis, with gaps between letters far narrower
than the gap after the word, so the frame is carried along that axis over the ink that
continues it.

Pure image arithmetic over one frame; the reader decides which reads are words.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import Image, crop, reframed

Quad = npt.NDArray[np.float32]

REACH = 3.0  # looked along up to this many frame heights beyond each end of the frame
_PX = 16  # pixels across the frame's width in the strip looked at
INK = 45.0  # a pixel's colour distance from the strip's paper for it to be ink
INKED_ROW = 0.06  # a row of the strip with at least this share of ink carries the word on
FULL_ROW = 0.85  # a row with this much ink is the card's edge or the table: the word ends
GAP = 0.55  # in frame widths: a run of uninked rows this long ends the word


def along_word(image: Image, quad: Quad) -> Quad:
    """``quad`` carried along its up-down axis over the ink that continues it, up to REACH
    frame heights each way: rows of the frame's column with some ink and not solid ink,
    until a gap of uninked rows GAP widths long. The frame keeps its width and way up; a
    frame with no ink in it comes back as is."""
    width = float(np.linalg.norm((quad[1] + quad[2] - quad[0] - quad[3]) / 2))
    per_height = float(np.linalg.norm((quad[3] + quad[2] - quad[0] - quad[1]) / 2))
    per_height *= _PX / max(width, 1.0)  # strip rows per frame height
    rows = max(1, round((1 + 2 * REACH) * per_height))
    # The frame's column, upright, from REACH heights above it to REACH below.
    column = crop(image, reframed(quad, 1.0, 1 + 2 * REACH, 0.0), (_PX, rows))
    lab = cv2.cvtColor(column, cv2.COLOR_BGR2LAB).astype(np.float32)
    first = round(REACH * per_height)
    last = min(rows - 1, round((REACH + 1) * per_height))
    # The frame's own paper: its letters cover under half of it, while the column beyond it
    # may be mostly table.
    paper = np.median(lab[first : last + 1].reshape(-1, 3), axis=0)
    share = (np.linalg.norm(lab - paper, axis=2) > INK).mean(axis=1)
    inked = (share >= INKED_ROW) & (share < FULL_ROW)
    within = inked[first : last + 1]
    if not within.any():
        return quad
    gap = max(1, round(GAP * _PX))
    lo = _run(share, first + int(np.argmax(within)), -1, gap)
    hi = _run(share, last - int(np.argmax(within[::-1])), 1, gap)
    up = min(lo - first, 0) / per_height  # in frame heights: the top moves up (< 0)
    on = max(hi - last, 0) / per_height  # the bottom moves down
    return reframed(quad, 1.0, 1 + on - up, (up + on) / 2)


def _run(share: npt.NDArray[np.float64], at: int, step: int, gap: int) -> int:
    """The last row with ink reached from ``at`` going ``step`` rows at a time, before ``gap``
    rows without ink or a row of solid ink."""
    end, blank, k = at, 0, at + step
    while 0 <= k < len(share) and share[k] < FULL_ROW:
        if share[k] >= INKED_ROW:
            end, blank = k, 0
        else:
            blank += 1
            if blank >= gap:
                break
        k += step
    return end
