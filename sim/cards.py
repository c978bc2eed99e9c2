"""The card model: one bit per card in a uint64 "bitboard", and the bit tricks that act on it.

Encoding (RULES.md §0, §4.2)
----------------------------
A set of cards is a ``uint64``: bit ``b`` set means the card in slot ``b`` is present. A `Deck` lays
the cards of a game out in *effective* order: every effective suit (the suit a card counts as for
following and trumping) owns one contiguous range of bits, and inside a range the bit position is the
card's strength (higher bit = stronger card). Hence

* "the cards of suit s in a hand" is ``hand & deck.suit_masks[s]``,
* "the strongest card of a set" is `highest_bit`, "the weakest" is `lowest_bit`,
* a trick is won by the highest bit among the trumps played, else among the led suit's cards.

Which card sits in which slot is data (`Deck.names`), so card orders such as deuces high, jokers or
bowers (RULES.md §4.2) are new layouts, not new code paths: a deuce that counts as a spade simply
lives in the spade range. Ranges may be of any width, so a spade suit with two jokers and four deuces
(18 cards) fits; up to 64 distinct cards fit in one word. In two-deck games (RULES.md §4.7,
``copies = 2``) every card exists twice: a hand is the word of the cards it holds, and a second
word (``twice``) the cards it holds both copies of.

Suit indices are fixed for all games: 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades (ascending
bridge order), written ``C D H S``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = [
    "BIT",
    "highest_rank",
    "lowest_rank",
    "rank_major",
    "suit_major",
    "at_or_below",
    "RANKS",
    "SUITS",
    "Deck",
    "bit_index",
    "bits_of",
    "first_set",
    "highest_bit",
    "lowest_bit",
    "pick",
    "popcount",
    "select_bit",
    "standard_deck",
]

RANKS = "23456789TJQKA"  # rank characters, weakest first (RULES.md §0)
SUITS = "CDHS"  # suit characters by suit index
CLUBS, SPADES = 0, 3
JOKERS = ("BJ", "LJ", "XJ")  # big, little and (five players) third joker (RULES.md §4.2)

U64 = np.uint64
_ONE = U64(1)
BIT = _ONE << np.arange(64, dtype=U64)  # BIT[b]: the one-card bitboard of slot b


def bits_of(slots: np.ndarray) -> np.ndarray:
    """``BIT[slots]`` for an integer array of slots 0..63 (int8 as the engine keeps them), as a
    shift rather than a gather (a few times faster)."""
    return np.left_shift(_ONE, slots, dtype=U64, casting="unsafe")


@dataclass(frozen=True, eq=False)
class Deck:
    """A card layout: which card name sits in which bit, and the bit range of each suit.

    Attributes
    ----------
    names : tuple[str, ...]
        ``names[b]`` is the card in slot ``b`` (``""`` for an unused slot).
    suit_masks : uint64[4]
        Bits of each effective suit (index 0..3 = C, D, H, S); 0 for a suit with no card.
    copies : int
        1 for one deck, 2 when every card exists twice (one word per copy).
    equal : tuple of int
        Bitboards of cards that rank equal (RULES.md §4.2 ``jokers_first_wins``): of two such
        cards in one trick the first played wins.
    ladder : bool
        Suits rank in the order of their bit ranges and a card of a higher suit beats every card
        of a lower one (RULES.md §4.2 ``suit_ladder``): a card beats the trick iff its bit is
        higher, whatever suit was led.
    duplicates : str
        Two decks (RULES.md §4.7): of two identical cards in one trick the ``"first"`` played
        ranks higher, or the ``"last"``; ``"cancel"``: they cancel and neither can win
        (``cancel_spades``).
    """

    names: tuple[str, ...]
    suit_masks: np.ndarray
    copies: int = 1
    equal: tuple[int, ...] = ()  # masks of cards of equal strength: the first played wins
    ladder: bool = False  # no off-suits: any card beats every card of lower bits (suit_ladder)
    duplicates: str = "first"  # two decks: identical cards in a trick (first, last, cancel)

    @property
    def n_cards(self) -> int:
        return sum(1 for n in self.names if n) * self.copies

    @property
    def full_mask(self) -> np.uint64:
        return np.bitwise_or.reduce(self.suit_masks)

    @cached_property
    def suit_of_bit(self) -> np.ndarray:
        """int8[64]: the effective suit of each slot (-1 for unused slots)."""
        out = np.full(64, -1, dtype=np.int8)
        for s, m in enumerate(self.suit_masks):
            for b in range(64):
                if int(m) >> b & 1:
                    out[b] = s
        return out

    @cached_property
    def suit_mask_of_bit(self) -> np.ndarray:
        """uint64[64]: the bits of each slot's effective suit (0 for unused slots)."""
        out = np.zeros(64, dtype=U64)
        used = self.suit_of_bit >= 0
        out[used] = self.suit_masks[self.suit_of_bit[used]]
        out.flags.writeable = False
        return out

    @cached_property
    def suit_bit_of_bit(self) -> np.ndarray:
        """uint8[64]: ``1 << suit`` of each slot's effective suit (0 for unused slots)."""
        out = np.where(self.suit_of_bit >= 0, 1 << self.suit_of_bit.astype(np.int16), 0)
        out = out.astype(np.uint8)
        out.flags.writeable = False
        return out

    @cached_property
    def offsets(self) -> np.ndarray:
        """int8[4]: the lowest slot of each suit's range (its weakest card)."""
        return np.array([(int(m) & -int(m)).bit_length() - 1 for m in self.suit_masks], np.int8)

    @cached_property
    def same_suit(self) -> dict[int, np.uint64]:
        """``same_suit[k]``: slots ``b`` whose card ``b + k`` is of the same suit, for k = 1, 2, 4,
        8, 16: the masks that keep a shift by ``k`` inside the suit ranges (see `at_or_below`)."""
        out = {}
        for k in (1, 2, 4, 8, 16):
            m = 0
            for suit_mask in (int(x) for x in self.suit_masks):
                m |= suit_mask & (suit_mask >> k)
            out[k] = U64(m)
        return out

    @cached_property
    def natural(self) -> np.ndarray:
        """int8[64]: each slot's physical card, independent of the layout: ``13 * suit + rank``
        of its name (suits C D H S, ranks 2..A = 0..12); jokers 52 (BJ), 53 (LJ), 54 (XJ); -1
        for an unused slot. Two layouts of the same cards deal the same physical cards."""
        out = np.full(64, -1, dtype=np.int8)
        for b, name in enumerate(self.names):
            if name:
                out[b] = JOKERS.index(name) + 52 if name in JOKERS else (
                    13 * SUITS.index(name[1]) + RANKS.index(name[0]))
        return out

    def bit_of(self, name: str) -> int:
        """The slot of a card name such as ``"AS"``; raises KeyError for a card not in the deck."""
        return self._index[name]

    @cached_property
    def _index(self) -> dict[str, int]:
        return {n: b for b, n in enumerate(self.names) if n}

    def mask_of(self, names) -> int:
        """A Python int bitboard of the given card names."""
        index = self._index
        m = 0
        for n in names:
            m |= 1 << index[n]
        return m

    def names_of(self, mask) -> list[str]:
        """The card names in a bitboard, weakest first."""
        m = int(mask)
        return [self.names[b] for b in range(64) if m >> b & 1]


