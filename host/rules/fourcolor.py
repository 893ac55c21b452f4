"""Four Color Cards (四色牌), Taiwanese 10-hu: the event-sourced referee (RULINGS.md §3).

A log is a session of one or more hands::

    setup   {game, players, options?, deck, dealer?}   deck: the 112 cards, top first
    discard {player, card}         the player to act lays a card from hand (never a general)
    pass    {}                     nobody claims the card on offer
    claim   {claims: [{player, kind, cards?}, ...]}   every claim called on the card on offer;
                                   kind hu | kong | pong | chi, cards the ones from the hand
    turn    {player, card?}        the next player turns the top deck card over as a discard
    drawn   {}                     the deck is empty with no winner (流局)
    deal    {deck}                 the next hand, started by whoever made the last discard,
                                   draw or hu

Without a ``deck`` in the setup the log keeps a real table's results only (the hidden cards
are not followed; the camera reads the winner's cards at a hu)::

    hu      {player, hand, exposed?, win_card, win_from, flower?}   hand: the concealed cards,
                                   exposed: one list per meld, win_from self | other
    drawn   {player}               a drawn game; player: who made the last discard or draw
    deal    {}                     the next hand

Options: ``threshold`` (10), ``self_drawn`` (``"hand"``: a combination completed by the
winner's own draw counts at its hand value; ``"exposed"``), ``hands`` (1: hands in the
session; it also ends as soon as a player has no points left).

The combinations, the splitter and the scoring live in ``fourcolor_combos``,
``fourcolor_split`` and ``fourcolor_score``; this module re-exports what callers need.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from host.rules.base import Event, RuleViolation
from host.rules.fourcolor_combos import (
    ALL_COMBINATIONS,
    CARD_TYPES,
    COPIES,
    GENERAL,
    INDEX,
    KINDS,
    PONG,
    PONG_KINDS,
    Combination,
    MeldError,
    classify,
    explain,
    meld,
    piece,
    sort_cards,
)
from host.rules.fourcolor_score import (
    DEFAULT_THRESHOLD,
    Score,
    score_hand,
    settle,
    starting_points,
)
from host.rules.fourcolor_split import Split, best_split, split_counts, split_with_win_card
from host.rules.notation import NotationError, parse_token

__all__ = [
    "CARD_TYPES",
    "KINDS",
    "RULES",
    "Claim",
    "Combination",
    "FourColorRules",
    "MeldError",
    "Options",
    "Score",
    "Split",
    "State",
    "best_split",
    "classify",
    "deal_hands",
    "full_deck",
    "legal_claims",
    "meld",
    "resolve_claims",
    "score_hand",
    "settle",
    "split_counts",
    "split_with_win_card",
    "summary",
]

GAME: Final = "fourcolor"
CLAIM_KINDS: Final = ("hu", "kong", "pong", "chi")
_RANK: Final = {"hu": 0, "kong": 1, "pong": 1, "chi": 2}
Phase = Literal["discard", "respond", "draw", "play", "over", "finished"]
TRACKED_ONLY: Final = ("discard", "pass", "claim", "turn")
WINNING_CARDS: Final = 21  # 20 held and exposed by a waiting player, plus the winning card


def full_deck() -> list[str]:
    """The 112 cards in notation order (shuffle it outside the engine)."""
    return [card for card in CARD_TYPES for _ in range(COPIES)]


@dataclass(frozen=True, slots=True)
class Options:
    threshold: int = DEFAULT_THRESHOLD
    self_drawn: Literal["hand", "exposed"] = "hand"
    hands: int = 1

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleViolation("options must be an object")
        unknown = set(data) - {"threshold", "self_drawn", "hands"}
        if unknown:
            raise RuleViolation(f"unknown option(s): {', '.join(sorted(unknown))}")
        options = cls(**data)
        if not isinstance(options.threshold, int) or options.threshold < 0:
            raise RuleViolation(f"threshold must be a whole number ≥ 0, not {options.threshold!r}")
        if options.self_drawn not in ("hand", "exposed"):
            raise RuleViolation(
                f"self_drawn must be 'hand' or 'exposed', not {options.self_drawn!r}"
            )
        if not isinstance(options.hands, int) or options.hands < 1:
            raise RuleViolation(f"hands must be a whole number ≥ 1, not {options.hands!r}")
        return options


@dataclass(frozen=True, slots=True)
class Offer:
    """The card the players may claim now: a discard, or a card turned from the deck."""

    card: str
    source: Literal["discard", "turn"]
    seat: int  # who discarded or turned it


@dataclass(frozen=True, slots=True)
class Claim:
    player: str
    kind: str  # hu | kong | pong | chi
    cards: tuple[str, ...] = ()  # from the claimer's hand (empty for hu)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: ``hu`` (at or above the threshold), ``false_hu`` or ``drawn``."""

    outcome: Literal["hu", "false_hu", "drawn"]
    player: str | None
    score: Score | None
    flower: str | None
    points: tuple[tuple[str, int], ...]  # what each player gained or lost


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[str, ...]
    options: Options
    points: tuple[int, ...]
    hand_no: int  # 0-based number of the hand being played (or just ended)
    dealer: int
    deck: tuple[str, ...]  # top first
    hands: tuple[tuple[str, ...], ...]
    exposed: tuple[tuple[Combination, ...], ...]
    discards: tuple[str, ...]  # cards nobody claimed, in order
    first_discard: str | None
    tracked: bool  # False: a table's results only (no deck recorded; phase "play")
    phase: Phase
    current: int  # who must discard (phase discard) or turn a card (phase draw)
    offer: Offer | None
    last_actor: int  # the last to discard, draw or call hu: the next hand's dealer
    resolution: str  # why the last claim went to whom
    results: tuple[HandResult, ...]

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def hand_of(self, player: str) -> tuple[str, ...]:
        return self.hands[self.seat(player)]

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps) % len(self.players)

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    def card_count(self) -> int:
        """Cards in hands, melds, discards, deck and on offer: always 112."""
        return (
            sum(len(h) for h in self.hands)
            + sum(len(m.cards) for melds in self.exposed for m in melds)
            + len(self.discards)
            + len(self.deck)
            + (1 if self.offer else 0)
        )


