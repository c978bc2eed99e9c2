"""``search``: a Spades player that decides each card by Monte Carlo over the deals it cannot see
(issue 21 item 1).

At a card of the play (RULES.md §0, §3), for every row of the batch at once:

1. **Samples.** Deals of the unseen cards to the other P - 1 seats, uniform among the deals
   consistent with what the seat has seen (`strategies.sampling.deal_hidden`): its own hand,
   the cards played, each seat's number of cards left, the suits each has shown void in
   (`sim.views.PlayView.voids`) and what the lead rule reveals (`revealed_voids`: a spade led
   while spades may not be led unless the leader holds nothing else, RULES.md §3
   ``spades_broken``, shows the leader held only spades). Then the bids: ``pool`` times as many
   deals are drawn as are kept, each weighted by ``exp(-bid_weight x misfit)``, the misfit the
   tricks by which the bids the ``rollout`` strategy would have made with the deal's hands, at
   each seat's turn (`sim.spades.bidding.bid_view`), miss the bids made (`bid_misfit`), and
   ``samples`` of them are drawn by weight (with replacement): deals that fit the bidding count
   more, without trusting the bidding model blindly (``bid_weight = 0`` or ``pool = 1``: the
   uniform deals).
2. **Rollouts.** Each sample's deal (the hands as dealt: the cards left and those each seat
   played) is replayed by the engine up to this card (`sim.spades.hand.play_setup`, whose
   `PlaySetup.follow` checks every card played so far as the engine checks a strategy's: a deal
   that could not have been played so is refused, not searched), and copied once per candidate
   card; the candidate is played and the hand played out by the ``rollout`` strategy at every
   seat through the engine's own trick play (`PlaySetup.finish`) — rows x samples x candidates
   on the batch axis, one numpy batch. Cards of one suit with no unplayed card between them
   (the candidates are equal: RULES.md §0 ranks, nothing of the deal can tell them apart) are
   searched once, by the lowest.
3. **Value.** Each finished hand is scored by the engine (`sim.spades.scoring`, the phases after
   the play), so nil, sets and bags count as the rules say; the value of a candidate on a deal
   is the seat's side's points minus the opponents', with the bag penalty replaced by a price
   per bag taken (``bag_price``; default the rules' ``bag_penalty / bag_limit``: what a bag
   costs a game on average, as `bench/expert_match.py` prices it; in a game of one hand,
   ``max_hands = 1`` as under ``spades.openspiel``, the hand's points as the rules score them,
   the penalty included: no later hand pays for a bag), each side's bags priced on its own
   count (RULES.md §3, §4.7: a player without partners is a side). With more than two
   sides (three players, cutthroat, five, six in three pairs or alone: RULES.md §4.7) the
   opponents' points are the mean of the other sides': a game is won by outscoring every other
   side, and a point taken from any one of them counts the same, 1 / (S - 1) of one's own; the
   mean keeps the value linear in the points (so paired differences over deals are plain
   means, as with two sides) and zero-sum over the table, and it is the figure
   `bench/table_matches.py` reports. The margin over the best of the others (closer to a
   game's chance when one side leads) was not taken: it is not linear, and from 0-0 every side
   is as likely to be the best. With two sides it is the other side's points, as before.
4. **Choice.** Every candidate of a row is played out on the same deals, so each is compared
   with the rollout strategy's own card deal by deal: the card played is the one whose mean
   paired margin over the own card, less ``confidence`` standard errors, is largest and
   positive; else the rollout strategy's card (the search changes a decision only where the
   samples show it better; ``confidence = 0``: the best mean).

**Bids** (``search_bids``): the rollout strategy's bid, one more, one less and nil (those open
to the seat) are each valued the same way: samples of the other hands (uniform, weighted by
the fit of the bids made before), the later seats' bids made by the rollout strategy
(`sim.spades.bidding.complete_bidding`), the hand played out by it and scored; chosen by the same
paired rule against the rollout strategy's own bid. A blind nil, where the rules offer one, is
valued so too against none, on deals of every hand (its own unseen: `deal_blind`), its bid
where it does not go blind the rollout strategy's (the expert never bids a blind nil itself).
The bidding of a rollout resumes at the seat's turn from what its view shows (the bids, blind
or not, the no-trump bids, the halves, the side contracts and bemos declared before it:
`sim.spades.bidding.start_bidding`); the seat's own declarations in its turn (a blind bid, a
side contract before its bid: none, as it is asked to bid; no trump, a half, a bemo, a raise
after it) are the rollout strategy's (`ForcedBid`, `BlindNil`).
A card with one legal choice, or whose legal cards are all equal, is the rollout strategy's,
unsearched.

Parameters: ``samples`` (K, the deals per decision), ``rollout`` (the name of the strategy that
plays the rollouts, and bids), ``bag_price`` (-1: the rules' own), ``pool`` and ``bid_weight``
(the bids' weight on the samples), ``confidence``, ``budget`` (the most rollouts, samples x
candidates, a decision may use: with more candidates the row takes fewer samples, at least
``min_samples``), ``first_trick`` (the first trick searched, 0-based; earlier cards are the
rollout strategy's). ``samples``, ``budget`` and ``first_trick`` trade strength for speed.

It plays every key of RULES.md §3 at four players in partnerships and at the tables of §4.7
without partners: three players (17 cards each, the 2C out), cutthroat (four players, each his
own side) and five (10 each, the 2D and 2H out). There a nil is one player's alone: nobody
covers it and every other player may attack it, which the rollouts play out (the expert's nil
play and attack), and nil is one of the bids searched. Six players with one deck (``deck =
"no_twos"``, 8 each) it plays too, in three pairs, two threes or alone (the sampler deals to
five hidden seats; the value of three sides is as above, of two as at four players), and the
tables of two decks (§4.7: six players with ``deck = "double_minus_2c"``, the ``spades.six``
preset, or ``"double_jokers"``, either ``duplicate_wins``; ``cancel_spades`` at six and eight
players, its identical cards cancelling): the sampler deals the copies unseen, two of each
card less those held and played, uniformly as two shuffled decks deal them
(`strategies.sampling`, `strategies.card_search.deal_view_copies`: the views hold which cards
the seat holds twice, the cards played are counted from the history), and every legal card
is a candidate (of two copies in a trick the first or the last wins, or both cancel: no two
cards are equal whatever the others hold). At four
players it plays the jokers and trump orders of §4.2 whose cards rank as they lie in the deck's
layout (`ranks_by_bits`: ``spades.jokers``, bowers, deuces high ...): equal cards are then a
run of one suit, and a joker or a left bower is a spade to the sampler as to the engine; two
jokers of equal rank (``jokers_first_wins``, the first played winning) are one class of their
own, the AS below them not of it (`strategies.card_search.candidates`); under ``jokes_win``
(a joker turns its side's cards in the trick into joke trumps, ``jokes_tie`` breaking ties)
every legal card is a candidate (`strategies.card_search.none_equal`: as joke trumps two cards
next in their suit are split by a spade) and the engine's own resolution plays the rollouts
(the plug-in's ``resolve``, `strategies.search_rules.played_house_rules`). Two players, who draw
their hands (§4.7, any ``draw_mode``), it plays with deals of the opponent's hand drawn as the
draw makes it likely (`strategies.draw_deals`: he keeps the better card of each pair, as the
seed and the expert draw; the seat's own discards, shown in its views, are nobody's), its own
draws and blind nils the rollout strategy's. It refuses six
players with one deck and jokers or a kitty and the other keys of §4.7 (the last card left
undealt at three, jokers at other tables) (`strategies.search_rules`), naming them. Of the
house rules of §4 (the plug-ins of `sim.spades.house`) it plays at every one of these tables
those it need not know to play: a rule whose parts are only
the score's (contracts scored otherwise, trick bonuses, the bag rules, the game's end: §4.6,
§4.8) or the open bids' (§4.4's bid minimums and bans: ``fledu``, ``min_team_bid``,
``suicide``, ``whiz``, ``mirror``, ``hook``; one joint bid per side, ``partnership_bidding``,
its bidders' bids weighing the deals as any bid does), since its rollouts are scored by
the engine's own phases and bid among the bids the engine opens (`PLAYED_PARTS`; a progressive bonus too,
§4.6 ``seven_plus = "progressive"`` and ``highlander``: the views show each side's count of
bonuses earned, which the rollouts' score pays on, `progressive_of`), ``bag_cancel_card``, named
or cut per deal (the views show its card, given to the rollouts' hands: `cancel_card`) and
``face_up_cards`` (§4.1: the face-up cards dealt to their holders in every deal,
`face_up_held`; with two decks a copy dealt twice face up shown twice) and ``pass_cards`` or
``nil_pass`` (§4.5, one of the two: the cards the seat
passed dealt to their receiver, `passed_held`, in the deals of its
cards and, after an exchange before the bids, of its bids; at two players the cards passed to
it counted among those the opponent drew, `strategies.draw_deals`), and the side
contracts and bemos of §4.4 (team nil, Mo, ten for 200, blind six, bemo, blind moon: the cards
searched, valued by the engine's score of the contracts declared; the bids and blind nils
searched too, the bidding resumed at the seat's turn with the contracts and bemos declared
before it, the seat's side having declared none before its bid; its declarations the rollout
strategy's, or with ``search_contracts`` by rollouts from the turn's start too,
`_choose_contract`: off by default, no gain measured) and ``blind_bids``, ``bid_raise``,
``no_trump_bids`` and ``half_trick_bids`` (the
bids and blind nils searched, and the answers after its bid in its turn, no trump and a half,
`_choose_flag`, a blind bid, looking first or each bid open, `_choose_blind_bid`, and a
raise, the round resumed at the seat, `_choose_raise`; the views of the play show
the halves, `sim.views.PlayView.half`; the no-trump
seats' deals fit to the play and to the spade they held, `_fit`); under all of these the bids
do not weigh the deals, `bids_unweighed`; and §4.1's
``redeal_poor_hands`` (no deal searched holds a hand the rollout strategy
would have called a misdeal on, `_misdeals`, nor do those of its bids and blind nils,
`_dealt_fit`; with two decks a spade held twice counts two);
the passed cards with two decks too (one copy each, `deal_view_copies`) and at two players
after the draw (`strategies.draw_deals`), the face-up cards with two decks too; face-up cards
and an exchange together with one deck (a face-up card is then its holder's or his
receiver's: drawn per deal as a uniformly random choice of the cards passed makes it likely,
`strategies.face_up_deals`; refused with two decks). It refuses the rest, named: a rule that
asks a decision of its own (a bidding turn, an auction) or exchanges cards twice (§4.5). A hand
that wins the game at
once (§4.4 ``moon``, ``lexington``, ``blind_moon``, a double blind nil that wins) is valued as
one that reaches the target score (`won_at_once`). Of §4.3 it plays the rules that narrow the
legal cards or name the first leader (``must_trump``, ``must_overtrump``,
``no_spade_lead_first_trick``, ``lead_ace_of_spades``, ``first_lead``, ``first_trick_clubs``,
``first_trick_lowest_club``): the deals drawn are replayed by the engine and only those the
cards played could have come from are kept (`SearchStrategy._fit`; the dealer is the view's,
`dealer_of`).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import replace

import numpy as np

from sim.cards import BIT, U64, popcount
from sim.lineup import Lineup
from sim.phases import Seating, play_hand
from sim.spades import house
from sim.spades.bidding import BidResult, bid_view, complete_bidding, start_bidding
from sim.spades.hand import pipeline, play_setup, start_hand
from sim.spades.passing import receiver_offset
from sim.spades.redeal import poor_hands, redeal_view
from sim.streams import rows_of
from sim.views import PlayView

from .base import param, register
from .card_search import CardSearch, add_copies, after, deal_unseen, deal_view, side_margin, split_copies
from .draw_deals import KEPT, deal_view_drawn, exchanged, levels_of, their_seen
from .face_up_deals import deal_each, exchange_made, face_up_held, face_up_holders
from .forced_answers import (
    BEMO_STAGE,
    BLIND_STAGE,
    Answering,
    BlindBid,
    BlindNil,
    Declaring,
    ForcedBid,
    Raising,
    before_turn,
    contract_stage,
)
from .sampling import deal_hidden, random_bits
from .search_rules import (
    bids_unweighed,
    play_constrained,
    refusal,
)
from .seed import SeedStrategy

__all__ = ["SearchStrategy", "revealed_voids"]

_SEEN_KEYS = 11  # the random stream keying `seen_of`'s draws by the deal (`random_bits`)


@register
@dataclasses.dataclass(frozen=True, kw_only=True)
class SearchStrategy(CardSearch):
    """Monte Carlo search over the unseen cards, rollouts by ``rollout`` (module docstring)."""

    name = "search"
    games = ("spades",)

    # (and the parameters of `CardSearch`: samples, rollout, budget, min_samples, first_trick,
    # confidence)
    bag_price: float = param(-1.0, (-1.0, 1000.0))  # points per bag taken; -1: penalty / limit
    #                                                (one-hand game: the rules' own score)
    pool: int = param(4, (1, 64))  # deals drawn per sample kept (resampled by the bids)
    bid_weight: float = param(1.0, (0.0, 100.0))  # a deal's weight: exp(-bid_weight x the
    #                                               tricks its hands' bids miss the real ones by)
    search_bids: bool = True  # bids by rollouts too (else the rollout strategy's)
    search_contracts: bool = False  # §4.4's side contracts and bemos by rollouts too (off: no
    #                                 gain measured over the expert's, BENCHMARKS.md)

    @classmethod
    def refuse(cls, rules) -> str | None:
        """The rules it does not play, in one line (`strategies.search_rules.refusal`)."""
        return refusal(rules)

    def blind_nil(self, view, rng):
        """The rollout strategy's decision, or with ``search_bids`` the better of a blind nil
        and none (module docstring, "Bids"): on deals of every hand, its own too (it has not
        looked), each followed by the bidding (its own bid, where not blind, and the later
        turns the rollout strategy's) and the hand played out by the rollout strategy."""
        own = np.asarray(self.policy.blind_nil(view, rng), dtype=bool)
        if (not self.search_bids or not len(view)
                or view.rules.players == 2):  # (two players drew their hands: not blind)
            return own
        return self._chunked(view, rng, own, self._choose_blind)

    def _choose_blind(self, view, rng, keys, own) -> np.ndarray:
        yes_no = np.ones((len(view), 2), bool)  # candidate 0: no blind nil; 1: one
        best = self._by_rollouts(view, rng, keys, yes_no, own.astype(np.intp), blind=True,
                                 forcing=lambda i, c: BlindNil(self.policy, view.seat[i], c == 1))
        return best == 1

    def draw(self, view, rng):
        """Keeping the first card drawn or the second (two players, RULES.md §4.7): the
        rollout strategy's, not searched."""
        return self.policy.draw(view, rng)

    def pass_cards(self, view, rng):
        """The cards to pass (RULES.md §4.5 ``pass_cards``, ``nil_pass``): the rollout
        strategy's, not searched."""
        return self.policy.pass_cards(view, rng)

    def side_contract(self, view, rng):
        """A side contract or bemo (RULES.md §4.4): the rollout strategy's, or with
        ``search_contracts`` the best of the codes open (`_choose_contract`)."""
        own = np.asarray(self.policy.side_contract(view, rng), dtype=np.int8)
        if not self.search_contracts or not len(view) or view.rules.players == 2:
            return own
        return self._chunked(view, rng, own, self._choose_contract)

    def _choose_contract(self, view, rng, keys, own) -> np.ndarray:
        """Each code open (none among them) valued by rollouts from the turn's start on the same
        deals (before looking, `deal_blind`, for a contract declared blind), the seat declaring
        it at the stage it is asked at (`Declaring`: none at the stages before; a bemo after
        its bid as made, and its answers after the bid as made); the paired rule against the
        rollout strategy's code."""
        stage = contract_stage(view)
        if not (stage == stage[0]).all():  # (the engine asks one stage at a time)
            raise ValueError("side contracts of several stages asked at once")
        codes = np.arange(16)
        open_ = (view.legal[:, None].astype(np.int64) >> codes) & 1 == 1
        rows, seat = np.arange(len(view)), view.seat.astype(np.intp)
        start, made, answers = view, None, {}
        if stage[0] == BEMO_STAGE:  # (after its bid: the turn replayed from its start)
            start, made = before_turn(view), view.bids[rows, seat]
            answers = {name: getattr(view, field)[rows, seat]
                       for name, field in (("half_bid", "half"), ("no_trump", "no_trump"))
                       if getattr(view, field, None) is not None}

        def forcing(i, c):
            return Declaring(self.policy, view.seat[i], c.astype(np.int8), int(stage[0]),
                             None if made is None else made[i],
                             {name: answer[i] for name, answer in answers.items()})

        best = self._by_rollouts(view, rng, keys, open_, own.astype(np.intp), forcing,
                                 blind=stage[0] == BLIND_STAGE, start=start)
        return best.astype(np.int8)

    def blind_bid(self, view, rng):
        """A bid of 1..7 before looking (RULES.md §4.4 ``blind_bids``; 0: it looks first): the
        rollout strategy's, or with ``search_bids`` the best of looking first and each blind
        bid open (`_choose_blind_bid`)."""
        own = np.asarray(self.policy.blind_bid(view, rng), dtype=np.int8)
        if not self.search_bids or not len(view) or view.rules.players == 2:
            return own
        return self._chunked(view, rng, own, self._choose_blind_bid)

    def _choose_blind_bid(self, view, rng, keys, own) -> np.ndarray:
        """Each answer (0: looking first, then bidding as the rollout strategy; 1..7 where open:
        that bid, blind) valued by rollouts on deals of every hand, its own too (it has not
        looked, `deal_blind`), from the turn's start (`BlindBid`), as a blind nil is; chosen
        by the paired rule against the rollout strategy's answer."""
        answers = np.arange(8)  # (the answer is its own index)
        open_ = (answers == 0) | ((view.legal[:, None].astype(np.int64) >> answers) & 1 == 1)
        best = self._by_rollouts(
            view, rng, keys, open_, own.astype(np.intp), blind=True,
            forcing=lambda i, c: BlindBid(self.policy, view.seat[i], c.astype(np.int8)))
        return best.astype(np.int8)

    def raise_bid(self, view, rng):
        """Raising the bid by one (RULES.md §4.4 ``bid_raise``, a round after every bid): the
        rollout strategy's, or with ``search_bids`` the better of raising and not
        (`_choose_raise`)."""
        own = np.asarray(self.policy.raise_bid(view, rng), dtype=bool)
        if not self.search_bids or not len(view):
            return own
        return self._chunked(view, rng, own, self._choose_raise)

    def _choose_raise(self, view, rng, keys, own) -> np.ndarray:
        """Raising and not each valued by rollouts on the same deals, the round resumed at the
        seat: the bids as they stand (the raises before it made), the seats before it in the
        round raising no more, the seat answering as the candidate says, those after it as
        the rollout strategy (`Raising`); chosen by the paired rule against its answer."""
        players = view.bids.shape[1]
        place = (view.seat.astype(np.intp) - view.dealer - 1) % players  # its place in the round
        best = self._by_rollouts(
            view, rng, keys, np.ones((len(view), 2), bool), own.astype(np.intp),
            lambda i, c: Raising(self.policy, view.seat[i], c == 1, place[i]))
        return best == 1

    def half_bid(self, view, rng):
        """Adding a half to the bid (RULES.md §4.4 ``half_trick_bids``): the rollout strategy's,
        or with ``search_bids`` the better of a half and none (`_choose_flag`)."""
        return self._flag("half_bid", view, rng)

    def no_trump(self, view, rng):
        """Making the bid "no trump" (RULES.md §4.4 ``no_trump_bids``): the rollout strategy's,
        or with ``search_bids`` the better of no trump and trumps (`_choose_flag`)."""
        return self._flag("no_trump", view, rng)

    def _flag(self, decision: str, view, rng) -> np.ndarray:
        own = np.asarray(getattr(self.policy, decision)(view, rng), dtype=bool)
        if not self.search_bids or not len(view):
            return own
        return self._chunked(view, rng, own, functools.partial(self._choose_flag, decision))

    def _choose_flag(self, decision: str, view, rng, keys, own) -> np.ndarray:
        """A yes-or-no decision of the seat's turn after its bid (``decision``: §4.4's
        ``half_bid`` or ``no_trump``), each answer valued by rollouts as a bid is (on the same
        deals): the bidding resumed at the seat's turn with the bids before it, the seat bidding
        what it bid and answering as the candidate says (its earlier answers of the turn as
        made: a half before no trump, `Answering`), the later turns and the hand the rollout
        strategy's; chosen by the paired rule against the rollout strategy's answer."""
        rows, seat = np.arange(len(view)), view.seat.astype(np.intp)

        def forcing(i, c):
            answers = {decision: c == 1}  # (candidate 0: no; 1: yes)
            if decision == "no_trump" and view.half is not None:  # (asked before no trump)
                answers["half_bid"] = view.half[rows, seat][i]
            return Answering(self.policy, view.seat[i], view.bids[rows, seat][i], answers)

        best = self._by_rollouts(view, rng, keys, np.ones((len(view), 2), bool),
                                 own.astype(np.intp), forcing, start=before_turn(view))
        return best == 1

    def redeal(self, view, rng):
        """Calling a misdeal on a poor hand (RULES.md §4.1 ``redeal_poor_hands``): the rollout
        strategy's."""
        return self.policy.redeal(view, rng)

    def _misdeals(self, hand, at) -> np.ndarray:
        """bool[N]: whether some seat of each hand state holds a poor hand (§4.1,
        `sim.spades.redeal.poor_hands`) on which the rollout strategy, asked as the engine asks
        (`sim.spades.redeal.redeal_view`), calls a misdeal."""
        rules, deck, hands = at.rules, at.deck, hand.hands
        poor = poor_hands(hands, rules, deck, hand.twice if deck.copies == 2 else None)
        called = np.zeros(len(hands), dtype=bool)
        for seat in range(hands.shape[1]):
            ask = np.flatnonzero(poor[:, seat])
            if ask.size:
                view = redeal_view(hands, seat, hand.dealer, hand.scores, hand.bags, rules, deck,
                                   ask)
                called[ask] |= np.asarray(self.policy.redeal(view, rows_of(at.rng, ask)), bool)
        return called

    def _dealt_fit(self, view, deals: np.ndarray, rng) -> np.ndarray | None:
        """bool[n, M]: under §4.1 ``redeal_poor_hands``, which deals (uint64[n, M, P] as dealt;
        two decks [n, M, P, 2]) drawn for a bid or a blind nil (a `BidView`, a `BlindView`)
        could have been played: those in which no seat holds a hand the rollout strategy would
        have called a misdeal on (`_misdeals`; the misdeals are called before the bids, so the
        deal bid on holds none); None under other rules (every deal could)."""
        if not view.rules.redeal_poor_hands:
            return None
        n, m, players = deals.shape[:3]
        rows = np.repeat(np.arange(n), m)
        at = Seating(view.rules, view.deck, Lineup([self.policy] * players), rows_of(rng, rows))
        dealt, twice = split_copies(deals.reshape((n * m,) + deals.shape[2:]))
        hand = start_hand(dealt, view.dealer[rows], view.scores[rows], view.bags[rows],
                          twice=twice)
        return ~self._misdeals(hand, at).reshape(n, m)

    def bid(self, view, rng):
        """The rollout strategy's bid, or with ``search_bids`` the bid of best value among it,
        one more, one less and nil (those open to the seat), each followed by the rollout
        strategy's bids at the later turns and the hand played out by it (module docstring,
        "Bids")."""
        own = np.asarray(self.policy.bid(view, rng), dtype=np.int8)
        if not self.search_bids or not len(view):
            return own
        return self._chunked(view, rng, own, self._choose_bid)

    def _choose_bid(self, view, rng, keys, own) -> np.ndarray:
        n = len(view)
        shifts = np.stack([own, own - 1, own + 1, np.zeros_like(own)], axis=1).astype(np.int64)
        open_ = ((view.legal[:, None].astype(np.int64) >> np.clip(shifts, 0, 31)) & 1) == 1
        open_ &= (shifts >= 0) & (shifts <= 31)
        for c in range(1, 4):  # each bid once
            open_[:, c] &= np.all(shifts[:, :c] != shifts[:, c:c + 1], axis=1)
        best = self._by_rollouts(view, rng, keys, open_, np.zeros(n, np.intp),
                                 lambda i, c: ForcedBid(self.policy, view.seat[i], shifts[i, c]))
        return shifts[np.arange(n), best].astype(np.int8)

    def _by_rollouts(self, view, rng, keys, open_, own, forcing, *, blind: bool = False,
                     start=None) -> np.ndarray:
        """intp[n]: the candidate chosen at each row of a decision of the bidding (module
        docstring, "Bids"), among those ``open_`` (bool[n, C]) by the paired rule against the
        rollout strategy's (``own``, intp[n]): each valued by rollouts on the same deals of the
        hands (of every hand, the seat's too, where it decides ``blind``ly, before looking:
        `deal_blind`), the seat's decision forced to it by the lineup ``forcing(i, c)`` makes
        (the rows ``i`` of the batch and their candidates ``c``: `strategies.forced_answers`),
        the bidding resumed from the view ``start`` (the view's own by default)."""
        n = len(view)
        drawn = (deal_blind(view, self._drawn, keys) if blind
                 else self._deal_bidding(view, self._drawn, keys))
        deals = self._deals(view, keys, rng, drawn, self._dealt_fit(view, drawn, rng))
        i, s, c = np.nonzero(np.ones((n, self.samples), bool)[:, :, None] & open_[:, None, :])
        values = np.full((n, self.samples, open_.shape[1]), np.nan)
        values[i, s, c] = self._bid_rollouts(view if start is None else start, deals[i, s], i,
                                             forcing(i, c), rng)
        return self._best(values, np.full(n, self.samples), open_, own)

    def _bid_rollouts(self, view, hands, i, forced, rng) -> np.ndarray:
        """float64[len(i)]: the value at row ``i`` of a `BidView` (or `BlindView`) with the deal
        ``hands`` (uint64[N, P]) of the seat's decision as ``forced`` makes it (`ForcedBid`: a
        bid; `BlindNil`: a blind nil or none), the later turns bid by the rollout strategy, the
        hand played out by it, scored by the engine (`sim.spades.hand`'s phases)."""
        rules, deck = view.rules, view.deck
        hands, twice = split_copies(hands)
        players = hands.shape[1]
        at = Seating(rules, deck, Lineup([forced] * players), rows_of(rng, i))
        dealer, scores, bags = view.dealer[i], view.scores[i], view.bags[i]
        seen = seen_of(view, hands, i, self._keep_at)
        state = start_bidding(hands, dealer, scores, bags, rules, public_of(view, i), twice,
                              bids=view.bids[i], blind=view.blind[i], seen=seen,
                              flags=None if view.no_trump is None else {
                                  "no_trump": view.no_trump[i]},  # (§4.4: bid before)
                              contracts=_rows_of(view.contracts, i), bemo=_rows_of(view.bemo, i),
                              half=_rows_of(view.half, i))  # (§4.4: the halves bid before)
        bidding = complete_bidding(state, rules, deck, at.lineup, at.rng)
        hand = replace(start_hand(hands, dealer, scores, bags, twice=twice,
                                  progressive=progressive_of(view, i),
                                  house_state=cancel_card(view, i)), bidding=bidding,
                       seen=seen)
        at = replace(at, lineup=Lineup([self.policy] * players))
        hand = play_hand(hand, at, after(pipeline(rules), "bid"))  # (an exchange of cards
        return self._value(hand, view.seat[i], rules)  # after the bids too, RULES.md §4.5)

    @property
    def _drawn(self) -> int:
        """Deals drawn per decision: ``samples``, ``pool`` times as many to weigh by the bids."""
        return self.samples * (self.pool if self.bid_weight > 0 else 1)

    @property
    def _weight(self) -> float:
        return self.bid_weight

    # -- the game's parts -------------------------------------------------------------------

    def _hand_state(self, view, dealt: np.ndarray, rows: np.ndarray, at: Seating):
        """The game's hand state of the deals ``dealt`` (uint64[N, P], the hands as dealt) of
        the view's rows ``rows``, ready for its play: what was decided before it, as the view
        shows it (Spades: the bids, `_hand_state`)."""
        return _hand_state(view, dealt, rows, self._keep_at)

    def _play_setup(self, hand, at: Seating):
        """How the hand's play runs (the game's ``play_setup``, `sim.tricks.PlaySetup`)."""
        return play_setup(hand, at)

    def _scoring(self, rules) -> tuple:
        """The phases of a hand after its play (the score)."""
        return after(pipeline(rules), "play")

    def _value(self, hand, seat, rules) -> np.ndarray:
        """float64[N]: a finished hand's value to ``seat`` (module docstring, "Value")."""
        return _value(hand.score, hand.bags, seat, rules, self.bag_price, hand.scores)

    def _deal(self, view, k: int, keys: np.ndarray) -> np.ndarray:
        """uint64[n, k, P]: deals of what the seat of a `PlayView` cannot see (`deal_view`;
        Spades: with the voids a spade lead reveals, `revealed_voids`; two players: the
        opponent's hand as the draw makes it likely, `strategies.draw_deals`)."""
        if view.rules.players == 2:
            return deal_view_drawn(view, k, keys, self._keep_at, view.voids | revealed_voids(view))
        if exchange_made(view):  # (§4.1 and §4.5: a face-up card's holder drawn per deal)
            return deal_each(view, k, keys, *_held_each(view, k, keys), deal=lambda v, ks, kn:
                             deal_view(v, 1, ks, revealed=revealed_voids(v), known=kn))
        return deal_view(view, k, keys, revealed=revealed_voids(view),
                         known=_either(face_up_held(view), passed_held(view)))

    def _deal_bidding(self, view, k: int, keys: np.ndarray) -> np.ndarray:
        """uint64[n, k, P]: deals of what the seat of a `BidView` has not seen (`deal_bidding`;
        two players: as the draw makes them likely, `strategies.draw_deals`)."""
        if view.rules.players == 2:
            return deal_view_drawn(view, k, keys, self._keep_at)
        return deal_bidding(view, k, keys)

    @property
    def _keep_at(self) -> int:
        """The value from which an opponent who sees only the first card he draws keeps it
        (two players, RULES.md §4.7): the rollout strategy's ``draw_keep_at`` (the seed's draw,
        which the expert's is), or the seed's (`strategies.draw_deals` models that draw)."""
        return getattr(self.policy, "draw_keep_at", SeedStrategy.draw_keep_at)

    def _misfit(self, view, deals: np.ndarray, rng) -> np.ndarray:
        """int[n, M]: how badly each deal explains what was said before the play (Spades: the
        bids, `bid_misfit`); the samples are drawn by ``exp(-bid_weight x misfit)``. At a card
        after an exchange of cards that followed the bids (RULES.md §4.5), 0: the bids were
        made on other hands than the deals', which the seat cannot rebuild; and 0 where side
        contracts may be declared (§4.4: the bids were made beside declarations that
        `bid_misfit`'s bidding does not hold)."""
        if isinstance(view, PlayView) and house.fills(view.rules, "pass_after_bids") \
                or bids_unweighed(view.rules):
            return np.zeros(deals.shape[:2], np.int64)
        return bid_misfit(view, deals, self.policy, rng)

    def _fit(self, view, deals: np.ndarray, rng) -> np.ndarray | None:
        """bool[n, M]: under the play rules of RULES.md §4.3 (`PLAY_PARTS`: ``must_trump``,
        ``must_overtrump``, ``no_spade_lead_first_trick``, ``lead_ace_of_spades``, ``first_lead``,
        ``first_trick_clubs``: the first leader the holder of a club; §4.2
        ``joker_high_alternate``: the highest spade to the big joker led), which deals
        (as dealt) the cards played so far could have come from, each replayed by the engine
        (`sim.tricks.PlaySetup.fits`): what a rule reveals beyond the voids (a spade too low to
        beat the trick's, a discard while holding a spade) keeps the deals that agree; None
        under the other rules, where `deal_view`'s deals all fit. Under §4.1
        ``redeal_poor_hands`` the deals in which a seat holds a hand the rollout strategy would
        have called a misdeal on (`_misdeals`) are dropped. Under §4.4 ``no_trump_bids``
        too (its no-trump seats may not trump) a "no trump" bidder held a spade when he bid
        it: the deals where he was dealt none are dropped."""
        if not (play_constrained(view.rules) or view.rules.redeal_poor_hands):
            return None
        n, m, players = deals.shape[:3]
        rows = np.repeat(np.arange(n), m)
        at = Seating(view.rules, view.deck, Lineup([self.policy] * players), rows_of(rng, rows))
        hand = _hand_state(view, deals.reshape((n * m,) + deals.shape[2:]), rows)
        setup = play_setup(hand, at)
        so_far = np.concatenate([view.history, view.trick_cards], axis=1)[rows]
        play = setup.start()
        # the first leader the rules name is the real one (§4.3 ``first_lead``: with two decks
        # the other copy of the lowest club may make another seat the leader)
        first = view.history_seats[:, 0] if view.trick_no else view.leader
        fits = ((play.leader == first[rows]) & setup.fits(play, so_far)).reshape(n, m)
        if view.rules.redeal_poor_hands:  # §4.1: no seat was left a hand it would call poor
            fits &= ~self._misdeals(hand, at).reshape(n, m)
        if view.no_trump is not None:  # (the hands as dealt: the spades bid with)
            held = deals[..., 0] if deals.ndim == 4 else deals  # (two decks: [n, M, P, 2])
            no_spade = (held & view.trump[:, None, None]) == 0
            fits &= ~(view.no_trump[:, None, :] & no_spade).any(axis=2)
        return fits


def _rows_of(field: np.ndarray | None, rows: np.ndarray) -> np.ndarray | None:
    """The rows ``rows`` of an optional view field (None: None)."""
    return None if field is None else field[rows]


def deal_blind(view, k: int, keys: np.ndarray) -> np.ndarray:
    """uint64[n, k, P]: ``k`` deals per row of the whole deck to the P seats of a `BlindView`,
    the seat's own hand too (it decides before looking), uniformly, as many cards each as the
    rules deal, the face-up cards (RULES.md §4.1, its own among them) to their holders; a row's
    deals a function of its key (``keys`` uint64[n])."""
    n, players = view.bids.shape
    if view.deck.copies == 2:  # (two decks, RULES.md §4.7: both copies of every card unseen
        full = np.full((n, 2), view.deck.full_mask, U64)  # but the face-up ones)
        counts = np.full((n, players), view.rules.cards_each, np.int64)
        known = np.zeros((n, players, 2), U64) if view.face_up is None else np.stack(
            [view.face_up, view.face_up_twice], axis=-1)  # [n, P, 2]
        gone = np.zeros((n, 2), U64)
        for seat in range(players):
            gone = add_copies(gone, known[:, seat])
        full = np.stack([full[:, 0] & ~gone[:, 1], full[:, 0] & ~gone[:, 0]], axis=1)
        counts -= popcount(known).sum(axis=2, dtype=np.int64)
        deals = deal_hidden(full, counts, np.zeros((n, players), np.uint8), view.deck, k, keys)
        return add_copies(deals, known[:, None])
    known = np.zeros((n, players), U64) if view.face_up is None else view.face_up
    full = np.full(n, view.deck.full_mask, U64) & ~np.bitwise_or.reduce(known, axis=1)
    counts = view.rules.cards_each - popcount(known).astype(np.int64)
    deals = deal_hidden(full, counts, np.zeros((n, players), np.uint8), view.deck, k, keys)
    return deals | known[:, None, :]


def passed_held(view) -> np.ndarray | None:
    """uint64[n, P]: the cards the seat to play (or to bid, after an exchange before the bids)
    passed (RULES.md §4.5, the view's ``passed``) that their receiver still holds (not yet
    played), as his: under ``pass_cards`` the seat its
    direction names, under ``nil_pass`` the partner (one exchange: with both, a card received
    may have been passed on, and the search refuses them together). With two decks (RULES.md
    §4.7) the copy passed, played since or not (which copy a seat played no view says:
    `strategies.card_search.deal_view_copies` deals it as held when dealt). None without
    passing."""
    if getattr(view, "passed", None) is None:
        return None
    players = view.bids.shape[1]
    offset = receiver_offset(view.rules, nil=bool(view.rules.nil_pass))
    rows = np.arange(len(view))
    one_deck = isinstance(view, PlayView) and view.deck.copies == 1
    gone = view.played | view.in_trick if one_deck else U64(0)
    out = np.zeros((len(view), players), U64)
    out[rows, (view.seat.astype(np.intp) + offset) % players] = view.passed & ~gone
    return out


def _either(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """The union of two optional card arrays (None: none)."""
    return b if a is None else a if b is None else a | b


def public_of(view, rows: np.ndarray) -> dict:
    """The view fields every seat sees, of the rows ``rows``, for the bidding of a rollout
    (`sim.spades.bidding.start_bidding`'s ``public``: the face-up cards, §4.1, and the
    bag-cancelling card, §4.6)."""
    return {name: getattr(view, name)[rows] for name in ("face_up", "face_up_twice",
                                                         "cancel_card")
            if getattr(view, name) is not None}


def _value(score, before, seat, rules, bag_price: float,
           scores: np.ndarray | None = None) -> np.ndarray:
    """float64[N]: the seat's side's points minus the other side's (more than two sides: minus
    the mean of the other sides', module docstring, "Value"), each side's bags counted
    (`counted_bags`, from the count ``before`` the hand) priced at ``bag_price`` (-1:
    ``bag_penalty / bag_limit``, RULES.md §3) instead of the penalty paid;
    with ``bag_price = -1`` in a game of one hand (``max_hands = 1``) the hand's own points,
    penalty included: no later hand pays for a bag. A side that won the game at once (RULES.md
    §4.4 ``moon``, ``lexington``, ``blind_moon``, a double blind nil that wins:
    ``score.wins_game``) scores at least what it lacked of the target (`won_at_once`, from the
    standing ``scores`` before the hand)."""
    if bag_price < 0 and rules.max_hands == 1:
        points = score.points.astype(np.float64)
    else:
        price = (rules.bag_penalty / rules.bag_limit if not rules.bagless else 0.0) \
            if bag_price < 0 else bag_price
        points = (score.points - score.bag_penalty - price * counted_bags(score, before, rules)
                  ).astype(np.float64)
    if scores is not None:
        points = won_at_once(points, score.wins_game, scores, rules)
    return side_margin(points, seat, rules.sides)


def won_at_once(points: np.ndarray, wins_game: np.ndarray, scores: np.ndarray,
                rules) -> np.ndarray:
    """float64[N, S]: ``points`` (each side's value of the hand) where the side ``wins_game``
    (int8[N], -1: none) won the game at once (RULES.md §4.4) raised to at least what it lacked
    of the target score (``scores`` int32[N, S], the standing before the hand): a game won is
    valued as a hand that reaches the target, the most any one hand's points can do (a reading:
    the value is the hand's margin, and no margin says more of a game that ends won). Without a
    target score (a game of so many hands) the points as scored."""
    won = np.flatnonzero(wins_game >= 0)
    if not won.size or rules.target_score is None:
        return points
    side = wins_game[won].astype(np.intp)
    lacked = np.maximum(rules.target_score - scores[won, side], 0).astype(np.float64)
    points = points.copy()
    points[won, side] = np.maximum(points[won, side], lacked)
    return points


def counted_bags(score, before: np.ndarray, rules) -> np.ndarray:
    """int[N, S]: the bags each side added to its running count this hand (RULES.md §3), from
    the count ``before`` (int32[N, S]) and after it and the penalties paid: the bags taken
    (``score.bags_taken``) less those a ``bag_cancel_card`` cancelled; none where no bag is
    counted (§4.6: ``bags_negative`` scores each -1 instead, ``no_overs``, ``three_b`` ...)."""
    times = -score.bag_penalty // rules.bag_penalty if rules.bag_penalty else 0
    return score.bags_after - before + rules.bag_limit * times


def seen_of(view, dealt: np.ndarray, rows: np.ndarray,
            keep_at: int = SeedStrategy.draw_keep_at) -> np.ndarray | None:
    """uint64[N, 2]: two players (RULES.md §4.7), the discards each seat of the deals
    ``dealt`` (uint64[N, 2], the hands as dealt) saw drawing its hand, as the rollouts' hands
    show them (`sim.spades.hand.SpadesHand.seen`): the seat's own its view's (``discards``),
    the opponent's every card neither hand holds nor the seat saw, his discards; under
    ``first_decides_blind`` those he saw of them, drawn given his hand from the posterior of his
    draw (`strategies.draw_deals.their_seen`, ``keep_at`` his; a function of the deal). None
    where the view shows none (more players, or a record without its discards)."""
    own = getattr(view, "discards", None)
    if own is None:
        return None
    own, seat = own[rows], view.seat[rows].astype(np.intp)
    n = rows.size
    seen = np.empty((n, 2), U64)
    seen[np.arange(n), seat] = own
    rest = view.deck.full_mask & ~(dealt[:, 0] | dealt[:, 1] | own)
    if view.rules.draw_mode == "first_decides_blind":
        # (§4.5: he drew the cards he passed, and holds those passed to him)
        passed, received = (cards[rows] for cards in exchanged(view))
        theirs = (dealt[np.arange(n), 1 - seat] & ~passed) | received
        pool = view.deck.full_mask & ~(dealt[np.arange(n), seat] & ~received | passed | own)
        keys = random_bits(dealt[:, 0], _SEEN_KEYS, np.zeros(1, np.int64))[:, 0] ^ dealt[:, 1]
        rest = their_seen(pool, theirs, KEPT - popcount(own).astype(np.int64),
                          levels_of(view.deck, "first_decides_blind", keep_at), keys)
    seen[np.arange(n), 1 - seat] = rest
    return seen


def _hand_state(view, dealt: np.ndarray, rows: np.ndarray,
                keep_at: int = SeedStrategy.draw_keep_at):
    """The Spades hand state (`sim.spades.hand.SpadesHand`) of the deals ``dealt`` (uint64[N,
    P], the hands as dealt; two decks uint64[N, P, 2], `split_copies`) of the view's rows
    ``rows``, bid as the view says: its dealer the view's (`dealer_of`), its bag-cancelling
    card the view's (`cancel_card`); two players, what each saw of its discards (`seen_of`,
    ``keep_at`` the opponent's draw)."""
    dealt, twice = split_copies(dealt)
    hand = start_hand(dealt, dealer_of(view)[rows], view.scores[rows], view.bags[rows],
                      progressive=progressive_of(view, rows), twice=twice,
                      house_state=cancel_card(view, rows))
    hand = replace(hand, seen=seen_of(view, dealt, rows, keep_at))
    bidding = BidResult(bids=view.bids[rows], blind=view.blind[rows],
                        contracts=None if view.contracts is None else view.contracts[rows],
                        bemo=None if view.bemo is None else view.bemo[rows],
                        flags=None if view.no_trump is None else {
                            "no_trump": view.no_trump[rows]},
                        half=None if view.half is None else view.half[rows])
    return replace(hand, bidding=bidding)


def progressive_of(view, rows: np.ndarray) -> np.ndarray | None:
    """int32[len(rows), S]: the progressive bonuses each side has earned this game (RULES.md
    §4.6), of the view's rows ``rows``, which the rollouts' score pays on; None without one."""
    return None if view.progressive is None else view.progressive[rows]


def dealer_of(view) -> np.ndarray:
    """int8[n]: the dealer of a view's hand: the view's own (Spades views show it), else (a view
    built without it) the seat before the first leader (RULES.md §3: the left of the dealer
    leads)."""
    if view.dealer is not None:
        return view.dealer
    players = view.tricks.shape[1]
    first = view.history_seats[:, 0] if view.trick_no else view.leader
    return ((first.astype(np.int16) - 1) % players).astype(np.int8)


def cancel_card(view, rows: np.ndarray) -> dict:
    """The plug-in state of the hands of the view's rows ``rows`` whose card cancels a bag
    (RULES.md §4.6 ``bag_cancel_card``, named or cut per deal: the views show its slot,
    `sim.spades.house.bag_cancel_card`'s ``cancel_card``); none without."""
    return {} if view.cancel_card is None else {"cancel_card": view.cancel_card[rows]}


def deal_bidding(view, k: int, keys: np.ndarray) -> np.ndarray:
    """uint64[n, k, P]: ``k`` deals per row of the cards the seat of a `BidView` has not seen
    (every card but its own) to the other seats, as many each as it holds, uniformly, the
    face-up cards to their holders (`face_up_held`; `strategies.card_search.deal_unseen`); a
    row's deals a function of its key (``keys`` uint64[n]). After an exchange of cards before
    the bids (RULES.md §4.5) the cards it passed to their receiver (`passed_held`)."""
    if exchange_made(view):  # (§4.1 and §4.5: a face-up card's holder drawn per deal)
        return deal_each(view, k, keys, *_held_each(view, k, keys), deal=lambda v, ks, kn:
                         deal_unseen(v, v.bids.shape[1], 1, ks, known=kn))
    return deal_unseen(view, view.bids.shape[1], k, keys,
                       known=_either(face_up_held(view), passed_held(view)))


def _held_each(view, k: int, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(uint64[n, k, P], bool[n, k]): per deal the cards each other seat surely holds after an
    exchange of cards with face-up cards (RULES.md §4.1, §4.5; one deck): the face-up cards
    where `face_up_holders` draws them (the voids a spade lead reveals among those that place
    them, `revealed_voids`), and those the seat passed (`passed_held`); and which draws fit the
    hands' sizes."""
    passed = passed_held(view)
    voids = view.voids | revealed_voids(view) if isinstance(view, PlayView) else None
    held, fits = face_up_holders(view, k, keys, also=passed, voids=voids)
    return held | passed[:, None], fits


def bid_misfit(view, deals: np.ndarray, policy, rng) -> np.ndarray:
    """int[n, M]: by how many tricks, summed over the other seats that have bid, the bids
    ``policy`` would have made with the hands of each deal (uint64[n, M, P], as dealt) miss the
    bids made (a nil counted as 0): each seat asked at its turn, after the bids before it and
    from the standing before the hand (`sim.spades.bidding.bid_view`, the view the engine shows
    there); a blind nil (made before looking) fits any hand. ``view``: a `PlayView` (every seat
    has bid; its dealer `dealer_of`'s) or a `BidView`."""
    n, m, players = deals.shape[:3]
    dealer = dealer_of(view)
    flat, twice = split_copies(deals.reshape((n * m,) + deals.shape[2:]))
    row = np.repeat(np.arange(n), m)
    rows = np.arange(n)
    misfit = np.zeros(n * m, dtype=np.int64)
    for turn in range(players):
        bidder = (dealer.astype(np.intp) + 1 + turn) % players  # [n]
        ask = np.flatnonzero((bidder != view.seat) & (view.bids[rows, bidder] >= 0)
                             & ~view.blind[rows, bidder])
        if not ask.size:
            continue
        order = (dealer[ask, None].astype(np.intp) + 1 + np.arange(players)) % players
        before = np.full((ask.size, players), -1, np.int8)
        made = np.take_along_axis(view.bids[ask], order[:, :turn], axis=1)
        np.put_along_axis(before, order[:, :turn], made, axis=1)
        blind = np.zeros((ask.size, players), bool)
        np.put_along_axis(blind, order[:, :turn],
                          np.take_along_axis(view.blind[ask], order[:, :turn], axis=1), axis=1)
        sel = (ask[:, None] * m + np.arange(m)).reshape(-1)
        rep = np.repeat(np.arange(ask.size), m)
        state = start_bidding(flat[sel], dealer[ask][rep], view.scores[ask][rep],
                              view.bags[ask][rep], view.rules, public_of(view, ask[rep]),
                              None if twice is None else twice[sel], bids=before[rep],
                              blind=blind[rep])
        bid = policy.bid(bid_view(state, view.rules, view.deck), rows_of(rng, row[sel]))
        real = view.bids[ask, bidder[ask]][rep]
        misfit[sel] += np.abs(np.asarray(bid, np.int64) - real)
    return misfit.reshape(n, m)


def revealed_voids(view) -> np.ndarray:
    """uint8[n, P]: the suits each seat has shown it does not hold by a lead the rules allow only
    to a player holding nothing else (RULES.md §3 ``spades_broken``: a spade led before spades
    are broken, or under ``"never"`` at any time, shows the leader held only spades: void in
    every other suit from then on; not an A♠ that §4.3 ``lead_ace_of_spades`` lets anyone
    lead). Bit s = suit s (`sim.views.PlayView.voids`)."""
    n, players = view.tricks.shape
    out = np.zeros((n, players), dtype=np.uint8)
    rule = view.rules.spades_broken
    if rule is False:
        return out
    trump, deck = view.trump, view.deck
    free = U64(0)  # cards any leader may lead before spades are broken (§4.3 lead_ace_of_spades)
    for plugin in house.in_force(view.rules) if rule is True else ():
        if plugin.leads:
            free |= plugin.leads(deck)
    others = np.uint8(0)  # the bits of the suits but the trump suit's (the same every row)
    for s, mask in enumerate(deck.suit_masks):
        if int(mask) and not int(mask & trump[0]):
            others |= np.uint8(1 << s)
    rows = np.arange(n)
    broken = np.zeros(n, dtype=bool)  # a trump was played to an earlier trick
    for t in range(view.trick_no + (view.position > 0)):
        if t < view.trick_no:
            cards = BIT[view.history[:, t * players:(t + 1) * players]]
            lead, leader = cards[:, 0], view.history_seats[:, t * players]
        else:
            cards = BIT[view.trick_cards]
            lead, leader = cards[:, 0], view.leader
        shows = ((lead & trump & ~free) != 0) & (~broken if rule is True else True)
        out[rows[shows], leader[shows]] |= others
        broken |= (np.bitwise_or.reduce(cards, axis=1) & trump) != 0
    return out


