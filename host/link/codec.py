"""The serial codec, re-exported from the firmware's own source file.

``firmware/protocol.py`` is the single source: the Pico runs it, and the host imports that same
file here (``firmware`` is an installed package next to ``host``; with ``pip install -e .`` it
resolves to the working tree, so an edit to the firmware's codec is the host's codec at once).
Nothing in this module re-implements any of it.
"""

from __future__ import annotations

from firmware import protocol
from firmware.protocol import *  # noqa: F403  (the whole codec, unchanged)

SOURCE = protocol.__file__

__all__ = [name for name in dir(protocol) if not name.startswith("_")] + ["SOURCE"]