def standard_deck() -> Deck:
    """52 cards, A high, each suit in its own 13-bit range: slot = 13 * suit + rank (2 = 0, A = 12)."""
    names = tuple(r + s for s in SUITS for r in RANKS) + ("",) * 12
    masks = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=U64)
    return Deck(names=names, suit_masks=masks)


# --- bit tricks on uint64 arrays ------------------------------------------------------------

def popcount(x: np.ndarray) -> np.ndarray:
    """Number of cards in each bitboard (uint8)."""
    return np.bitwise_count(x)


def lowest_bit(x: np.ndarray) -> np.ndarray:
    """The weakest card of each bitboard as a one-bit bitboard (0 stays 0)."""
    return x & np.negative(x)  # two's complement: -x = ~x + 1


_SMEAR = tuple(U64(k) for k in (2, 4, 8, 16, 32))
_EXACT = 1 << 53  # the integers a float64 holds exactly
_EXPONENT = U64(0xFFF0000000000000)  # a float64's sign and exponent


def highest_bit(x: np.ndarray) -> np.ndarray:
    """The strongest card of each bitboard as a one-bit bitboard (0 stays 0).

    Below 2**53 (every card of a deck of up to 53 slots) a float64 holds the bitboard exactly,
    and clearing its mantissa leaves its top bit: three numpy steps. Else the top bit is smeared
    into every lower bit and only the top one kept: exact for all 64 bits (a float64 conversion
    rounds above 2**53).
    """
    if type(x) is np.ndarray and x.dtype == U64 and x.size and int(x.max()) < _EXACT:
        top = x.astype(np.float64)
        exponent = top.view(U64)
        exponent &= _EXPONENT
        return top.astype(U64)
    x = x | (x >> _ONE)
    if type(x) is not np.ndarray:  # a scalar
        for k in (2, 4, 8, 16, 32):
            x |= x >> U64(k)
        return x ^ (x >> _ONE)
    step = np.empty_like(x)
    for k in _SMEAR:
        np.right_shift(x, k, out=step)
        x |= step
    np.right_shift(x, _ONE, out=step)
    x ^= step
    return x


def pick(cond: np.ndarray, a, b) -> np.ndarray:
    """``np.where(cond, a, b)`` for integer arrays, branch-free: ``b ^ ((a ^ b) * cond)``.

    numpy's ``where`` branches per element and is several times slower when ``cond`` is
    unpredictable, as it is for per-hand decisions. The result is one new array, the two
    later steps made in place in it."""
    out = np.bitwise_xor(a, b)
    try:
        np.multiply(out, cond, out=out)
    except (TypeError, ValueError):  # a scalar, or cond broadcasts beyond a ^ b
        return b ^ (out * cond)
    np.bitwise_xor(out, b, out=out)
    return out


