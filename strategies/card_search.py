"""The search over the deals a seat cannot see, at a card of the play, for every game
(issue 21 item 1): `CardSearch`, which each game's search player extends with the game's parts
(Spades: `strategies.search`; Portland and Norwegian whist: `strategies.search_whist`).

At a card, for every row of the batch at once (the steps are described in full in
`strategies.search`'s docstring): sample ``samples`` deals of the unseen cards consistent with
what the seat has seen (`deal_view`; weighted by what was said before the play where the game
says how, ``_misfit``); replay each deal up to this card through the engine's own trick play
(`sim.tricks.PlaySetup.follow`, which refuses a deal the cards played contradict), copy it once
per candidate card (`candidates`: equal cards once), play the candidate and the rest of the hand
by the ``rollout`` strategy at every seat, score it by the game's own phases; then play the card
whose mean paired margin over the rollout strategy's own card, less ``confidence`` standard
errors, is largest and positive, else the rollout strategy's card. Rows x samples x candidates
on the batch axis: one numpy batch, no loop over samples.

A game's search says (the methods after "the game's parts"): the hand state of a sampled deal
as the view shows what was decided before the play (``_hand_state``), how its play runs
(``_play_setup``), the phases that score it (``_scoring``), the value of the score to the seat
(``_value``) and the deals (``_deal``: which cards the seat knows another holds, the voids the
rules reveal).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import replace

import numpy as np

from sim.cards import BIT, U64, highest_bit, lowest_bit, popcount
from sim.errors import UserError
from sim.lineup import Lineup
from sim.phases import Seating, play_hand
from sim.streams import rows_of
from sim.tricks import check_card, play_card

from .base import CARDS, Strategy, _for_game, make_strategy, param
from .sampling import NoDeal, deal_hidden, draw, uniforms

__all__ = ["CardSearch", "after", "candidates", "deal_unseen", "deal_view", "own_class",
           "side_margin"]

_MAX_CANDIDATES = 17  # the most cards a hand of the tables searched holds (17: three players)
CHUNK = 1 << 16  # deals drawn at most at once (rows x samples x pool): a decision's memory


@dataclasses.dataclass(frozen=True, kw_only=True)
class CardSearch(Strategy):
    """Monte Carlo search over the unseen cards at a card of the play, rollouts by ``rollout``
    (module docstring); a game's search player extends it with the game's parts."""

    name = "search"

    samples: int = param(16, (1, 4096))  # K: deals sampled per decision
    rollout: str = "expert"  # the strategy that plays the rollouts (and decides before the play)
    budget: int = param(64, (1, 1 << 20))  # rollouts per decision at most (samples x
    #                                        candidates): 16 samples up to 4 candidates
    min_samples: int = param(1, (1, 4096))  # samples per decision at least, whatever the budget
    first_trick: int = param(0, CARDS)  # search from this trick (0-based); earlier: rollout's
    confidence: float = param(1.0, (0.0, 10.0))  # z: leave the rollout strategy's card only for
    #                                              one better by z standard errors (paired)

    def __post_init__(self):
        allowed = [n for n in _for_game(self.games[0]) if n != self.name]
        if self.rollout not in allowed:
            raise UserError(f"strategy 'search': rollout '{self.rollout}' is not a strategy "
                            f"the search can play out with; allowed: {', '.join(allowed)}",
                            key="rollout")

    @functools.cached_property
    def policy(self) -> Strategy:
        """The rollout strategy."""
        return make_strategy(self.rollout, game=self.games[0])

    # -- bidding ------------------------------------------------------------------------------

    # -- the play -----------------------------------------------------------------------------

    def play(self, view, rng):
        """The card of best value over the samples (module docstring), on every row with a
        choice from ``first_trick`` on; the rollout strategy's card before it. The rows are
        searched in chunks (`CHUNK` deals drawn at most at once); each row's deals come from a
        key drawn for it from ``rng`` (`strategies.sampling.random_bits`), so that they do not
        depend on the chunks, nor on the other rows of the batch."""
        if view.trick_no < self.first_trick:
            return self.policy.play(view, rng)
        card = view.legal.copy()  # rows with one legal card play it
        classes = popcount(np.bitwise_or.reduce(candidates(view), axis=1))
        alike = np.flatnonzero((classes == 1) & (popcount(view.legal) > 1))
        if alike.size:  # legal cards all equal (`candidates`): the rollout strategy's
            card[alike] = self.policy.play(view.take(alike), rows_of(rng, alike))
        idx = np.flatnonzero(classes > 1)
        keys = rows_of(rng, idx).integers(0, 1 << 63, size=idx.size).astype(U64)
        step = max(1, CHUNK // self._drawn)
        for start in range(0, idx.size, step):
            part = idx[start:start + step]
            card[part] = self._search_dealt(view.take(part), rng, part,
                                            keys[start:start + step])
        return card

    def _search_dealt(self, view, rng, part, keys) -> np.ndarray:
        """`_search` of the rows ``part`` of the batch (``view`` theirs); a row whose deals the
        sampler cannot draw (`strategies.sampling.NoDeal`: at seven hidden seats, a rare late
        position where no draw of the merged seats splits in `MERGE_ROUNDS` x 2) plays the
        rollout strategy's card, unsearched: found by halving the rows, each row's deals being
        its key's alone, so that the others decide as they would have."""
        try:
            return self._search(view, rows_of(rng, part), keys)
        except NoDeal:
            if len(view) == 1:
                return self.policy.play(view, rows_of(rng, part))
            half = np.arange(len(view) // 2)
            rest = np.arange(half.size, len(view))
            return np.concatenate([
                self._search_dealt(view.take(half), rng, part[half], keys[half]),
                self._search_dealt(view.take(rest), rng, part[rest], keys[rest])])

    def _chunked(self, view, rng, own: np.ndarray, choose) -> np.ndarray:
        """A decision before the play searched by ``choose(view, rng, keys, own)`` (a bid, a
        blind nil, a declaration) for the rows of ``view`` in chunks (`CHUNK` deals drawn at
        most at once), each row's deals from a key drawn for it from ``rng``; ``own``: the
        rollout strategy's decisions, the starting point of the paired choice (`_best`)."""
        keys = rng.integers(0, 1 << 63, size=len(view)).astype(U64)
        out = own.copy()
        step = max(1, CHUNK // self._drawn)
        for start in range(0, len(view), step):
            part = np.arange(start, min(start + step, len(view)))
            out[part] = choose(view.take(part), rows_of(rng, part), keys[part], own[part])
        return out

    def _search(self, view, rng, keys) -> np.ndarray:
        """The card of each row (module docstring, "Choice")."""
        n = len(view)
        own = self.policy.play(view, rng)
        cands, values, k = self._values(view, rng, keys)
        mine = np.argmax(cands == own_class(view, own, cands), axis=1)
        best = self._best(values, k, cands != 0, mine)
        return np.where(best == mine, own, cands[np.arange(n), best])

    def _best(self, values, k, valid, mine) -> np.ndarray:
        """int[n]: the candidate chosen of each row (module docstring, "Choice"), from the
        values of each on each sample (float64[n, K, C], nan where not played out), the
        samples of each row ``k`` (int[n]), the candidates ``valid`` (bool[n, C]) and the
        rollout strategy's own, ``mine`` (int[n])."""
        rows = np.arange(len(k))
        # paired over the same deals: each candidate's margin over the rollout strategy's own
        diff = values - values[rows, :, mine][:, :, None]
        used = ~np.isnan(diff)  # (a pad, or a sample beyond the row's)
        diff = np.where(used, diff, 0.0)
        mean = diff.sum(axis=1) / np.maximum(k, 1)[:, None]  # (k = 0: no sample, the own card)
        var = ((diff - mean[:, None, :]) ** 2 * used).sum(axis=1) / np.maximum(k - 1, 1)[:, None]
        bound = mean - self.confidence * np.sqrt(var / np.maximum(k, 1)[:, None])
        if self.confidence > 0:  # one sample shows no spread: too few to leave the own card
            bound[k < 2] = 0.0
        bound = np.where(valid, bound, -np.inf)
        bound[rows, mine] = 0.0
        best = np.argmax(bound, axis=1)  # of equal bounds the first
        return np.where(bound[rows, best] > 0, best, mine)

    def estimate(self, view, rng, keys=None) -> tuple[np.ndarray, np.ndarray]:
        """The candidates (uint64[n, C], `candidates`: 0 pads) of a `PlayView` and their
        values (float64[n, C], -inf for a pad): each the mean over the row's samples of the
        seat's side's margin after playing it (module docstring). ``keys``: the rows' keys
        (default: drawn from ``rng``)."""
        if keys is None:
            keys = rng.integers(0, 1 << 63, size=len(view)).astype(U64)
        cands, values, k = self._values(view, rng, keys)
        total = np.where(np.isnan(values), 0.0, values).sum(axis=1)
        return cands, np.where(cands != 0, total / np.maximum(k, 1)[:, None], -np.inf)

    @property
    def _drawn(self) -> int:
        """Deals drawn per decision (more than ``samples`` where they are weighed, `_deals`)."""
        return self.samples

    @property
    def _weight(self) -> float:
        """How much a deal's misfit (`_misfit`) lowers its weight (`_deals`)."""
        return 0.0

    def _deals(self, view, keys, rng, deals, fit=None) -> np.ndarray:
        """uint64[n, K, P]: ``samples`` of the deals drawn (uint64[n, M, P]), by weight of
        their fit to what was said before the play (``_misfit``: Spades' bids), drawn by
        ``exp(-bid_weight x misfit)``, and only among those the cards played could have come
        from where ``fit`` (bool[n, M], `_fit`) says which (a row with none: any, unsearched,
        `_values`); every deal drawn is kept where nothing is weighed."""
        if fit is None and self._drawn == self.samples:
            return deals
        if self._drawn == self.samples:
            weight = np.ones(fit.shape)
        else:
            misfit = self._misfit(view, deals, rng)
            least = misfit.min(axis=1, keepdims=True) if fit is None else np.where(
                fit, misfit, np.iinfo(np.int64).max).min(axis=1, keepdims=True)
            weight = np.exp(-self._weight * np.maximum(misfit - least, 0))
        if fit is not None:
            weight = np.where(fit | ~fit.any(axis=1, keepdims=True), weight, 0.0)
        pick = draw(weight, uniforms(keys, 3, np.arange(self.samples)))
        return deals[np.arange(len(view))[:, None], pick]

    def _values(self, view, rng, keys) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(the candidates uint64[n, C], their values on each sample float64[n, K, C] (nan
        where not played out: a pad, or a sample beyond the row's), the samples of each row
        int[n])."""
        n = len(view)
        cands = candidates(view)
        valid = cands != 0
        k = np.clip(self.budget // valid.sum(axis=1), self.min_samples, self.samples)
        drawn = self._deal(view, self._drawn, keys)
        fit = self._fit(view, drawn, rng)
        if fit is not None:  # a row none of whose deals the cards played fit: unsearched
            k = np.where(fit.any(axis=1), k, 0)
        deals = self._deals(view, keys, rng, drawn, fit)
        # rollouts: (row, sample, candidate) for the samples a row takes
        used = np.arange(self.samples)[None, :] < k[:, None]  # [n, K]
        i, s, c = np.nonzero(used[:, :, None] & valid[:, None, :])
        values = np.full((n, self.samples, cands.shape[1]), np.nan)
        values[i, s, c] = self._rollouts(view, deals, i, s, cands[i, c], rng)
        return cands, values, k

    def _rollouts(self, view, deals, i, s, card, rng) -> np.ndarray:
        """float64[len(i)]: the value (module docstring) of playing ``card`` (uint64, one per
        rollout) at row ``i`` on its sample ``s``'s deal, the hand then played out by the
        rollout strategy."""
        if not i.size:  # (every row unsearched, `_fit`)
            return np.zeros(0)
        rules, deck = view.rules, view.deck
        players = view.tricks.shape[1]
        n, kmax = deals.shape[:2]
        sampled = np.unique(i * kmax + s)  # the (row, sample) pairs some rollout uses
        rows = sampled // kmax
        lineup = Lineup([self.policy] * players)
        at = Seating(rules, deck, lineup, rows_of(rng, i))
        hand = self._hand_state(view, deals.reshape((n * kmax,) + deals.shape[2:])[sampled],
                                rows, at)
        setup = self._play_setup(hand, at)
        so_far = np.concatenate([view.history, view.trick_cards], axis=1)[rows]
        play = setup.follow(setup.start(), so_far)  # checks the deal against every card
        which = np.searchsorted(sampled, i * kmax + s)  # each rollout's (row, sample)
        hand, play = hand.take(which), play.take(which)
        setup = self._play_setup(hand, at)
        legal, free = setup.legal(play)
        check_card(play, card, legal, free, setup.lead_rule, setup.constraint)
        play_card(play, card)
        setup.finish(play, lineup, at.rng)
        scored = play_hand(replace(hand, play=play.result()), at, self._scoring(rules))
        return self._value(scored, view.seat[i], rules)

    # -- the game's parts -----------------------------------------------------------------------

    def _hand_state(self, view, dealt: np.ndarray, rows: np.ndarray, at: Seating):
        """The game's hand state of the deals ``dealt`` (uint64[N, P], the hands as dealt) of
        the view's rows ``rows``, ready for its play: what was decided before it, as the view
        shows it."""
        raise NotImplementedError

    def _play_setup(self, hand, at: Seating):
        """How the hand's play runs (the game's ``play_setup``, `sim.tricks.PlaySetup`)."""
        raise NotImplementedError

    def _scoring(self, rules) -> tuple:
        """The phases of a hand after its play (the score)."""
        raise NotImplementedError

    def _value(self, hand, seat, rules) -> np.ndarray:
        """float64[N]: the value of a finished hand (the game's hand state, scored) to ``seat``
        (int8[N])."""
        raise NotImplementedError

    def _deal(self, view, k: int, keys: np.ndarray) -> np.ndarray:
        """uint64[n, k, P]: deals of what the seat of a `PlayView` cannot see (`deal_view`)."""
        return deal_view(view, k, keys)

    def _misfit(self, view, deals: np.ndarray, rng) -> np.ndarray:
        """int[n, M]: how badly each deal explains what was said before the play (used where
        `_drawn` draws more deals than it keeps)."""
        raise NotImplementedError

    def _fit(self, view, deals: np.ndarray, rng) -> np.ndarray | None:
        """bool[n, M]: which deals (uint64[n, M, P], as dealt) the cards played so far could
        have come from, where the rules constrain the play beyond what `_deal` deals by (the
        voids); None where every deal `_deal` makes does."""
        return None


def after(steps: tuple, name: str) -> tuple:
    """The phases of ``steps`` after the phase ``name`` (the play: the score)."""
    return steps[[p.name for p in steps].index(name) + 1:]


def side_margin(points: np.ndarray, seat: np.ndarray, sides: int) -> np.ndarray:
    """float64[N]: the points (int or float [N, S], by side; seat s plays for side s mod S) of
    the seat's side minus the other side's, or with more than two sides minus the mean of the
    others' (`strategies.search`'s docstring, "Value")."""
    points = points.astype(np.float64)
    side = (seat % sides).astype(np.intp)
    rows = np.arange(len(seat))
    own = points[rows, side]
    if sides == 2:
        return own - points[rows, 1 - side]
    return own - (points.sum(axis=1) - own) / (sides - 1)


def deal_view(view, k: int, keys: np.ndarray, revealed: np.ndarray | None = None,
              known: np.ndarray | None = None) -> np.ndarray:
    """uint64[n, k, P]: ``k`` deals per row of the cards the seat of ``view`` (a `PlayView`)
    cannot see, consistent with what it has seen (`deal_hidden`), as the hands each seat was
    dealt: its cards left and those it played; a row's deals a function of its key (``keys``
    uint64[n], `strategies.sampling.random_bits`). ``revealed`` (uint8[n, P], the layout of
    ``view.voids``): suits the rules show a seat void in besides the view's voids
    (`revealed_voids`); ``known`` (uint64[n, P]): cards a seat surely holds that the seat
    deciding does not (Portland: the turned-up card in the dealer's hand, the dummy's cards).
    Cards dealt to nobody (the seed's Norwegian whist sets 26
    or 1 aside, RULES.md §2) are unseen too: they go to one more hidden "seat", void in nothing,
    left out of the deal. Two decks (RULES.md §4.7): uint64[n, k, P, 2], each seat's cards and
    those it was dealt twice (`deal_view_copies`)."""
    if view.deck.copies == 2:
        return deal_view_copies(view, k, keys, revealed, known)
    n, players = view.tricks.shape
    rows = np.arange(n)
    seat = view.seat.astype(np.intp)
    shown = played_by(view)
    played = popcount(shown).astype(np.int64)
    dealt_each = popcount(view.hand).astype(np.int64) + played[rows, seat]
    voids = view.voids if revealed is None else view.voids | revealed
    known = np.zeros((n, players), U64) if known is None else known
    unseen = view.unseen & ~np.bitwise_or.reduce(known, axis=1)
    others = (seat[:, None] + 1 + np.arange(players - 1)) % players  # [n, P - 1]
    counts = (dealt_each[:, None] - played[rows[:, None], others]
              - popcount(known[rows[:, None], others]).astype(np.int64))
    seat_voids = voids[rows[:, None], others]
    aside = popcount(unseen).astype(np.int64) - counts.sum(axis=1)
    if aside.any():  # the cards dealt to nobody: one more hidden seat
        counts = np.concatenate([counts, aside[:, None]], axis=1)
        seat_voids = np.concatenate([seat_voids, np.zeros((n, 1), np.uint8)], axis=1)
    hidden = deal_hidden(unseen, counts, seat_voids, view.deck, k, keys)
    out = np.empty((n, k, players), dtype=U64)
    out[rows, :, seat] = view.hand[:, None]
    for j in range(players - 1):
        out[rows, :, others[:, j]] = hidden[:, :, j] | known[rows, others[:, j]][:, None]
    return out | shown[:, None, :]


def played_by(view) -> np.ndarray:
    """uint64[n, P]: the cards each seat has played this hand, this trick's too (a
    `PlayView`)."""
    n, players = view.tricks.shape
    rows = np.arange(n)
    shown = view.shown.copy()  # the cards of the earlier tricks, by seat
    for q in range(view.position):  # this trick's cards, by seat
        who = (view.leader.astype(np.intp) + q) % players
        shown[rows, who] |= BIT[view.trick_cards[:, q]]
    return shown


def deal_view_copies(view, k: int, keys: np.ndarray, revealed: np.ndarray | None = None,
                     known: np.ndarray | None = None) -> np.ndarray:
    """`deal_view` with two decks (RULES.md §4.7, ``view.deck.copies = 2``): uint64[n, k, P, 2],
    the hands as dealt, each seat's cards ([..., 0]) and those it holds both copies of ([...,
    1]). The copies unseen are two of each card less those the seat holds (``view.hand``,
    ``view.twice``) and those played (`copies_played`: the view's ``played`` holds only the cards
    of which no copy is left); dealt by `deal_hidden` over the copies. ``known``: the copies a
    seat held as dealt (uint64[n, P], one of each card: the cards passed to it, RULES.md §4.5;
    or uint64[n, P, 2] as `add_copies` holds them: its face-up cards, §4.1), played since or
    not: the copies it has not played (`sub_copies`) are dealt to it, the others as the
    rest."""
    n, players = view.tricks.shape
    rows = np.arange(n)
    seat = view.seat.astype(np.intp)
    shown = copies_played(view)  # [n, P, 2]
    own = np.stack([view.hand, view.twice], axis=1)
    others = (seat[:, None] + 1 + np.arange(players - 1)) % players
    held = np.zeros((n, players - 1, 2), U64)  # the known copies still held, by hidden seat
    if known is not None:
        held = sub_copies(as_copies(known)[rows[:, None], others], shown[rows[:, None], others])
    gone = own
    for q in range(players):
        gone = add_copies(gone, shown[:, q])
    for j in range(players - 1):
        gone = add_copies(gone, held[:, j])
    full = view.deck.full_mask
    unseen = np.stack([full & ~gone[:, 1], full & ~gone[:, 0]], axis=1)
    played = popcount(shown).sum(axis=2, dtype=np.int64)  # [n, P]
    dealt_each = popcount(own).sum(axis=1, dtype=np.int64) + played[rows, seat]
    counts = (dealt_each[:, None] - played[rows[:, None], others]
              - popcount(held).sum(axis=2, dtype=np.int64))
    voids = view.voids if revealed is None else view.voids | revealed
    hidden = deal_hidden(unseen, counts, voids[rows[:, None], others], view.deck, k, keys)
    out = np.empty((n, k, players, 2), dtype=U64)
    out[rows, :, seat] = own[:, None]
    for j in range(players - 1):
        out[rows, :, others[:, j]] = add_copies(hidden[:, :, j], held[:, None, j])
    return add_copies(out, shown[:, None])


def copies_played(view) -> np.ndarray:
    """uint64[n, P, 2]: with two decks, the cards each seat has played this hand (this trick's
    too), and those of which it played both copies."""
    n, players = view.tricks.shape
    rows = np.arange(n)
    slots = np.concatenate([view.history, view.trick_cards], axis=1)
    seats = np.concatenate([view.history_seats, (view.leader[:, None].astype(np.intp)
                                                 + np.arange(view.position)) % players], axis=1)
    out = np.zeros((n, players, 2), dtype=U64)
    for q in range(slots.shape[1]):
        card, who = BIT[slots[:, q]], seats[:, q].astype(np.intp)
        out[rows, who, 1] |= out[rows, who, 0] & card
        out[rows, who, 0] |= card
    return out


def as_copies(cards: np.ndarray) -> np.ndarray:
    """uint64[..., 2]: two decks' cards as `add_copies` holds them, from one copy of each
    (uint64[n, P]) or already so (uint64[n, P, 2], returned as is)."""
    if cards.ndim == 3:
        return cards
    return np.stack([cards, np.zeros_like(cards)], axis=-1)


def sub_copies(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """uint64[..., 2]: the copies of ``a`` left when those of ``b`` are taken out (uint64[...,
    2] each, as `add_copies` holds them; a card ``b`` holds more often than ``a`` leaves
    none)."""
    return np.stack([(a[..., 0] & ~b[..., 0]) | (a[..., 1] & ~b[..., 1]),
                     a[..., 1] & ~b[..., 0]], axis=-1)


def add_copies(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """uint64[..., 2]: two decks' cards ``a`` and ``b`` (uint64[..., 2]: the cards, and those
    twice) together, where they hold no card three times."""
    return np.stack([a[..., 0] | b[..., 0], a[..., 1] | b[..., 1] | (a[..., 0] & b[..., 0])],
                    axis=-1)


def split_copies(dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(the hands uint64[N, P], the cards held twice uint64[N, P] or None) of deals as
    `deal_view` makes them: uint64[N, P] with one deck, uint64[N, P, 2] with two."""
    return (dealt, None) if dealt.ndim == 2 else (dealt[..., 0], dealt[..., 1])


