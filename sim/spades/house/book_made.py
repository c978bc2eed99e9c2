"""RULES.md §4.6 ``book_made``, the whole rule: "if the two sides' bids total exactly 10, each
side scores 10 x its bid whatever happens, and no bags are counted that hand".

- the key: `OPTION` (a `sim.spades.rules.SpadesRules` field; a key of two sides, RULES.md §4.7:
  `sim.spades.rules.TWO_SIDE_KEYS`);
- the score: `score`, the scoring slot ``book_made`` of `sim.spades.scoring.PARTS` (after the
  contract's own way and the nil bidders' bags, before the nils, which score as usual).
"""

from __future__ import annotations

import numpy as np

from ...options import option
from ..plugin import HouseRule

__all__ = ["OPTION", "RULE"]

OPTION = option(False, "the four bids total exactly 10: each side scores 10 x its bid whatever "
                "happens, no bags that hand", kind=bool)


def score(tally, facts) -> None:
    """The four bids total exactly 10 (no side contract): each side's contract is 10 x its bid,
    made; no overtricks, bags or points to the opponents that hand."""
    book = ((facts.bid.sum(axis=1) == 10) & (facts.codes == 0).all(axis=1))[:, None]
    tally.contract = np.where(book, 10 * facts.bid, tally.contract)
    for name in ("overtricks", "bags", "opponents"):
        setattr(tally, name, np.where(book, 0, getattr(tally, name)))
    tally.made = tally.made | book


RULE = HouseRule(key="book_made", section="§4.6", in_force=lambda r: r.book_made,
                 score={"book_made": score})