def deal_hands(deck: Sequence[str], players: int, dealer: int) -> tuple[list[list[str]], list[str]]:
    """Deal 7, 7 and 6 cards (the dealer 7, 7, 7) from the top, dealer first each round."""
    hands: list[list[str]] = [[] for _ in range(players)]
    top = 0
    for round_no in range(3):
        for step in range(players):
            seat = (dealer + step) % players
            take = 6 if round_no == 2 and seat != dealer else 7
            hands[seat].extend(deck[top : top + take])
            top += take
    return hands, list(deck[top:])


def _parse_deck(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) != len(CARD_TYPES) * COPIES:
        raise RuleViolation(f"the deck must list all {len(CARD_TYPES) * COPIES} cards, top first")
    try:
        deck = tuple(parse_token(GAME, str(c)) for c in raw)
    except NotationError as exc:
        raise RuleViolation(f"deck: {exc}") from None
    wrong = sorted(c for c, n in Counter(deck).items() if n != COPIES)
    if wrong:
        raise RuleViolation(f"the deck must hold each card 4 times; {wrong[0]} is not")
    return deck


def _start_hand(state: State, deck: tuple[str, ...], dealer: int) -> State:
    dealt, rest = deal_hands(deck, len(state.players), dealer)
    return replace(
        state,
        dealer=dealer,
        deck=tuple(rest),
        hands=tuple(sort_cards(h) for h in dealt),
        exposed=tuple(() for _ in state.players),
        discards=(),
        first_discard=None,
        phase="discard" if state.tracked else "play",
        current=dealer,
        offer=None,
        last_actor=dealer,
        resolution="",
    )


def _remove(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...] | None:
    left = list(hand)
    for card in cards:
        if card not in left:
            return None
        left.remove(card)
    return tuple(left)


def _seat_distance(state: State, seat: int) -> int:
    """Turn-order distance from the offer's owner (the drawer counts 0 and goes first)."""
    assert state.offer is not None
    return (seat - state.offer.seat) % len(state.players)


def _may_chi(state: State, seat: int) -> bool:
    offer = state.offer
    assert offer is not None
    if offer.source == "discard":
        return seat == state.next_seat(offer.seat)
    return seat in (offer.seat, state.next_seat(offer.seat))


def _parse_claim(raw: Any) -> Claim:
    if not isinstance(raw, Mapping):
        raise RuleViolation("each claim must be an object {player, kind, cards}")
    player, kind, cards = raw.get("player"), raw.get("kind"), raw.get("cards", [])
    if not isinstance(player, str) or kind not in CLAIM_KINDS or not isinstance(cards, list):
        raise RuleViolation(f"a claim needs a player, a kind ({', '.join(CLAIM_KINDS)}), cards")
    try:
        parsed = tuple(parse_token(GAME, str(c)) for c in cards)
    except NotationError as exc:
        raise RuleViolation(str(exc)) from None
    return Claim(player, str(kind), sort_cards(parsed))


