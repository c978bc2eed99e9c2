"""RULES.md §4.7 six and eight players and ``cancel_spades``, §4.1 the kitty, §4.2 ``jokes_win``,
on the engine: every deck deals the right cards (both copies of each card in two-deck games),
every physical card is played exactly once, every trick has one winner — re-derived here from
the cards by the text's own rules — or is dead under cancel spades, the kitty goes to the right
taker and its discard counts as a trick, and cancel spades scores by its own table."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sim.cards import RANKS, SUITS
from sim.errors import UserError
from sim.games import GAMES
from sim.lineup import Lineup
from sim.options import load_rules
from sim.records import card_names
from sim.spades.hand import deck_for
from sim.spades.scoring import score_hands
from strategies import make_strategy

FULL = Counter(r + s for s in SUITS for r in RANKS)
JOKERS = Counter({"BJ": 1, "LJ": 1})
CANCEL = {"cancel_spades": True, "blind_nil": False, "target_score": "off",
          "mercy_score": "off", "max_hands": 6}


def without(deck: Counter, *cards) -> Counter:
    return Counter({c: k for c, k in deck.items() if c not in cards})


TABLES = {  # rules, cards each, kitty size, the physical deck
    "six, double_minus_2c": ({"players": 6}, 17, 0, without(FULL + FULL, "2C")),
    "six, double_jokers": ({"players": 6, "deck": "double_jokers", "jokers": 4}, 18, 0,
                           FULL + FULL + JOKERS + JOKERS),
    "six, double_kitty": ({"players": 6, "deck": "double_kitty", "kitty": True}, 17, 2,
                          FULL + FULL),
    "six, no_twos": ({"players": 6, "deck": "no_twos", "teams": "solo"}, 8, 0,
                     without(FULL, "2C", "2D", "2H", "2S")),
    "six, single_jokers": ({"players": 6, "deck": "single_jokers", "jokers": 2,
                            "teams": "two_threes"}, 9, 0, FULL + JOKERS),
    "six, last wins": ({"players": 6, "duplicate_wins": "last"}, 17, 0,
                       without(FULL + FULL, "2C")),
    "cancel, six": ({"players": 6, **CANCEL}, 17, 0, without(FULL + FULL, "2H")),
    "cancel, eight": ({**CANCEL, "players": 8, "max_hands": 8}, 13, 0, FULL + FULL),
    "kitty, four with jokers": ({"jokers": 2, "kitty": True}, 13, 2, FULL + JOKERS),
    "kitty, four, extra trick": ({"kitty": True, "kitty_extra_trick": True,
                                  "kitty_taker": "high_bidder"}, 12, 4, FULL),
    "kitty, three": ({"players": 3, "kitty": True}, 17, 1, FULL),
    "kitty, five": ({"players": 5, "kitty": True, "kitty_taker": "high_bidder"}, 10, 2, FULL),
    "kitty, five with jokers": ({"players": 5, "jokers": 3, "kitty": True,
                                 "kitty_extra_trick": True}, 10, 5,
                                FULL + JOKERS + Counter({"XJ": 1})),
    "jokes_win": ({"jokers": 2, "trump_order": "jokes_win"}, 13, 0,
                  without(FULL, "2C", "2D") + JOKERS),
}


def play(over, strategy="random", n=300, mode="hands", seed=8):
    rules = load_rules(over)
    result = GAMES["spades"].play_block(rules, Lineup([make_strategy(strategy)] * rules.players),
                                        seed, 0, n, mode)
    return rules, result


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _spade(card: str, rules) -> bool:
    return card[1] == "S" or card in ("BJ", "LJ", "XJ") or (
        rules.cancel_spades and card in ("2D", "2C"))


def _strength(card: str, rules) -> int:
    """The spade order of the text: jokers BJ > LJ (> XJ) > AS; cancel spades 2D > 2C > AS."""
    if card in ("BJ", "LJ", "XJ"):
        return 20 - ("BJ", "LJ", "XJ").index(card)
    if rules.cancel_spades and card in ("2D", "2C"):
        return 16 if card == "2D" else 15
    return _rank(card)


def winner_by_hand(trick, seats, rules):
    """The seat winning a trick of card names, from RULES.md §0, §4.7 directly (not jokes)."""
    led = "S" if _spade(trick[0], rules) else trick[0][1]
    counts = Counter(trick)
    best, best_key = None, None
    for j, card in enumerate(trick):
        if rules.cancel_spades and counts[card] == 2:
            continue  # identical cards cancel
        key = ((2, _strength(card, rules)) if _spade(card, rules)
               else (1, _rank(card)) if card[1] == led else None)
        if key is None:
            continue
        later_twin = rules.duplicate_wins == "last" and best is not None and trick[best] == card
        if best is None or key > best_key or later_twin:
            best, best_key = j, key
    return None if best is None else seats[best]


@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("strategy", ["random", "seed"])
def test_deals_plays_and_winners(name, strategy):
    over, each, kitty, cards = TABLES[name]
    rules, result = play(over, strategy)
    deck = deck_for(rules)
    assert (rules.cards_each, rules.kitty_size) == (each, kitty)
    out = result.outcomes[0]
    names = np.array([x or "?" for x in deck.names])
    players = rules.players
    for i in range(120):
        dealt = [card_names(deck, h, t)
                 for h, t in zip(result.hands[i], result.twice[i], strict=True)]
        assert [len(h) for h in dealt] == [each] * players
        pile = card_names(deck, out.house_state["kitty"][i], out.house_state["kitty_twice"][i])
        assert len(pile) == kitty
        assert sum(map(Counter, dealt), Counter()) + Counter(pile) == cards
        held = [card_names(deck, h, t) for h, t in zip(out.held[i], out.twice[i], strict=True)]
        discards = deck.names_of(out.house_state["kitty_discards"][i])
        plays = list(names[out.play.plays[i]])
        # every physical card is played once, or discarded with the kitty
        assert Counter(plays) + Counter(discards) == cards
        assert sum(map(Counter, held), Counter()) == Counter(plays)
        seats = out.play.seats[i]
        dead = 0
        for t in range(each):
            trick = plays[t * players:(t + 1) * players]
            who = list(seats[t * players:(t + 1) * players])
            won = int(out.play.winners[i, t])
            if rules.trump_order != "jokes_win":
                want = winner_by_hand(trick, who, rules)
                assert won == (-1 if want is None else want), (trick, who)
            dead += won < 0
        assert dead == 0 or rules.cancel_spades
        extra = int(rules.kitty_extra_trick)
        assert int(out.play.tricks[i].sum()) == each + extra - dead
        if kitty:  # the taker's dealt hand and kitty, less his discard, is what he played
            taker = int(out.house_state["kitty_taker"][i])
            assert Counter(dealt[taker]) + Counter(pile) - Counter(discards) == Counter(held[taker])
            if rules.kitty_taker == "two_of_clubs":
                lowest = [min((_rank(c) for c in h if c[1] == "C"), default=99) for h in dealt]
                order = [(int(result.dealer[i]) + 1 + k) % players for k in range(players)]
                assert taker == min(order, key=lambda s: lowest[s])
            else:
                bids = out.bidding.bids[i].tolist()
                order = [(int(result.dealer[i]) + 1 + k) % players for k in range(players)]
                assert taker == max(order, key=lambda s: (bids[s], -order.index(s)))
        else:
            assert out.house_state["kitty_taker"][i] == -1


def test_dead_tricks_happen_and_are_led_again():
    rules, result = play({"players": 6, **CANCEL}, n=3000)
    out = result.outcomes[0]
    rows, tricks = np.nonzero(out.play.winners < 0)
    assert rows.size > 10  # random play: a few percent of hands hold a dead trick
    for i, t in zip(rows[:50], tricks[:50], strict=True):
        if t + 1 < rules.cards_each:  # the dead trick's leader leads the next one
            assert out.play.seats[i, (t + 1) * 6] == out.play.seats[i, t * 6]


def cancel_score(bids, tricks, players=6):
    rules = load_rules({**CANCEL, "players": players, "max_hands": players})
    bids = np.array([bids], np.int8)
    return score_hands(bids, np.zeros_like(bids, bool), np.array([tricks], np.int8),
                       np.zeros((1, players // 2), np.int32), rules)


def test_cancel_spades_scoring():
    # RULES.md §4.7: a side bidding 5 that takes 3 scores -20; seats s and s + 3 are partners
    score = cancel_score([3, 4, 0, 2, 3, 0], [2, 5, 0, 1, 4, 0])
    assert score.points[0].tolist() == [-20, 72, 200]  # 7 bid, 9 taken: 70 + 2; two clean nils
    score = cancel_score([5, 2, 0, 0, 3, 4], [3, 4, 0, 2, 3, 1])
    # side 0: 5 bid, 3 counted (the nil's 2 tricks do not count) -> -20, and the nil -10 x 2
    assert score.contract[0, 0] == -20 and score.nil[0, 0] == -20
    # side 2: nil clean +50, and 4 bid with 1 taken -> -30
    assert score.points[0, 2] == 50 - 30
    assert (score.bag_penalty == 0).all() and (score.bags_after == 0).all()
    eight = cancel_score([0, 1, 1, 1, 0, 1, 1, 1], [0, 2, 1, 1, 0, 2, 2, 1], players=8)
    assert eight.nil[0, 0] == 100  # two clean nils of eight players: 100
    eight = cancel_score([0, 1, 1, 1, 2, 1, 1, 1], [0, 2, 1, 1, 2, 2, 1, 1], players=8)
    assert eight.nil[0, 0] == 30  # one clean nil: 30


def test_a_game_of_cancel_spades_is_a_deal_per_player():
    rules, result = play("spades.cancel", "seed", n=60, mode="games")
    n_hands = result.games["n_hands"]
    assert (n_hands >= 6).all()  # a tie after six hands plays another (RULES.md §4.8)
    finals = np.stack([result.games[f"score_{s}"] for s in range(3)], axis=1)
    top = finals.max(axis=1)
    assert ((finals == top[:, None]).sum(axis=1)[n_hands > 6] >= 1).all()
    assert ((finals == top[:, None]).sum(axis=1)[n_hands == 6] == 1).all()


JOKES = {"jokers": 2, "trump_order": "jokes_win"}


def jokes_trick(cards, tie="higher_joker", leader=0):
    """The engine's winner of one four-card trick under jokes_win (a scripted play)."""
    from sim.spades.jokes import jokes_resolver

    rules = load_rules({**JOKES, "jokes_tie": tie})
    deck = deck_for(rules)
    bits = [np.array([np.uint64(1) << np.uint64(deck.bit_of(c))]) for c in cards]
    seats = [np.array([(leader + j) % 4], np.int8) for j in range(4)]
    led = deck.suit_masks[SUITS.index("S") if cards[0] in ("BJ", "LJ") else
                          SUITS.index(cards[0][1])]
    card, seat = jokes_resolver(rules, deck)(bits, seats, np.array([led]),
                                             np.full(1, deck.suit_masks[3]))
    return int(seat[0])