def first_set(*options: np.ndarray) -> np.ndarray:
    """Per row, the first of the bitboards ``options`` that is not empty (the last if all are):
    how a strategy states its preferences, best first."""
    out = options[-1]
    for opt in options[-2::-1]:
        out = pick(opt != 0, opt, out)
    return out


def at_or_below(x: np.ndarray, deck: Deck) -> np.ndarray:
    """Every slot at or below a card of ``x`` in the same suit (a suit-local downward smear).

    ``hand & ~at_or_below(unseen, deck)`` are the cards higher than every unseen card of their
    suit; ``~at_or_below(card, deck)`` the cards that outrank ``card`` in its suit (and all cards
    of other suits)."""
    out, step = None, None
    for k, keep in deck.same_suit.items():
        if not keep:  # no suit this long
            continue
        if out is None:
            out = x | ((x >> U64(k)) & keep)
            step = np.empty_like(out)
            continue
        np.right_shift(out, U64(k), out=step)
        step &= keep
        out |= step
    return x.copy() if out is None else out


def bit_index(card: np.ndarray) -> np.ndarray:
    """The slot (0..63) of one-bit bitboards, as int8."""
    return np.bitwise_count(card - _ONE).astype(np.int8)


# Broadword select (S. Vigna, "Broadword implementation of rank/select queries", 2008).
_L8 = U64(0x0101010101010101)  # 1 in every byte
_H8 = U64(0x8080808080808080)  # the top bit of every byte
_M1, _M2, _M4 = U64(0x5555555555555555), U64(0x3333333333333333), U64(0x0F0F0F0F0F0F0F0F)
# _SELECT8[v | r << 8]: the position of the r-th lowest set bit of the byte v.
_SELECT8 = np.zeros(256 * 8, dtype=U64)
for _v in range(256):
    for _r, _b in enumerate(b for b in range(8) if _v >> b & 1):
        _SELECT8[_v | _r << 8] = _b
_SELECT8.flags.writeable = False


def select_bit(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The ``k``-th lowest set bit (k = 0 is the lowest) of each bitboard, as a one-bit bitboard.

    ``k`` must be below ``popcount(x)``. Byte popcounts are summed into running totals held in the
    bytes of one word; comparing them with ``k`` in all bytes at once finds the byte that holds
    the bit, and a table gives the bit inside that byte. (The byte popcounts are numpy's
    ``bitwise_count`` of the bytes; every step works in place on new arrays.)
    """
    x = np.ascontiguousarray(x, dtype=U64)
    k = k.astype(U64)  # a new array: changed in place below
    running = np.bitwise_count(x.view(np.uint8)).view(U64)  # byte i: set bits in byte i ...
    running *= _L8  # ... then in bytes 0..i
    below = k * _L8
    below |= _H8
    below -= running
    below &= _H8  # the top bit of byte i: k >= the set bits in bytes 0..i
    place = np.bitwise_count(below).astype(U64)
    place <<= U64(3)  # the bit offset of the byte holding the k-th set bit
    running <<= U64(8)
    running >>= place
    running &= U64(0xFF)  # the set bits below that byte
    k -= running  # k among the bits of that byte
    k <<= U64(8)
    byte = x >> place
    byte &= U64(0xFF)
    byte |= k
    place += _SELECT8[byte.view(np.int64)]
    return np.left_shift(_ONE, place, out=place)


# Rank-major order: the standard layout's slot 13 * suit + rank moved to bit
# 4 * rank + suit, so that one lowest_bit / highest_bit finds the lowest / highest rank of any suit.
# _SPREAD[v] spreads the 13 rank bits of one suit v to every fourth bit.
_SPREAD = np.zeros(1 << 13, dtype=U64)
for _r in range(13):
    _SPREAD |= ((np.arange(1 << 13) >> _r) & 1).astype(U64) << U64(4 * _r)
_SUIT13 = U64((1 << 13) - 1)


def rank_major(x: np.ndarray) -> np.ndarray:
    """Bitboards of the standard layout in rank-major order (bit 4 * rank + suit): a bit
    permutation, so ``&``, ``|`` and ``~`` commute with it."""
    out = np.zeros_like(x)
    for s in range(4):
        out |= _SPREAD[((x >> U64(13 * s)) & _SUIT13).astype(np.intp)] << U64(s)
    return out


def suit_major(one: np.ndarray) -> np.ndarray:
    """A one-bit rank-major bitboard back in the standard layout (0 stays 0)."""
    k = bit_index(one).astype(np.intp) & 63  # 0 -> 64 -> 0: masked below
    return BIT[13 * (k & 3) + (k >> 2)] * (one != U64(0))


def lowest_rank(x: np.ndarray) -> np.ndarray:
    """The card of lowest rank of each bitboard, whatever its suit (the lowest suit on a tie;
    0 stays 0)."""
    return suit_major(lowest_bit(rank_major(x)))


def highest_rank(x: np.ndarray) -> np.ndarray:
    """The card of highest rank of each bitboard, whatever its suit (the highest suit on a tie;
    0 stays 0)."""
    return suit_major(highest_bit(rank_major(x)))