def _complete_claim(state: State, claim: Claim) -> Claim:
    """Fill in the hand cards a claim leaves implicit: a pong's 2, a kong's 3, a lone chi."""
    if claim.kind == "hu" or claim.cards or state.offer is None:
        return claim
    card = state.offer.card
    if claim.kind in ("pong", "kong"):
        return replace(claim, cards=(card,) * (2 if claim.kind == "pong" else 3))
    if piece(card) == GENERAL:
        return claim  # the general alone
    options = [c for c in legal_claims(state, claim.player) if c.kind == "chi"]
    return options[0] if len(options) == 1 else claim


def claim_problem(state: State, claim: Claim) -> str | None:
    """Why this one claim cannot be made on the card on offer (``None``: it can)."""
    offer = state.offer
    if state.phase != "respond" or offer is None:
        return "no card is on offer to claim"
    if claim.player not in state.players:
        return f"{claim.player!r} is not a player"
    seat = state.seat(claim.player)
    if offer.source == "discard" and seat == offer.seat:
        return f"{claim.player} cannot claim their own discard"
    if claim.kind == "hu":
        return None  # any call is allowed; a wrong one is a false hu and pays
    if not claim.cards and piece(offer.card) != GENERAL:
        return f"say which cards {claim.player}'s {claim.kind} uses with {offer.card}"
    hand = state.hands[seat]
    left = _remove(hand, claim.cards)
    if left is None:
        lacking = Counter(claim.cards) - Counter(hand)
        return f"{claim.player} does not hold {' '.join(sort_cards(lacking.elements()))}"
    cards = sort_cards((*claim.cards, offer.card))
    kind, reason = explain(cards)
    if kind is None:
        return f"{claim.player} cannot claim {offer.card}: {reason}"
    if claim.kind == "chi":
        if kind in PONG_KINDS:
            return f"{' '.join(cards)} is a {kind.replace('_', ' ')}: claim it as one, not chi"
        if not _may_chi(state, seat):
            who = "the next player" if offer.source == "discard" else "the drawer or next player"
            return f"only {who} may chi, and {claim.player} is not"
    elif (kind == PONG) != (claim.kind == "pong") or kind not in PONG_KINDS:
        return f"{' '.join(cards)} is a {kind.replace('_', ' ')}, not a {claim.kind}"
    if all(piece(c) == GENERAL for c in left):
        holding = "nothing but generals" if left else "no card"
        return (
            f"after laying {' '.join(cards)} {claim.player} would hold {holding} and "
            "could not discard: with these cards only hu can be called"
        )
    return None


def legal_claims(state: State, player: str) -> list[Claim]:
    """Every claim ``player`` may make on the card on offer (hu listed only if it wins)."""
    offer = state.offer
    if state.phase != "respond" or offer is None or player not in state.players:
        return []
    seat = state.seat(player)
    hand = state.hands[seat]
    found: list[Claim] = []
    if (offer.source != "discard" or seat != offer.seat) and split_with_win_card(
        hand, offer.card, "other"
    ).winning:
        found.append(Claim(player, "hu"))
    w = INDEX[offer.card]
    for kind, indices in ALL_COMBINATIONS:
        if w not in indices:
            continue
        rest = list(indices)
        rest.remove(w)
        cards = tuple(CARD_TYPES[i] for i in rest)
        claim_kind = "chi" if kind not in PONG_KINDS else ("pong" if kind == PONG else "kong")
        claim = Claim(player, claim_kind, sort_cards(cards))
        if claim_problem(state, claim) is None:
            found.append(claim)
    return found


def resolve_claims(state: State, claims: Sequence[Claim]) -> tuple[Claim, str]:
    """The claim that takes the card: hu > kong/pong > chi, then nearest in turn order."""
    assert claims
    ordered = sorted(
        claims, key=lambda c: (_RANK[c.kind], _seat_distance(state, state.seat(c.player)))
    )
    winner = ordered[0]
    losers = ordered[1:]
    if not losers:
        return (
            winner,
            f"{winner.player} takes {state.offer.card if state.offer else ''} ({winner.kind})",
        )
    words = []
    for loser in losers:
        if _RANK[loser.kind] > _RANK[winner.kind]:
            words.append(f"{winner.player}'s {winner.kind} outranks {loser.player}'s {loser.kind}")
        else:
            words.append(f"{winner.player} is nearer in turn order than {loser.player}")
    return winner, "; ".join(words)