def test_jokes_win_examples():
    # RULES.md §4.2: a joker played to the partner's AH makes it a joke ace: it beats every card
    # but the natural AS
    assert jokes_trick(["AH", "KS", "BJ", "5H"]) == 0
    assert jokes_trick(["AH", "AS", "BJ", "5H"]) == 1
    # a 5D after a joker loses only to the natural 5S or higher and to joke 6 or higher
    assert jokes_trick(["LJ", "4S", "5D", "3S"]) == 2
    assert jokes_trick(["LJ", "5S", "5D", "3S"]) == 1
    assert jokes_trick(["BJ", "9D", "5D", "LJ"]) == 1  # the other side's joke 9 beats joke 5
    # ties of two joke trumps of one rank
    assert jokes_trick(["BJ", "9D", "9H", "LJ"], "higher_joker") == 2  # BJ's side
    assert jokes_trick(["LJ", "9D", "9H", "BJ"], "higher_joker") == 1
    assert jokes_trick(["LJ", "9H", "9D", "BJ"], "first_joker") == 2  # LJ came first
    assert jokes_trick(["LJ", "9D", "9H", "BJ"], "suit") == 1  # D above H
    assert jokes_trick(["LJ", "9C", "9H", "BJ"], "suit") == 1  # C above H
    # without a joke trump the natural order holds; a joker never wins
    assert jokes_trick(["KH", "AH", "2H", "3H"]) == 1
    assert jokes_trick(["KH", "BJ", "2H", "3H"]) == 3  # the joker's partner's 3H is a joke 3
    assert jokes_trick(["BJ", "5H", "LJ", "7D"]) == 0  # no trump, nothing of the led suit
    assert jokes_trick(["QH", "2H", "9H", "BJ"]) == 1  # a joke 2 is the lowest trump: a trump


