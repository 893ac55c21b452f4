"""The event-sourced game: a game *is* its append-only event log; its state is a fold.

Every engine supplies a :class:`Rules` object: ``initial`` builds the state from the log's
first event (``setup``), ``check`` explains why an event may not happen now (or returns
``None``), and ``evolve`` folds one accepted event into the state. All three are pure: no
I/O, no clock, no randomness (shuffles are drawn outside and recorded in events). Undo is
dropping the last event; crash recovery is replaying the stored log.

Each action follows pokerkit's shape: ``game.can(e)`` says yes/no, ``game.verify(e)`` raises
:class:`RuleViolation` with the reason, ``game.apply(e)`` verifies, appends and returns the
new state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

JSON = Any
S = TypeVar("S")


class RuleViolation(ValueError):
    """An event the rules do not allow now; the message says why in words."""


class LogError(ValueError):
    """A stored or typed event log that is not a game log (bad JSON, no setup, wrong game)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: ``type`` plus JSON-serialisable data.

    Serialised flat, as one JSON object: ``{"type": "play", "player": "ann", ...}``.
    """

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)

    def __getitem__(self, key: str) -> JSON:
        return self.data[key]

    def get(self, key: str, default: JSON = None) -> JSON:
        return self.data.get(key, default)

    def to_json(self) -> dict[str, JSON]:
        return {"type": self.type, **self.data}

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> Event:
        if not isinstance(obj, Mapping):
            raise LogError(f"an event must be a JSON object, got {type(obj).__name__}")
        kind = obj.get("type")
        if not isinstance(kind, str) or not kind:
            raise LogError(f"event has no 'type': {json.dumps(obj, ensure_ascii=False)[:120]}")
        # Round-trip through JSON so stored and fresh events compare equal (tuples→lists).
        data = json.loads(json.dumps({k: v for k, v in obj.items() if k != "type"}))
        return cls(kind, data)

    @classmethod
    def of(cls, type: str, **data: JSON) -> Event:
        return cls.from_json({"type": type, **data})


class Rules(Protocol[S]):
    """What an engine provides to :class:`Game`."""

    game: str

    def initial(self, setup: Event) -> S:
        """The state right after the ``setup`` event (raise RuleViolation if it is bad)."""
        ...

    def check(self, state: S, event: Event) -> str | None:
        """Why ``event`` cannot happen in ``state``; ``None`` when it can."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """The state after ``event`` (only called on events ``check`` accepted)."""
        ...

    def summary(self, state: S) -> dict[str, Any]:
        """Scores, winner and whether it is over (keys in host/rules/summary.py)."""
        ...


class Game(Generic[S]):
    """A game of one engine: its event log and the fold of it."""

    def __init__(self, rules: Rules[S], events: Iterable[Event]) -> None:
        self.rules = rules
        log = list(events)
        if not log or log[0].type != "setup":
            raise LogError(f"a {rules.game} game log must start with a 'setup' event")
        self._events: list[Event] = [log[0]]
        self._states: list[S] = [rules.initial(log[0])]
        for index, event in enumerate(log[1:], start=1):
            reason = rules.check(self._states[-1], event)
            if reason is not None:
                raise LogError(f"event {index} ({event.type}) is not legal: {reason}")
            self._push(event)

    @classmethod
    def start(cls, rules: Rules[S], **setup: JSON) -> Game[S]:
        return cls(rules, [Event.of("setup", game=rules.game, **setup)])

    # -- reading ------------------------------------------------------------------------------
    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def state_at(self, index: int) -> S:
        """The state after event ``index`` (0 is the setup)."""
        return self._states[index]

    # -- acting -------------------------------------------------------------------------------
    def can(self, event: Event) -> bool:
        return self.rules.check(self.state, event) is None

    def verify(self, event: Event) -> None:
        reason = self.rules.check(self.state, event)
        if reason is not None:
            raise RuleViolation(reason)

    def apply(self, event: Event) -> S:
        self.verify(event)
        self._push(event)
        return self.state

    def undo(self) -> Event:
        """Drop the last event (never the setup) and return it, e.g. to redo it."""
        if len(self._events) == 1:
            raise RuleViolation("nothing to undo: only the setup is recorded")
        self._states.pop()
        return self._events.pop()

    def _push(self, event: Event) -> None:
        # Keep each intermediate state: undo and state_at are then O(1) and the fold stays pure.
        self._states.append(self.rules.evolve(self._states[-1], event))
        self._events.append(event)

    # -- serialising --------------------------------------------------------------------------
    def to_json(self) -> list[dict[str, JSON]]:
        return [e.to_json() for e in self._events]

    def to_jsonl(self) -> str:
        return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self.to_json())


def events_from_jsonl(text: str, source: str = "log") -> list[Event]:
    """Parse a JSON-lines event log; errors name the line."""
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{source} line {number}: not JSON ({exc.msg})") from None
        try:
            events.append(Event.from_json(obj))
        except LogError as exc:
            raise LogError(f"{source} line {number}: {exc}") from None
    return events