class FourColorRules:
    game = GAME

    def summary(self, state: State) -> dict[str, Any]:
        """Scores, winner and whether the session is over (see :func:`summary`)."""
        return summary(state)

    # -- setup ------------------------------------------------------------------------------
    def initial(self, setup: Event) -> State:
        if setup.get("game", GAME) != GAME:
            raise RuleViolation(f"this is a {setup.get('game')} log, not {GAME}")
        players = setup.get("players")
        if (
            not isinstance(players, list)
            or not 2 <= len(players) <= 4
            or not all(isinstance(p, str) and p for p in players)
            or len(set(players)) != len(players)
        ):
            raise RuleViolation("Four Color Cards needs 2 to 4 players with distinct names")
        options = Options.from_json(setup.get("options"))
        tracked = setup.get("deck") is not None
        deck = _parse_deck(setup.get("deck")) if tracked else ()
        dealer_name = setup.get("dealer", players[0])
        if dealer_name not in players:
            raise RuleViolation(f"the dealer {dealer_name!r} is not a player")
        base = State(
            players=tuple(players),
            options=options,
            points=tuple(starting_points(players) for _ in players),
            hand_no=0,
            dealer=0,
            deck=(),
            hands=(),
            exposed=(),
            discards=(),
            first_discard=None,
            tracked=tracked,
            phase="over",
            current=0,
            offer=None,
            last_actor=0,
            resolution="",
            results=(),
        )
        return _start_hand(base, deck, players.index(dealer_name))

    def _known(self, state: State, event: Event) -> str | None:
        if not state.tracked and event.type in TRACKED_ONLY:
            return (
                f"{event.type!r}: this log keeps results only (no deck was recorded), so only "
                "hu, drawn and deal events"
            )
        if state.tracked and event.type == "hu":
            return "with a recorded deck, hu is a claim on the card on offer"
        return None

    # -- checking ---------------------------------------------------------------------------
    def check(self, state: State, event: Event) -> str | None:
        handler = getattr(self, f"_check_{event.type}", None)
        if handler is None:
            return (
                f"unknown event {event.type!r} "
                "(expected discard, pass, claim, turn, hu, drawn or deal)"
            )
        try:
            reason: str | None = self._known(state, event) or handler(state, event)
        except RuleViolation as exc:
            return str(exc)
        return reason

    def _actor(self, state: State, event: Event, phase: str, doing: str) -> str | None:
        if state.phase != phase:
            return f"no one may {doing} now ({_phase_words(state)})"
        player = event.get("player")
        if player not in state.players:
            return f"{player!r} is not a player"
        expected = state.players[state.current]
        if player != expected:
            return f"it is {expected}'s turn to {doing}, not {player}'s"
        return None

    def _check_discard(self, state: State, event: Event) -> str | None:
        problem = self._actor(state, event, "discard", "discard")
        if problem:
            return problem
        card = _card(event.get("card"))
        if piece(card) == GENERAL:
            return f"a general ({card}) may never be discarded"
        if card not in state.hand_of(event["player"]):
            return f"{event['player']} does not hold {card}"
        return None

    def _check_pass(self, state: State, event: Event) -> str | None:
        if state.phase != "respond" or state.offer is None:
            return f"there is nothing to pass on ({_phase_words(state)})"
        return _drawn_general_untaken(state, claimants=())

    def _check_claim(self, state: State, event: Event) -> str | None:
        if state.phase != "respond" or state.offer is None:
            return f"no card is on offer to claim ({_phase_words(state)})"
        raw = event.get("claims")
        if not isinstance(raw, list) or not raw:
            return "a claim event lists one or more claims (use 'pass' when nobody claims)"
        claims = [_complete_claim(state, _parse_claim(c)) for c in raw]
        names = [c.player for c in claims]
        if len(set(names)) != len(names):
            return "each player makes at most one claim on a card"
        for claim in claims:
            problem = claim_problem(state, claim)
            if problem:
                return problem
        return _drawn_general_untaken(state, claimants=names)

    def _check_turn(self, state: State, event: Event) -> str | None:
        problem = self._actor(state, event, "draw", "turn a card over")
        if problem:
            return problem
        if not state.deck:
            return "the deck is empty: the hand is a drawn game (record 'drawn')"
        if event.get("card") is not None and _card(event["card"]) != state.deck[0]:
            return f"the top card of the deck is {state.deck[0]}, not {_card(event['card'])}"
        return None

    def _check_hu(self, state: State, event: Event) -> str | None:
        if state.phase != "play":
            return f"no hu now ({_phase_words(state)})"
        player = event.get("player")
        if player not in state.players:
            return f"{player!r} is not a player"
        _table_score(state, event)
        return None

    def _check_drawn(self, state: State, event: Event) -> str | None:
        if not state.tracked:
            if state.phase != "play":
                return f"no drawn game now ({_phase_words(state)})"
            if event.get("player") not in state.players:
                return "name the player who made the last discard or draw: they deal next"
            return None
        if state.phase != "draw":
            now = _phase_words(state)
            return f"a hand is drawn only when a card must be turned and none is left ({now})"
        if state.deck:
            return f"the deck still holds {len(state.deck)} cards: no drawn game yet"
        return None

    def _check_deal(self, state: State, event: Event) -> str | None:
        if state.phase == "finished":
            return "the session is over"
        if state.phase != "over":
            return f"the hand is still being played ({_phase_words(state)})"
        if state.tracked:
            _parse_deck(event.get("deck"))
        return None

    # -- folding ----------------------------------------------------------------------------
    def evolve(self, state: State, event: Event) -> State:
        result: State = getattr(self, f"_do_{event.type}")(state, event)
        return result

    def _do_discard(self, state: State, event: Event) -> State:
        seat = state.seat(event["player"])
        card = _card(event["card"])
        hands = list(state.hands)
        left = _remove(hands[seat], [card])
        assert left is not None
        hands[seat] = left
        return replace(
            state,
            hands=tuple(hands),
            offer=Offer(card, "discard", seat),
            phase="respond",
            first_discard=state.first_discard or card,
            last_actor=seat,
            resolution="",
        )

    def _do_pass(self, state: State, event: Event) -> State:
        assert state.offer is not None
        return replace(
            state,
            discards=(*state.discards, state.offer.card),
            offer=None,
            phase="draw",
            current=state.next_seat(state.offer.seat),
            resolution="nobody claimed",
        )

    def _do_turn(self, state: State, event: Event) -> State:
        seat = state.current
        return replace(
            state,
            deck=state.deck[1:],
            offer=Offer(state.deck[0], "turn", seat),
            phase="respond",
            last_actor=seat,
            resolution="",
        )

    def _do_claim(self, state: State, event: Event) -> State:
        claims = [_complete_claim(state, _parse_claim(c)) for c in event["claims"]]
        winner, why = resolve_claims(state, claims)
        if winner.kind == "hu":
            return _hu(replace(state, resolution=why), winner.player)
        offer = state.offer
        assert offer is not None
        seat = state.seat(winner.player)
        hands = list(state.hands)
        left = _remove(hands[seat], winner.cards)
        assert left is not None
        hands[seat] = left
        laid = meld((*winner.cards, offer.card), exposed=True)
        exposed = list(state.exposed)
        exposed[seat] = (*exposed[seat], laid)
        return replace(
            state,
            hands=tuple(hands),
            exposed=tuple(exposed),
            offer=None,
            phase="discard",
            current=seat,
            resolution=why,
        )

    def _do_hu(self, state: State, event: Event) -> State:
        score, flower = _table_score(state, event)
        player = event["player"]
        delta = settle(state.players, player, score)
        outcome: Literal["hu", "false_hu"] = "hu" if score.meets_threshold else "false_hu"
        result = HandResult(outcome, player, score, flower, tuple(delta.items()))
        return _end_hand(replace(state, last_actor=state.seat(player)), result)

    def _do_drawn(self, state: State, event: Event) -> State:
        if not state.tracked:
            state = replace(state, last_actor=state.seat(event["player"]))
        result = HandResult("drawn", None, None, None, tuple((p, 0) for p in state.players))
        return _end_hand(state, result)

    def _do_deal(self, state: State, event: Event) -> State:
        deck = _parse_deck(event["deck"]) if state.tracked else ()
        return _start_hand(replace(state, hand_no=state.hand_no + 1), deck, state.last_actor)


