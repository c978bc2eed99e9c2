"""The "Hands" section every study ends with (`reports.hands`): its part of the page and the
sentences for what its sample does not have."""

from __future__ import annotations

from ..hands import Notable, intro
from ..kit.study import Part

__all__ = ["hands_part"]

NOTE = ("The sample is written by every run (records/sample-<cell>.jsonl, hand records as "
        "RULES.md §5 describes them): whistlab replay scores it again, and whistlab run "
        "--records FILE writes the records of every hand.")


def hands_part(res, notable: Notable, left_out: dict[str, list[str]]) -> Part:
    """The section's part, its left-out sentences added to ``left_out`` (under "hands")."""
    left_out.setdefault("hands", []).extend(notable.left_out)
    return Part("hands", "Hands", intro(notable, len(res.cells)), [NOTE])