def deal_unseen(view, players: int, k: int, keys: np.ndarray,
                known: np.ndarray | None = None) -> np.ndarray:
    """uint64[n, k, P]: ``k`` deals per row, before the play, of every card but the seat's own
    (``view.hand``) to the other ``players - 1`` seats, as many each as it holds, uniformly; the
    cards left over (dealt to nobody: Norwegian whist, RULES.md §2) to one more hidden "seat",
    left out of the deal; ``known`` (uint64[n, P]): cards another seat surely holds (Spades'
    face-up cards, §4.1), given to it. A row's deals a function of its key (``keys``
    uint64[n]). Two decks (RULES.md §4.7): uint64[n, k, P, 2] (`deal_view_copies`), the seat's
    cards held twice ``view.twice``; ``known`` one copy of each card (uint64[n, P]) or the
    copies (uint64[n, P, 2], `as_copies`)."""
    n = len(view)
    rows, seat = np.arange(n), view.seat.astype(np.intp)
    others = (seat[:, None] + 1 + np.arange(players - 1)) % players
    if view.deck.copies == 2:
        full, own = view.deck.full_mask, np.stack([view.hand, view.twice], axis=1)
        held = np.zeros((n, players - 1, 2), U64)  # the known copies, by hidden seat
        if known is not None:
            held = as_copies(known)[rows[:, None], others]
        gone = own
        for j in range(players - 1):
            gone = add_copies(gone, held[:, j])
        unseen = np.stack([full & ~gone[:, 1], full & ~gone[:, 0]], axis=1)
        counts = (popcount(own).sum(axis=1, dtype=np.int64)[:, None]
                  - popcount(held).sum(axis=2, dtype=np.int64))
        hidden = deal_hidden(unseen, counts, np.zeros(counts.shape, np.uint8), view.deck, k,
                             keys)
        out = np.empty((n, k, players, 2), dtype=U64)
        out[rows, :, seat] = own[:, None]
        for j in range(players - 1):
            out[rows, :, others[:, j]] = add_copies(hidden[:, :, j], held[:, None, j])
        return out
    held = popcount(view.hand).astype(np.int64)
    known = np.zeros((n, players), U64) if known is None else known
    known_others = known[rows[:, None], others]  # [n, P - 1]
    unseen = view.deck.full_mask & ~view.hand & ~np.bitwise_or.reduce(known_others, axis=1)
    counts = held[:, None] - popcount(known_others).astype(np.int64)
    aside = popcount(unseen).astype(np.int64) - counts.sum(axis=1)
    if aside.any():
        counts = np.concatenate([counts, aside[:, None]], axis=1)
    hidden = deal_hidden(unseen, counts, np.zeros(counts.shape, np.uint8), view.deck, k, keys)
    out = np.empty((n, k, players), dtype=U64)
    out[rows, :, seat] = view.hand[:, None]
    for j in range(players - 1):
        out[rows, :, others[:, j]] = hidden[:, :, j] | known_others[:, j, None]
    return out