def _drawn_general_untaken(state: State, claimants: Sequence[str]) -> str | None:
    """A general turned from the deck must be claimed by its drawer (others may outrank)."""
    offer = state.offer
    assert offer is not None
    drawer = state.players[offer.seat]
    if offer.source == "turn" and piece(offer.card) == GENERAL and drawer not in claimants:
        return f"a drawn general must be taken by its drawer: {drawer} must claim {offer.card}"
    return None


def _card(raw: Any) -> str:
    if not isinstance(raw, str):
        raise RuleViolation(f"a card token is a string, not {raw!r}")
    try:
        return parse_token(GAME, raw)
    except NotationError as exc:
        raise RuleViolation(str(exc)) from None


def _table_score(state: State, event: Event) -> tuple[Score, str | None]:
    """Score a hu recorded from the table's cards; RuleViolation says what is wrong."""
    hand, exposed = event.get("hand"), event.get("exposed", [])
    if not isinstance(hand, list) or not isinstance(exposed, list):
        raise RuleViolation("a hu lists the winner's hand, and exposed melds as lists of cards")
    if not all(isinstance(m, list) for m in exposed):
        raise RuleViolation("each exposed meld is a list of cards")
    win_from = event.get("win_from")
    if win_from not in ("self", "other"):
        raise RuleViolation("win_from must be 'self' (own draw) or 'other' (another's card)")
    win_card = _card(event.get("win_card"))
    flower = _card(event["flower"]) if event.get("flower") is not None else None
    held = [_card(c) for c in hand]
    melds = [[_card(c) for c in m] for m in exposed]
    total = len(held) + sum(len(m) for m in melds) + 1
    if total != WINNING_CARDS:
        raise RuleViolation(
            f"{event['player']} shows {total} cards with the winning card; a hu has "
            f"{WINNING_CARDS} (hand, exposed melds and the winning card)"
        )
    try:
        score = score_hand(
            held,
            melds,
            win_card=win_card,
            win_from=win_from,
            flower=flower,
            threshold=state.options.threshold,
            self_drawn_at_hand=state.options.self_drawn == "hand",
        )
    except (NotationError, MeldError) as exc:
        raise RuleViolation(str(exc)) from None
    return score, flower


