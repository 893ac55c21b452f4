"""All In (梭哈): the rules engine (RULINGS §1), event-sourced.

Events (flat JSON objects, ``type`` plus the fields shown):

``setup``    ``game: "allin"``, ``players`` (seat order, clockwise), ``deck`` (the shuffled
             54 cards, top first), optional ``first`` (round 1's first player, the one left of
             the dealer; default the first seat) and ``options`` (see :class:`Options`).
``play``     ``player``, ``card``, ``effects`` (the card's effects as resolved, top to bottom,
             each ``{"effect": ..., ...}``; see below), ``discard`` (cards put on the discard
             pile to come down to 5, in order, the last on top).
``pass``     ``player``: the top deck card enters the display.
``all_in``   ``player``: hand face down, the top 2 deck cards enter the display.
``shuffle``  ``order``: the discard pile, shuffled, goes under the deck (allowed once the deck
             holds fewer than 5 cards, the most one action draws).
``predict``  ``player``, ``target``: the prediction marker (2 players: in any order).
``deal``     ``deck``: all 54 cards shuffled for the next round.

**Table mode** (real cards, nobody knows the shuffled order): a ``setup`` without ``deck``.
The engine does not follow the play; each round is one event:

``showdown`` ``hands`` (player → the 5 cards shown, as read or entered), ``predictions``
             (every player → the player they predicted), optional ``runes`` (player → runes
             gained from rune effects during the round, taken from the supply).

The engine ranks the hands, shares the pot, pays the hands' runes, tops the pot up and
picks the next round's first player exactly as in deck mode; ``deal`` is not used.

Effects: ``take`` ``{card}``; ``swap`` ``{give, card}``; ``draw``; ``reveal`` ``{n, keep,
order?}``; ``rune``; ``hypnosis`` ``{target}``; ``eye`` ``{target, shown}``. The rule book
prints each card's effect icons on the card, not in the text; the ``card_effects`` option
gives that table (token → effect names, ``!`` marking a ◇ mandatory effect, ``reveal3``…),
and without it the referee accepts the effects the table reports, checking each one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from host.rules.allin_hands import (
    CATEGORIES,
    DEFAULT_SUIT_ORDER,
    HAND_SIZE,
    LABELS,
    VALUES,
    HandRank,
    evaluate,
    parse_suit_order,
)
from host.rules.base import Event, RuleViolation
from host.rules.notation import BOX, NotationError, parse_token, standard_to_allin
from host.rules.stepwise import StepRules, reshuffled, seats

__all__ = [
    "CATEGORIES",
    "RULES",
    "AllInRules",
    "AllInState",
    "HandRank",
    "Options",
    "RoundResult",
    "capacity",
    "evaluate",
    "pot_shares",
    "showdown",
    "summary",
]

GAME: Final = "allin"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
ROUNDS: Final = 3
RUNE_SUPPLY: Final = 29 * 1 + 14 * 5 + 7 * 10  # rune tokens' total value (169)
ALL_CARDS: Final[tuple[str, ...]] = tuple(t for t, n in BOX["allin"].items() for _ in range(n))
EFFECTS: Final = ("take", "swap", "draw", "reveal", "rune", "hypnosis", "eye")
MAX_DRAW: Final = 5  # the most deck cards one action needs (reveal 5)


def capacity(players: int) -> int:
    """Display slots: two rows of 4 (2 players), 5 (3 players) or 6 (4–5 players)."""
    return 2 * row_width(players)


def row_width(players: int) -> int:
    return {2: 4, 3: 5}.get(players, 6)


def start_pot(players: int) -> int:
    return 2 if players == 2 else 4


def pot_top_up(round_no: int, players: int) -> int:
    """Runes added to the pot before ``round_no`` (2, 3, or 4 = the heirs' extra round)."""
    if round_no == 2:
        return 4 if players == 2 else 6
    if round_no == 3:
        return 6 if players == 2 else 8
    return 10


def pot_shares(pot: int, winners: int) -> tuple[int, int]:
    """Each correct predictor's share and the carry-over (the whole pot when nobody)."""
    if winners == 0:
        return 0, pot
    return pot // winners, pot % winners


@dataclass(frozen=True, slots=True)
class Options:
    side: str = "A"
    suits: str = DEFAULT_SUIT_ORDER
    deck: str = "allin"  # or "standard": tokens map onto the All In deck (NOTATION.md)
    enchanted_discard: bool = False
    closed_minds_eye: bool = False
    heirs_of_the_prophets: bool = False
    # token → ((effect, mandatory), ...), from the cards' printed icons; empty = trust the table
    card_effects: tuple[tuple[str, tuple[tuple[str, bool], ...]], ...] = ()

    def effects_of(self, card: str) -> tuple[tuple[str, bool], ...] | None:
        for token, effects in self.card_effects:
            if token == card:
                return effects
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "suits": self.suits,
            "deck": self.deck,
            "enchanted_discard": self.enchanted_discard,
            "closed_minds_eye": self.closed_minds_eye,
            "heirs_of_the_prophets": self.heirs_of_the_prophets,
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A showdown: hands, ranks, predictions and how the runes went."""

    round: int
    hands: tuple[tuple[str, ...], ...]
    ranks: tuple[HandRank, ...]
    order: tuple[int, ...]  # player indices, best hand first
    predictions: tuple[int, ...]  # target per voter
    pot: int
    share: int
    winners: tuple[int, ...]  # voters who predicted the best hand
    carry: int

    @property
    def best(self) -> int:
        return self.order[0]


@dataclass(frozen=True, slots=True)
class AllInState:
    players: tuple[str, ...]
    options: Options
    round: int
    phase: str  # "play" | "predict" | "deal" | "over"
    turn: int  # who acts (play) or predicts next (predict, 3+ players)
    first: int  # this round's first player
    hands: tuple[tuple[str, ...], ...]
    display: tuple[str | None, ...]
    deck: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # top last
    runes: tuple[int, ...]
    pot: int
    supply: int
    all_in: int | None = None
    predictions: tuple[int | None, ...] = ()
    last_placer: int | None = None
    log: tuple[str, ...] = ()  # what the table was told: hypnosis answers, shown discards
    results: tuple[RoundResult, ...] = ()
    winner: str | None = None
    finished: bool = False
    table_mode: bool = False  # real cards: rounds come in as showdowns (hands as read)

    @property
    def width(self) -> int:
        return len(self.display) // 2

    def uncovered(self) -> list[str]:
        """Display cards that may be taken or swapped (not covered by a row-2 card)."""
        w = self.width
        return [
            c
            for i, c in enumerate(self.display)
            if c is not None and (i >= w or self.display[i + w] is None)
        ]

    def index(self, name: str) -> int:
        return self.players.index(name)

    def rank(self, player: int) -> HandRank:
        return evaluate(self.hands[player], self.options.side, self.options.suits)


# -- setup ------------------------------------------------------------------------------------
_OPTION_KEYS = {f for f in Options.__dataclass_fields__}


def _bad(reason: str) -> RuleViolation:
    return RuleViolation(reason)


def _parse_options(raw: Any) -> Options:
    if raw is None:
        return Options()
    if not isinstance(raw, Mapping):
        raise _bad("options must be an object")
    unknown = sorted(set(raw) - _OPTION_KEYS)
    if unknown:
        raise _bad(f"unknown All In option(s) {', '.join(unknown)}: known {sorted(_OPTION_KEYS)}")
    side = str(raw.get("side", "A")).upper()
    if side not in VALUES:
        raise _bad(f"side must be A or B, not {raw.get('side')!r}")
    try:
        suits = DEFAULT_SUIT_ORDER
        if "suits" in raw:
            suits = parse_suit_order(str(raw["suits"]), str(raw.get("deck", "allin")))
    except NotationError as exc:
        raise _bad(str(exc)) from None
    deck = str(raw.get("deck", "allin"))
    if deck not in ("allin", "standard"):
        raise _bad(f"deck must be 'allin' or 'standard', not {deck!r}")
    flags = {}
    for key in ("enchanted_discard", "closed_minds_eye", "heirs_of_the_prophets"):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise _bad(f"option {key} must be true or false")
        flags[key] = value
    if flags["enchanted_discard"] and flags["closed_minds_eye"]:
        raise _bad("the two discard variants exclude each other: choose at most one")
    table = raw.get("card_effects") or {}
    if not isinstance(table, Mapping):
        raise _bad("card_effects must map card tokens to lists of effects")
    effects = []
    for token, names in table.items():
        card = _card_in(deck, token)
        parsed = []
        for name in names:
            mandatory = str(name).endswith("!")
            base = str(name).rstrip("!")
            if base.startswith("reveal") and base[6:] not in ("3", "4", "5"):
                raise _bad(f"card_effects of {card}: reveal must be reveal3, reveal4 or reveal5")
            if not base.startswith("reveal") and base not in EFFECTS:
                raise _bad(f"card_effects of {card}: unknown effect {base!r}")
            parsed.append((base, mandatory))
        effects.append((card, tuple(parsed)))
    return Options(side, suits, deck, card_effects=tuple(sorted(effects)), **flags)


def _card_in(deck: str, token: Any) -> str:
    if not isinstance(token, str):
        raise _bad(f"a card must be a token string, got {token!r}")
    try:
        card = parse_token(deck, token)
    except NotationError as exc:
        raise _bad(str(exc)) from None
    return standard_to_allin(card) if deck == "standard" else card


def _check_deck(deck: Any, options: Options) -> tuple[str, ...]:
    if not isinstance(deck, list):
        raise _bad("the deck must be the list of all 54 cards in shuffled order")
    cards = tuple(_card_in(options.deck, t) for t in deck)
    if Counter(cards) != Counter(ALL_CARDS):
        have, want = Counter(cards), Counter(ALL_CARDS)
        missing = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        raise _bad(
            f"the deck must hold each of the 54 cards once"
            f"{'; missing ' + ' '.join(missing) if missing else ''}"
            f"{'; extra ' + ' '.join(extra) if extra else ''}"
        )
    return cards


def _new_round(state: AllInState, deck: tuple[str, ...]) -> AllInState:
    n = len(state.players)
    hands = tuple(deck[HAND_SIZE * i : HAND_SIZE * (i + 1)] for i in range(n))
    rest = deck[HAND_SIZE * n :]
    display: list[str | None] = [None] * capacity(n)
    display[0], display[1] = rest[0], rest[1]
    rest = rest[2:]
    discard: tuple[str, ...] = ()
    if state.options.enchanted_discard:
        discard, rest = (rest[0],), rest[1:]
    return replace(
        state,
        phase="play",
        turn=state.first,
        hands=hands,
        display=tuple(display),
        deck=rest,
        discard=discard,
        all_in=None,
        predictions=(None,) * n,
        last_placer=None,
    )


# -- the fold ---------------------------------------------------------------------------------
class AllInRules(StepRules[AllInState]):
    game = GAME

    def initial(self, setup: Event) -> AllInState:
        players, first = seats(setup, "All In", MIN_PLAYERS, MAX_PLAYERS)
        options = _parse_options(setup.get("options"))
        n = len(players)
        pot = start_pot(n)
        state = AllInState(
            players=players,
            options=options,
            round=1,
            phase="play",
            turn=first,
            first=first,
            hands=(),
            display=(),
            deck=(),
            discard=(),
            runes=(0,) * n,
            pot=pot,
            supply=RUNE_SUPPLY - pot,
        )
        if setup.get("deck") is None:  # table mode: nobody knows the order
            return replace(state, phase="showdown", predictions=(None,) * n, table_mode=True)
        return _new_round(state, _check_deck(setup.get("deck"), options))

    def step(self, state: AllInState, event: Event) -> AllInState:
        return _step(state, event)

    def summary(self, state: AllInState) -> dict[str, Any]:
        return summary(state)


def _player(state: AllInState, event: Event) -> int:
    name = event.get("player")
    if name not in state.players:
        raise _bad(f"{event.type}: unknown player {name!r} (players: {', '.join(state.players)})")
    return state.index(name)


def _step(state: AllInState, event: Event) -> AllInState:
    if state.finished:
        raise _bad(f"the game is over ({_result_words(state)})")
    kind = event.type
    if state.table_mode or kind == "showdown":
        return _table_showdown(state, event)
    if kind in ("play", "pass", "all_in", "shuffle"):
        if state.phase != "play":
            raise _bad(f"{kind}: not now, the round is in its {state.phase} phase")
        if kind == "shuffle":
            return _shuffle(state, event)
        actor = _player(state, event)
        if actor != state.turn:
            raise _bad(f"it is {state.players[state.turn]}'s turn, not {state.players[actor]}'s")
        if state.all_in == actor and kind != "pass":
            raise _bad(f"{state.players[actor]} went all in and passes automatically this round")
        table = _Table.of(state)
        if kind == "play":
            table.play(actor, event)
        elif kind == "pass":
            table.place(table.draw_top(f"{state.players[actor]} passes"))
        else:
            table.all_in(actor)
        return table.end_turn(actor)
    if kind == "predict":
        return _predict(state, event)
    if kind == "deal":
        if state.phase != "deal":
            raise _bad(f"deal: not now, the round is in its {state.phase} phase")
        return _new_round(state, _check_deck(event.get("deck"), state.options))
    raise _bad(f"unknown All In event {kind!r}")


def _by_player(state: AllInState, raw: Any, what: str) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or set(raw) != set(state.players):
        raise _bad(f"showdown: '{what}' must name each of {', '.join(state.players)}")
    return dict(raw)


def _table_showdown(state: AllInState, event: Event) -> AllInState:
    """Table mode: a round as the table saw it, scored exactly as deck mode scores it."""
    if not state.table_mode:
        raise _bad("showdown: the engine follows the play from the deck; it is for table mode")
    if event.type != "showdown":
        raise _bad(
            f"{event.type}: this game is refereed from the table (no deck known): "
            f"record each round as a 'showdown'"
        )
    shown_hands = _by_player(state, event.get("hands"), "hands")
    hands: list[tuple[str, ...]] = []
    for name in state.players:  # seat order
        cards = shown_hands[name]
        if not isinstance(cards, list) or len(cards) != HAND_SIZE:
            raise _bad(f"showdown: {name} must show {HAND_SIZE} cards, got {cards!r}")
        try:
            hands.append(tuple(_card_in(state.options.deck, c) for c in cards))
        except RuleViolation as exc:
            raise _bad(f"showdown: {name}: {exc}") from None
    for card, count in Counter(c for h in hands for c in h).items():
        if count > BOX["allin"][card]:
            raise _bad(
                f"showdown: {card} is shown {count} times; the deck has {BOX['allin'][card]}"
            )
    predictions = _by_player(state, event.get("predictions"), "predictions")
    for voter, target in predictions.items():
        if target not in state.players:
            raise _bad(f"showdown: {voter} predicted {target!r}, who is not at the table")
    gained = event.get("runes") or {}
    if not isinstance(gained, Mapping) or not set(gained) <= set(state.players):
        raise _bad(f"showdown: 'runes' must map players ({', '.join(state.players)}) to runes")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in gained.values()):
        raise _bad("showdown: runes gained in a round are whole numbers ≥ 0")
    if sum(gained.values()) > state.supply:
        raise _bad(
            f"showdown: {sum(gained.values())} runes gained, the supply holds {state.supply}"
        )
    runes = tuple(r + gained.get(p, 0) for p, r in zip(state.players, state.runes, strict=True))
    shown = replace(
        state,
        hands=tuple(hands),
        predictions=tuple(state.index(predictions[p]) for p in state.players),
        runes=runes,
        supply=state.supply - sum(gained.values()),
    )
    after = _showdown(shown)
    if after.phase == "deal":  # the next round is dealt at the table, unseen
        after = replace(after, phase="showdown", predictions=(None,) * len(state.players))
    return after


def _shuffle(state: AllInState, event: Event) -> AllInState:
    deck = reshuffled(
        state.deck, state.discard, event, lambda t: _card_in(state.options.deck, t), MAX_DRAW
    )
    return replace(state, deck=deck, discard=())


@dataclass
class _Table:
    """A mutable working copy for one turn; frozen back into a state at the end."""

    state: AllInState
    hands: list[list[str]]
    display: list[str | None]
    deck: list[str]
    discard: list[str]
    runes: list[int]
    supply: int
    log: list[str] = field(default_factory=list)
    all_in_player: int | None = None

    @classmethod
    def of(cls, s: AllInState) -> _Table:
        return cls(
            s,
            [list(h) for h in s.hands],
            list(s.display),
            list(s.deck),
            list(s.discard),
            list(s.runes),
            s.supply,
            list(s.log),
            s.all_in,
        )

    @property
    def names(self) -> tuple[str, ...]:
        return self.state.players

    def card(self, token: Any, what: str) -> str:
        if token is None:
            raise _bad(f"{what}: which card?")
        return _card_in(self.state.options.deck, token)

    def draw_top(self, why: str) -> str:
        if not self.deck:
            raise _bad(f"{why}: the deck is empty; record a shuffle of the discard pile first")
        return self.deck.pop(0)

    def place(self, card: str) -> None:
        """Into the leftmost empty slot: row 1 gaps first, then row 2 (covering row 1)."""
        slot = self.display.index(None)
        self.display[slot] = card

    def full(self) -> bool:
        return None not in self.display

    def uncovered(self) -> list[str]:
        w = len(self.display) // 2
        return [
            c
            for i, c in enumerate(self.display)
            if c is not None and (i >= w or self.display[i + w] is None)
        ]

    def locked_words(self, card: str) -> str:
        if card in self.display:
            w = len(self.display) // 2
            cover = self.display[self.display.index(card) + w]
            return f"{card} is covered by {cover} and locked"
        return f"{card} is not in the display"

    # -- actions ------------------------------------------------------------------------------
    def all_in(self, actor: int) -> None:
        if self.state.all_in is not None:
            who = self.names[self.state.all_in]
            raise _bad(f"{who} already went all in this round: only one player may")
        self.all_in_player = actor
        for _ in range(2):
            if self.full():
                break  # the display filled up: the round goes on to the predictions
            self.place(self.draw_top(f"{self.names[actor]} goes all in"))

    def play(self, actor: int, event: Event) -> None:
        name = self.names[actor]
        card = self.card(event.get("card"), "play")
        hand = self.hands[actor]
        if card not in hand:
            raise _bad(f"{name} cannot play {card}: not in their hand ({' '.join(hand)})")
        hand.remove(card)
        steps = event.get("effects") or []
        if not isinstance(steps, list) or not all(isinstance(s, Mapping) for s in steps):
            raise _bad("play: 'effects' must be a list of {\"effect\": ...} objects")
        self.check_icons(card, steps, actor)
        for number, step in enumerate(steps, start=1):
            try:
                self.effect(actor, step)
            except RuleViolation as exc:
                raise _bad(f"{name} plays {card}, effect {number}: {exc}") from None
        self.discard_down(actor, event.get("discard") or [])
        self.place(card)

    def check_icons(self, card: str, steps: Sequence[Mapping[str, Any]], actor: int) -> None:
        icons = self.state.options.effects_of(card)
        if icons is None:
            return
        kinds = [_kind(s) for s in steps]
        at = 0
        for icon, mandatory in icons:
            if at < len(kinds) and kinds[at] == icon:
                at += 1
            elif mandatory and self.possible(icon, actor):
                raise _bad(f"{card}'s ◇ {icon} effect is mandatory")
        if at != len(kinds):
            printed = " ".join(i + ("!" if m else "") for i, m in icons) or "none"
            raise _bad(
                f"{card} does not carry these effects in this order: "
                f"{' '.join(kinds)} (its effects: {printed})"
            )

    def possible(self, icon: str, actor: int) -> bool:
        if icon in ("take", "swap"):
            return bool(self.uncovered() or (self.state.options.enchanted_discard and self.discard))
        if icon in ("draw",) or icon.startswith("reveal"):
            return bool(self.deck or self.discard)
        if icon in ("hypnosis", "eye"):
            return any(i != actor and i != self.all_in_player for i in range(len(self.names)))
        return self.supply > 0

    def take_from_table(self, card: str) -> None:
        if card in self.uncovered():
            self.display[self.display.index(card)] = None
        elif self.state.options.enchanted_discard and self.discard and self.discard[-1] == card:
            self.discard.pop()
        else:
            raise _bad(f"cannot take {card}: {self.locked_words(card)}")

    def effect(self, actor: int, step: Mapping[str, Any]) -> None:
        _kind(step)
        kind = step["effect"]
        hand = self.hands[actor]
        if kind == "take":
            card = self.card(step.get("card"), "take")
            self.take_from_table(card)
            hand.append(card)
        elif kind == "swap":
            give = self.card(step.get("give"), "swap: give")
            card = self.card(step.get("card"), "swap")
            if give not in hand:
                raise _bad(f"swap: {give} is not in the hand")
            if card in self.uncovered():
                self.display[self.display.index(card)] = give
            elif self.state.options.enchanted_discard and self.discard and self.discard[-1] == card:
                self.discard[-1] = give
            else:
                raise _bad(f"cannot swap for {card}: {self.locked_words(card)}")
            hand.remove(give)
            hand.append(card)
        elif kind == "draw":
            hand.append(self.draw_top("draw"))
        elif kind == "reveal":
            self.reveal(hand, step)
        elif kind == "rune":
            gained = min(1, self.supply)
            self.supply -= gained
            self.runes[actor] += gained
        else:
            self.look(actor, kind, step)

    def reveal(self, hand: list[str], step: Mapping[str, Any]) -> None:
        n = step.get("n")
        if n not in (3, 4, 5):
            raise _bad("reveal: 'n' must be 3, 4 or 5")
        if len(self.deck) < n:
            raise _bad(
                f"reveal {n}: the deck holds {len(self.deck)}; record a shuffle of the "
                f"discard pile first"
            )
        shown, self.deck = self.deck[:n], self.deck[n:]
        keep = self.card(step.get("keep"), "reveal: keep")
        if keep not in shown:
            raise _bad(f"reveal: {keep} is not among the revealed {' '.join(shown)}")
        rest = list(shown)
        rest.remove(keep)  # one copy: both rune cards may be revealed together
        order = [self.card(c, "reveal: order") for c in step.get("order") or rest]
        if sorted(order) != sorted(rest):
            raise _bad(f"reveal: 'order' must list the other revealed cards {' '.join(rest)}")
        hand.append(keep)
        self.discard.extend(order)

    def look(self, actor: int, kind: str, step: Mapping[str, Any]) -> None:
        target_name = step.get("target")
        if target_name not in self.names:
            raise _bad(f"{kind}: unknown target {target_name!r}")
        target = self.names.index(target_name)
        if target == actor:
            raise _bad(f"{kind}: the target must be an opponent")
        if target == self.all_in_player:
            raise _bad(f"{kind}: {target_name} went all in and cannot be targeted")
        their = self.hands[target]
        if kind == "hypnosis":
            rank = evaluate(their, self.state.options.side, self.state.options.suits)
            self.log.append(f"{target_name} announces: {LABELS[rank.name]}")
            return
        shown = [self.card(c, "eye: shown") for c in step.get("shown") or []]
        want = min(4, len(their))
        if len(shown) != want or len(set(shown)) != want or any(c not in their for c in shown):
            raise _bad(f"eye: {target_name} shows {want} different cards of their own hand")
        self.log.append(f"{target_name} shows {self.names[actor]} {want} cards")

    def discard_down(self, actor: int, raw: Any) -> None:
        hand = self.hands[actor]
        name = self.names[actor]
        if not isinstance(raw, list):
            raise _bad("play: 'discard' must be a list of cards")
        cards = [self.card(c, "discard") for c in raw]
        for card in cards:
            if card not in hand:
                raise _bad(f"{name} cannot discard {card}: not in their hand")
            hand.remove(card)
        if len(hand) != HAND_SIZE:
            if cards and len(hand) < HAND_SIZE:
                raise _bad(f"{name} discards too many: only down to {HAND_SIZE} cards")
            raise _bad(
                f"{name} would end the turn with {len(hand)} cards: a hand holds exactly "
                f"{HAND_SIZE} at the end of a turn"
            )
        self.discard.extend(cards)
        if len(cards) > 1 and not self.state.options.closed_minds_eye:
            self.log.append(f"{name} discards {' '.join(cards)}")

    def end_turn(self, actor: int) -> AllInState:
        s = self.state
        n = len(s.players)
        full = self.full()
        return replace(
            s,
            hands=tuple(tuple(h) for h in self.hands),
            display=tuple(self.display),
            deck=tuple(self.deck),
            discard=tuple(self.discard),
            runes=tuple(self.runes),
            supply=self.supply,
            log=tuple(self.log),
            all_in=self.all_in_player,
            phase="predict" if full else "play",
            turn=(actor + 1) % n,
            last_placer=actor,
        )


def _kind(step: Mapping[str, Any]) -> str:
    kind = step.get("effect")
    if kind not in EFFECTS:
        raise _bad(f"unknown effect {kind!r}: expected one of {', '.join(EFFECTS)}")
    if kind == "reveal":
        return f"reveal{step.get('n')}"
    return str(kind)


# -- predictions, showdown, next round, end ---------------------------------------------------
def _predict(state: AllInState, event: Event) -> AllInState:
    if state.phase != "predict":
        raise _bad(f"predict: not now, the round is in its {state.phase} phase")
    voter = _player(state, event)
    target = event.get("target")
    if target not in state.players:
        raise _bad(f"predict: unknown target {target!r}")
    if state.predictions[voter] is not None:
        raise _bad(f"{state.players[voter]} has already predicted")
    n = len(state.players)
    if n > 2 and voter != state.turn:
        raise _bad(f"{state.players[state.turn]} predicts next, not {state.players[voter]}")
    predictions = list(state.predictions)
    predictions[voter] = state.index(target)
    state = replace(state, predictions=tuple(predictions), turn=(voter + 1) % n)
    if any(p is None for p in predictions):
        return state
    return _showdown(state)


def _showdown(state: AllInState) -> AllInState:
    n = len(state.players)
    ranks = tuple(state.rank(i) for i in range(n))
    order = tuple(sorted(range(n), key=lambda i: ranks[i].key, reverse=True))
    best = order[0]
    votes = tuple(p for p in state.predictions if p is not None)
    winners = tuple(i for i, target in enumerate(votes) if target == best)
    share, carry = pot_shares(state.pot, len(winners))
    runes = list(state.runes)
    supply = state.supply
    for i in winners:  # the pot first, then hand scoring from the supply
        runes[i] += share
    for i in range(n):
        gained = min(ranks[i].runes, supply)
        supply -= gained
        runes[i] += gained
    result = RoundResult(
        state.round, state.hands, ranks, order, votes, state.pot, share, winners, carry
    )
    state = replace(
        state, runes=tuple(runes), supply=supply, pot=carry, results=(*state.results, result)
    )
    last = state.round >= ROUNDS
    if last:
        top = max(runes)
        tied = [i for i in range(n) if runes[i] == top]
        if len(tied) == 1:
            return replace(state, phase="over", finished=True, winner=state.players[tied[0]])
        if state.options.heirs_of_the_prophets and state.round == ROUNDS:
            return _next_round(state, order)
        if state.options.heirs_of_the_prophets:
            return replace(state, phase="over", finished=True, winner=None)  # still tied
        best_tied = min(tied, key=order.index)
        return replace(state, phase="over", finished=True, winner=state.players[best_tied])
    return _next_round(state, order)


def _next_round(state: AllInState, order: tuple[int, ...]) -> AllInState:
    n = len(state.players)
    nxt = state.round + 1
    add = min(pot_top_up(nxt, n), state.supply)
    fewest = min(state.runes)
    tied = [i for i in range(n) if state.runes[i] == fewest]
    first = max(tied, key=order.index)  # tie: the lowest hand last round
    return replace(
        state,
        round=nxt,
        phase="deal",
        pot=state.pot + add,
        supply=state.supply - add,
        first=first,
        turn=first,
        log=(),
    )


def _result_words(state: AllInState) -> str:
    if state.winner is None:
        return "tied after the heirs' extra round: no winner"
    return f"{state.winner} won with {state.runes[state.index(state.winner)]} runes"


def summary(state: AllInState) -> dict[str, Any]:
    """Scores, winner and progress, the shape every engine's summary shares."""
    return {
        "game": GAME,
        "players": list(state.players),
        "scores": dict(zip(state.players, state.runes, strict=True)),
        "winner": state.winner,
        "finished": state.finished,
        "round": state.round,
        "phase": state.phase,
        # who acts next: plays in the play phase, predicts next in the predict phase
        "turn": state.players[state.turn] if state.phase in ("play", "predict") else None,
        "pot": state.pot,
        "rounds": [
            {
                "round": r.round,
                "best": state.players[r.best],
                "hands": {
                    state.players[i]: {
                        "cards": list(r.hands[i]),
                        "hand": rk.name,
                        "runes": rk.runes,
                    }
                    for i, rk in enumerate(r.ranks)
                },
                "pot": r.pot,
                "shares": {state.players[i]: r.share for i in r.winners},
                "carry": r.carry,
            }
            for r in state.results
        ],
    }


def showdown(
    hands: Mapping[str, Sequence[str]],
    side: str = "A",
    suits: str | None = None,
    *,
    predictions: Mapping[str, str] | None = None,
    pot: int | None = None,
    deck: str = "allin",
) -> dict[str, Any]:
    """Score shown hands (name → 5 tokens) and, with predictions, share the pot.

    Raises :class:`NotationError` naming the problem: an unknown card, a card shown twice,
    a hand that is not 5 cards, a prediction naming nobody at the table.
    """
    if not hands:
        raise NotationError("no hands to score: give NAME=CARDS for each player")
    if len(hands) > MAX_PLAYERS:
        raise NotationError(f"All In is for at most {MAX_PLAYERS} players, got {len(hands)}")
    suit_order = DEFAULT_SUIT_ORDER if suits is None else parse_suit_order(suits, deck)
    ranks: dict[str, HandRank] = {}
    seen: dict[str, list[str]] = {}
    for name, cards in hands.items():
        try:
            ranks[name] = evaluate(cards, side, suit_order, deck=deck)
        except NotationError as exc:
            raise NotationError(f"{name}: {exc}", token=exc.token, game=exc.game) from None
        for token in cards:
            seen.setdefault(_card_in_or_raise(deck, token), []).append(name)
    for card, owners in seen.items():
        if len(owners) > BOX["allin"][card]:
            where = ", ".join(owners)
            raise NotationError(
                f"{card} is shown {len(owners)} times ({where}): the deck has "
                f"{BOX['allin'][card]} of it",
                token=card,
                game="allin",
            )
    order = sorted(ranks, key=lambda n: ranks[n].key, reverse=True)
    result: dict[str, Any] = {
        "players": [
            {
                "name": name,
                "cards": [_card_in_or_raise(deck, t) for t in hands[name]],
                "hand": rank.name,
                "pattern": list(rank.pattern),
                "value": rank.value,
                "rune_cards": rank.rune_cards,
                "runes": rank.runes,
            }
            for name, rank in ranks.items()
        ],
        "best": order[0],
        "order": order,
    }
    if predictions:
        for voter, target in predictions.items():
            for who in (voter, target):
                if who not in hands:
                    raise NotationError(
                        f"prediction {voter}={target}: {who!r} shows no hand "
                        f"(players: {', '.join(hands)})"
                    )
        if pot is None:
            pot = start_pot(len(hands))
        if pot < 0:
            raise NotationError(f"the pot cannot be negative ({pot})")
        winners = [v for v, t in predictions.items() if t == order[0]]
        share, carry = pot_shares(pot, len(winners))
        result["pot"] = {"size": pot, "shares": {v: share for v in winners}, "carry": carry}
    return result


def _card_in_or_raise(deck: str, token: str) -> str:
    card = parse_token(deck, token)
    return standard_to_allin(card) if deck == "standard" else card


RULES: Final = AllInRules()