def candidates(view) -> np.ndarray:
    """uint64[n, C]: the legal cards worth searching, one of each class of equal cards (cards of
    one suit with no card between them still unplayed to an earlier trick (nor, at two players,
    among the seat's discards), RULES.md §0: they
    take the same tricks; a card of equal rank to another, §4.2 ``jokers_first_wins``, only
    with its equals: `_alike`), the lowest of each; 0 pads. With two decks (§4.7) every legal
    card: of two copies in a trick the first or last wins, or they cancel; so too under
    §4.2's jokes_win (`none_equal`)."""
    legal = view.legal
    if none_equal(view):  # (every legal card)
        return _listed(legal.copy(), len(view))
    alive = _alive(view)
    keep = np.zeros_like(legal)
    rest = legal.copy()
    for _ in range(_MAX_CANDIDATES):
        if not rest.any():
            break
        card = lowest_bit(rest)
        rest &= ~card
        below = alive & (card - U64(1)) & view.deck.suit_mask_of_bit[_slot(card)]
        lower = highest_bit(below)
        equal = (card != 0) & ((lower & legal) != 0) & _alike(card, lower, view.deck)
        keep |= np.where(equal, U64(0), card)
    return _listed(keep, len(view))


def none_equal(view) -> bool:
    """Whether no two cards of the view's deck take the same tricks whatever the others hold, so
    that every legal card is a candidate: two decks (RULES.md §4.7: of two copies in a trick the
    first or the last wins, or both cancel) and §4.2 ``trump_order = "jokes_win"`` (a joker
    turns its side's cards in the trick into joke trumps, each just below the natural spade of
    its rank: two cards of one suit with no card left between them are split by a spade as
    joke trumps, and two spades by a joke trump; the engine resolves such tricks, `resolve`)."""
    return view.deck.copies == 2 or getattr(view.rules, "trump_order", None) == "jokes_win"