@pytest.mark.parametrize("over, key", [
    ({"players": 8}, "players"),
    ({"players": 6, "deck": "double_jokers"}, "jokers"),
    ({"players": 6, "kitty": True}, "kitty"),
    ({"deck": "no_twos"}, "deck"),
    ({"players": 6, "teams": "solo", "cancel_spades": True}, "teams"),
    ({"duplicate_wins": "last"}, "duplicate_wins"),
    ({"players": 6, "trump_order": "jokers_high"}, "trump_order"),  # no jokers in the deck
    ({"players": 6, "first_lead": "two_of_clubs"}, "first_lead"),  # both 2C out
    ({"players": 6, **CANCEL, "bag_limit": 5}, "bag_limit"),
    ({"players": 6, **CANCEL, "max_hands": 10}, "max_hands"),
    ({"players": 6, "cancel_spades": True}, "blind_nil"),
    ({"kitty": True}, "kitty"),
    ({"kitty_taker": "high_bidder"}, "kitty_taker"),
    ({"players": 2, "kitty": True}, "kitty"),
    ({"jokers": 2, "kitty": True, "jokers_remove": ["2C", "2H"]}, "jokers_remove"),
    ({"jokers_tie": "suit"}, None),
    ({"jokes_tie": "suit"}, "jokes_tie"),
    ({"jokers": 2, "trump_order": "jokes_win", "partnerships": False}, "trump_order"),
    ({"players": 6, "teams": "two_threes", "double_nil": True}, "double_nil"),
    ({"players": 6, "teams": "two_threes", "nil_pass": [1, 2]}, "nil_pass"),
])
def test_refused(over, key):
    with pytest.raises(UserError) as err:
        load_rules(over)
    if key is not None:
        assert err.value.key == key
