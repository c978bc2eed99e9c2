"""The studies: one per game, each the report of its results (`reports.kit.study.Study`).

- `spades`: nil, sandbags, variants and strategies on the same deals; every table of RULES.md
  §4.7 by seat and side, and the tables compared;
- `portland`: the honours study (honours held and scored, the variance they add, game length,
  the dealer's side);
- `norwegian`: declarations, contracts, the scoring modes, game length and who wins."""

from __future__ import annotations

from ..kit.study import Study
from .norwegian import STUDY as NORWEGIAN
from .portland import STUDY as PORTLAND
from .spades import STUDY as SPADES

__all__ = ["STUDIES"]

STUDIES: dict[str, Study] = {s.game: s for s in (SPADES, PORTLAND, NORWEGIAN)}