def _listed(keep: np.ndarray, n: int) -> np.ndarray:
    """uint64[n, C]: the cards of ``keep`` (uint64[n], changed), one a column, lowest first; 0
    pads."""
    width = max(int(popcount(keep).max(initial=0)), 1)
    out = np.zeros((n, width), dtype=U64)
    for c in range(width):
        out[:, c] = lowest_bit(keep)
        keep &= ~out[:, c]
    return out


def own_class(view, own: np.ndarray, cands: np.ndarray) -> np.ndarray:
    """uint64[n, 1]: the candidate of ``cands`` that stands for the card ``own`` (the lowest of
    its class of equal cards, `candidates`; two decks, jokes_win: itself, `none_equal`)."""
    if none_equal(view):
        return own[:, None].copy()
    alive = _alive(view)
    card = own.copy()
    for _ in range(_MAX_CANDIDATES):  # down the run of equal legal cards
        below = alive & (card - U64(1)) & view.deck.suit_mask_of_bit[_slot(card)]
        lower = highest_bit(below)
        card = np.where(((lower & view.legal) != 0) & _alike(card, lower, view.deck), lower,
                        card)
    return card[:, None]


def _alive(view) -> np.ndarray:
    """uint64[n]: the cards not yet out of play (this trick's included): not played, and at two
    players not among the seat's discards, which nobody holds (RULES.md §4.7)."""
    alive = view.deck.full_mask & ~view.played
    discards = getattr(view, "discards", None)
    return alive if discards is None else alive & ~discards


def _alike(card: np.ndarray, lower: np.ndarray, deck) -> np.ndarray:
    """bool[n]: whether two adjacent cards (one-card bitboards, ``lower`` the next unplayed card
    below ``card`` in its suit) may be of one class of equal cards: not where one of them is of
    equal rank to another card (the deck's ``equal`` masks, RULES.md §4.2 ``jokers_first_wins``:
    the first of them played wins) and the other is not of its group. Two jokers of equal rank
    are then one class, and the A of spades below them its own: a joker played first beats the
    other, the ace never does."""
    out = np.ones(card.shape, dtype=bool)
    for group in deck.equal:
        out &= ((card & U64(group)) != 0) == ((lower & U64(group)) != 0)
    return out


def _slot(card: np.ndarray) -> np.ndarray:
    """int[n]: the slot of a one-card bitboard (0 for none)."""
    return np.bitwise_count(np.maximum(card, U64(1)) - U64(1)).astype(np.intp)
