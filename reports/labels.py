"""Who played each seat, as a short label: a strategy's name and the parameters in which it
differs from the usual value (``seed(nil_max_spades=4)``). Shared by the report
(`reports.data.Results.strategies`) and the run summary, which reads no table for it."""

from __future__ import annotations

import json
from collections import Counter

from strategies import make_strategy

__all__ = ["seat_labels"]


def _label(spec: dict, defaults: dict[str, dict]) -> str:
    """A strategy spec as a short name: its name and the parameters that differ from the usual
    value (the strategy's default, else the value most seats of the experiment use)."""
    usual = defaults.get(spec.get("name"), {})
    changed = [f"{k}={v}" for k, v in spec.items() if k != "name" and usual.get(k) != v]
    return f"{spec.get('name')}({', '.join(changed)})" if changed else str(spec.get("name"))


def _defaults(specs: list[dict], game: str | None = None) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in {s.get("name") for s in specs}:
        same = [s for s in specs if s.get("name") == name]
        try:  # the registry's defaults, when this strategy is still known
            out[name] = make_strategy(name, game=game).to_dict()
        except Exception:  # unknown today: the value most of the experiment's seats use
            keys = {k for s in same for k in s}
            out[name] = {k: Counter(json.dumps(s.get(k)) for s in same).most_common(1)[0][0]
                         for k in keys}
            out[name] = {k: json.loads(v) for k, v in out[name].items()}
    return out


def seat_labels(cells: list[dict]) -> list[list[str]]:
    """For each manifest cell (its ``seats``: a strategy spec per seat), each seat's label."""
    if not cells:
        return []
    defaults = _defaults([s for c in cells for s in c["seats"]], cells[0]["rules"]["game"])
    return [[_label(spec, defaults) for spec in c["seats"]] for c in cells]
