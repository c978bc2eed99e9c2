"""Card orders are data: a deck with jokers (RULES.md §4.2 `jokers_high`) plays through the same
trick engine, with no code of its own, and its tricks obey the order its layout encodes."""

import numpy as np

from sim.cards import RANKS, Deck
from sim.deal import deal
from sim.lineup import Lineup
from sim.tricks import play_tricks
from strategies import make_strategy

U64 = np.uint64


def jokers_high_deck() -> Deck:
    """Four players, two jokers, 2C and 2D removed: clubs and diamonds 3..A (12 cards), hearts
    2..A (13), spades 2..A then LJ and BJ (15; BJ > LJ > AS, both spades in every respect)."""
    suits = [[r + "C" for r in RANKS[1:]], [r + "D" for r in RANKS[1:]],
             [r + "H" for r in RANKS], [r + "S" for r in RANKS] + ["LJ", "BJ"]]
    names, masks, at = [], [], 0
    for cards in suits:
        names += cards
        masks.append(((1 << len(cards)) - 1) << at)
        at += len(cards)
    return Deck(names=tuple(names + [""] * (64 - at)), suit_masks=np.array(masks, dtype=U64))


def test_jokers_rank_above_the_ace_of_spades_and_follow_as_spades():
    deck = jokers_high_deck()
    assert deck.n_cards == 52
    n = 3000
    rng = np.random.default_rng(11)
    hands = deal(deck, np.zeros(n, np.int8), 4, rng)
    assert (np.bitwise_or.reduce(hands, axis=1) == deck.full_mask).all()
    spades = deck.suit_masks[3]
    result = play_tricks(hands, np.ones(n, np.int8), np.full(n, spades), deck,
                         lambda hand, broken: hand, Lineup([make_strategy("random")] * 4), rng,
                         dict(bids=np.full((n, 4), 3, np.int8), blind=np.zeros((n, 4), bool),
                              scores=np.zeros((n, 2), np.int32), bags=np.zeros((n, 2), np.int32),
                              rules=None))
    names = np.array([x or "?" for x in deck.names])
    plays = names[result.plays].reshape(n, 13, 4)
    leader = np.concatenate([np.ones((n, 1), np.int8), result.winners[:, :-1]], axis=1)
    won_by = (result.winners - leader) % 4  # position in the trick of the winning card
    winning = np.take_along_axis(plays, won_by[:, :, None].astype(np.intp), axis=2)[:, :, 0]
    has_bj = (plays == "BJ").any(axis=2)
    has_lj = (plays == "LJ").any(axis=2)
    assert has_bj.sum() > 1000 and has_lj.sum() > 1000
    assert (winning[has_bj] == "BJ").all()
    assert (winning[has_lj & ~has_bj] == "LJ").all()
    # a joker is a spade: when a spade is led, a player holding a joker never shows out
    held = {seat: [set(deck.names_of(h)) for h in hands[:, seat]] for seat in range(4)}
    for i in range(200):
        gone = set()
        for t in range(13):
            lead = int(leader[i, t])
            led_spade = plays[i, t, 0][-1] == "S" or plays[i, t, 0] in ("LJ", "BJ")
            for j in range(1, 4):
                seat = (lead + j) % 4
                card = plays[i, t, j]
                has_spade = any((c.endswith("S") or c.endswith("J")) and c not in gone
                                for c in held[seat][i])
                if led_spade and has_spade:
                    assert card.endswith("S") or card.endswith("J"), (i, t, seat, card)
            gone |= set(plays[i, t])


def scalar_winner(cards, leader, trump_suit):
    """The seat winning a trick of card names played from `leader` on (RULES.md §0)."""
    order = RANKS.index

    def key(card):
        suit = card[-1]
        if suit == trump_suit:
            return (2, order(card[0]))
        return (1, order(card[0])) if suit == cards[0][-1] else (0, 0)

    best = max(range(4), key=lambda j: key(cards[j]))
    return (leader + best) % 4


def test_any_trump_suit_or_none_against_a_scalar_rule():
    """Trumps are data too (Portland's turned-up suit, or no trump): every trick's winner equals
    the plain rule's, with trump in the top range (the fast path), below it, or absent."""
    from sim.cards import standard_deck

    deck = standard_deck()
    names = np.array([x or "?" for x in deck.names])
    n = 400
    for trump_suit in "SHDC-":
        rng = np.random.default_rng(ord(trump_suit))
        trump = 0 if trump_suit == "-" else int(deck.suit_masks["CDHS".index(trump_suit)])
        hands = deal(deck, np.zeros(n, np.int8), 4, rng)
        result = play_tricks(hands, np.ones(n, np.int8), np.full(n, trump, dtype=U64), deck,
                             lambda hand, broken: hand, Lineup([make_strategy("random")] * 4),
                             rng, dict(bids=np.full((n, 4), 3, np.int8),
                                       blind=np.zeros((n, 4), bool),
                                       scores=np.zeros((n, 2), np.int32),
                                       bags=np.zeros((n, 2), np.int32), rules=None))
        plays = names[result.plays].reshape(n, 13, 4)
        for i in range(n):
            leader = 1
            for t in range(13):
                winner = scalar_winner(list(plays[i, t]), leader, trump_suit)
                assert result.winners[i, t] == winner, (trump_suit, i, t)
                leader = winner