def _phase_words(state: State) -> str:
    if state.phase == "finished":
        return "the session is over"
    if state.phase == "play":
        return "a hand is being played: record its hu or drawn game"
    if state.phase == "over":
        return "the hand is over; deal the next one"
    who = state.players[state.current]
    if state.phase == "discard":
        return f"{who} must discard"
    if state.phase == "draw":
        return f"{who} must turn a card over"
    assert state.offer is not None
    return f"{state.offer.card} is on offer to claim or pass"


def _hu(state: State, player: str) -> State:
    offer = state.offer
    assert offer is not None
    seat = state.seat(player)
    self_drawn = offer.source == "turn" and offer.seat == seat
    flower = state.deck[0] if state.deck else state.first_discard
    score = score_hand(
        state.hands[seat],
        state.exposed[seat],
        win_card=offer.card,
        win_from="self" if self_drawn else "other",
        flower=flower,
        threshold=state.options.threshold,
        self_drawn_at_hand=state.options.self_drawn == "hand",
    )
    delta = settle(state.players, player, score)
    outcome: Literal["hu", "false_hu"] = "hu" if score.meets_threshold else "false_hu"
    result = HandResult(outcome, player, score, flower, tuple(delta.items()))
    hands = list(state.hands)
    hands[seat] = sort_cards((*hands[seat], offer.card))
    return _end_hand(replace(state, hands=tuple(hands), offer=None, last_actor=seat), result)


def _end_hand(state: State, result: HandResult) -> State:
    delta = dict(result.points)
    points = tuple(p + delta[name] for name, p in zip(state.players, state.points, strict=True))
    done = state.hand_no + 1 >= state.options.hands or min(points) <= 0
    return replace(
        state,
        points=points,
        results=(*state.results, result),
        phase="finished" if done else "over",
        offer=None,
    )


def summary(state: State) -> dict[str, Any]:
    """Scores, the winner (most points once the session is over; ``None`` on a tie)."""
    scores = dict(zip(state.players, state.points, strict=True))
    winner = None
    if state.finished:
        best = max(scores.values())
        leaders = [p for p, s in scores.items() if s == best]
        winner = leaders[0] if len(leaders) == 1 else None
    return {"scores": scores, "winner": winner, "finished": state.finished}


RULES: Final = FourColorRules()
