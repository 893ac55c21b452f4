"""Recorded table scripts: what a camera, a device and a dashboard did, replayed step by step.

A script is JSON lines; each line is one step:

- ``{"start": {"session": NAME, "players": [...], "game": GAME, "options": {...}}}``, with
  ``"setup"`` (a whole setup event) when the game's shuffle was recorded, or
  ``"real_table": true`` for real cards nobody knows the order of (the engine's table mode),
  and ``"table"``: the table calibration that places the objects in zones, by name (stored by
  ``tableref calibrate``) or as the calibration's JSON itself; without it the image sectors
  place them, whatever the table's default setting, so a script replays the same everywhere;
- ``{"frame": FRAME_READ}`` — one frame as vision read it (host/table/reads.py), optionally
  with ``"image": PATH`` (relative to the script) when the frame is to be read by vision;
- ``{"device": "done" | "timer_expired" | "pause" | "resume" | "mute"}`` — a device event;
- ``{"trigger": NAME, "data": {...}}``, ``{"event": EVENT}``, ``{"undo": true}``,
  ``{"timer": ACTION, "seconds": N}`` — what the dashboard did;
- ``{"correct": {"at": [x, y], "label": TOKEN}}`` — correct the object lying at that point.

Every journal row a step causes is committed with ``source = "script:<step>"``. After a crash
the player finds the last committed step in the journal, shows the table as it stood then
(the camera would show the same), and goes on from the next step: the final state equals an
uninterrupted run.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.device import DeviceEvent
from host.referee import Referee, RefereeError, Table
from host.rules.base import Event
from host.table.reads import FrameRead
from vision.calibrate import CalibrationError, TableCalibration

Step = dict[str, Any]
_STEP = re.compile(r"script:(\d+)")
ImageReader = Callable[[Path], tuple[FrameRead, Any]]
# Renders a frame step (its objects, a hand over them) as a camera image and reads it with
# vision; the read says ``hand`` when the camera's frame gate skips the image.
SceneReader = Callable[[dict[str, Any]], tuple[FrameRead, Any]]


class ScriptError(ValueError):
    """A script line that is not a step; the message names the line."""


def load_script(path: Path) -> list[Step]:
    steps = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            step = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ScriptError(f"{path.name} line {number}: not JSON ({exc.msg})") from None
        if not isinstance(step, dict) or not step:
            raise ScriptError(f"{path.name} line {number}: a step is a non-empty JSON object")
        steps.append(step)
    if not steps or "start" not in steps[0]:
        raise ScriptError(f"{path.name}: the first step must be a 'start' step")
    return steps


def _table_of(spec: Any) -> str | TableCalibration:
    """A start step's ``table``: a calibration's name, or the calibration itself."""
    if spec is None:
        return ""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, dict):
        try:
            return TableCalibration.from_json(spec)
        except CalibrationError as exc:
            raise ScriptError(f"the start step's table: {exc}") from None
    raise ScriptError(f"the start step's table must be a name or a calibration, not {spec!r}")


class ScriptPlayer:
    """Plays one script's game on a table, resuming where a crash left it."""

    def __init__(
        self,
        table: Table,
        steps: list[Step],
        base: Path | None = None,
        read_image: ImageReader | None = None,
        see: SceneReader | None = None,
    ) -> None:
        self.table = table
        self.steps = steps
        self.base = base or Path(".")
        self.read_image = read_image
        self.see = see
        self.referee: Referee | None = None
        self.errors: list[str] = []
        self._last_frame: Step | None = None

    def _find_game(self) -> Referee | None:
        start = self.steps[0]["start"]
        for session in self.table.store.sessions():
            if session.name != start["session"]:
                continue
            for g in self.table.store.games(session.id):
                if g.id in self.table.referees:
                    return self.table.referees[g.id]
                if g.status != "running":
                    return None  # finished already: nothing to resume
        return None

    def resume_position(self, referee: Referee) -> int:
        """The step after the last one whose effect is committed."""
        last = 0
        for entry in self.table.store.journal(referee.game_id):
            found = _STEP.search(entry.source)
            if found:
                last = max(last, int(found.group(1)))
        return last + 1

    def play(self, delay: float = 0.0, on_step: Callable[[int], None] | None = None) -> Referee:
        referee = self._find_game()
        position = 1
        if referee is None:
            start = self.steps[0]["start"]
            sid = self.table.store.create_session(start["session"], start["players"])
            setup = Event.from_json(start["setup"]) if start.get("setup") else None
            referee = self.table.start_game(
                sid,
                start["game"],
                start.get("options"),
                setup=setup,
                real_table=bool(start.get("real_table")),
                table=_table_of(start.get("table")),
            )
        else:
            position = self.resume_position(referee)
            self._warm_up(referee, position)
            self.table.active = referee.game_id
        self.referee = referee
        for index in range(position, len(self.steps)):
            self.run_step(referee, index)
            if on_step is not None:
                on_step(index)
            if delay:
                time.sleep(delay)
        return referee

    def _warm_up(self, referee: Referee, position: int) -> None:
        # The camera still sees the table as it lay at the crash: show it that frame again.
        for index in range(position - 1, 0, -1):
            if "frame" in self.steps[index]:
                for _ in range(referee.stabiliser.frames):
                    self._feed(referee, self.steps[index], index)
                return

    def _feed(self, referee: Referee, step: Step, index: int) -> None:
        image = None
        frame = step["frame"]
        if self.see is not None:
            read, image = self.see(frame)
            read = read.model_copy(update={"frame": index})
        elif "image" in step and self.read_image is not None:
            read, image = self.read_image(self.base / step["image"])
            read = read.model_copy(
                update={"frame": index, "hand": step["frame"].get("hand", False)}
            )
        else:
            read = FrameRead.model_validate({**step["frame"], "frame": index})
        referee.feed(read, image)

    def _press(self, referee: Referee, step: Step, before: int) -> bool:
        """Press a plain button on a simulated device and wait for its event to be refereed.

        So the done button takes the real road: device, serial protocol, link, referee.
        """
        device = self.table.device
        if step["device"] != "done" or step.get("data") or not _pressable(device):
            return False
        seen = referee.message
        device.press("done")  # type: ignore[attr-defined]
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            if len(self.table.store.journal(referee.game_id)) > before or referee.message != seen:
                return True
            time.sleep(0.005)
        return True  # refused or lost: the step's check reports it

    def run_step(self, referee: Referee, index: int) -> None:
        step = self.steps[index]
        source = "script"
        # Whatever this step causes (a frame's or a button's events too) is journalled with
        # the step number: that is where a resumed replay goes on from.
        referee.context = f"script:{index}"
        try:
            if "frame" in step:
                self._feed(referee, step, index)
            elif "device" in step:
                before = len(self.table.store.journal(referee.game_id))
                if not self._press(referee, step, before):
                    referee.device_event(DeviceEvent(step["device"], step.get("data") or {}))
                after = len(self.table.store.journal(referee.game_id))
                if step.get("cause") and after == before:
                    # A button the script expects to record something was refused.
                    self.errors.append(f"step {index}: {step['device']} changed nothing: "
                                       f"{referee.message}")  # fmt: skip
            elif "trigger" in step:
                referee.trigger(step["trigger"], step.get("data"), source=source)
            elif "event" in step:
                referee.apply(Event.from_json(step["event"]), source=source)
            elif "undo" in step:
                referee.undo(source=source)
            elif "timer" in step:
                referee.timer_control(step["timer"], step.get("seconds"))
            elif "correct" in step:
                x, y = step["correct"]["at"]
                target = next((o for o in referee.view.objects if _inside(o.read.quad, x, y)), None)
                if target is None:
                    raise RefereeError(f"no object at {x},{y} to correct")
                referee.correct(target.id, step["correct"]["label"], source=source)
            else:
                raise ScriptError(f"step {index}: unknown step {sorted(step)}")
        except RefereeError as exc:
            self.errors.append(f"step {index}: {exc}")
        finally:
            referee.context = ""


def _pressable(device: Any) -> bool:
    link = getattr(device, "link", None)
    return getattr(link, "simulator", None) is not None and hasattr(device, "press")


def _inside(quad: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    xs = [p[0] for p in quad]
    ys = [p[1] for p in quad]
    return min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
