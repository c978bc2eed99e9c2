"""What every report says of its run before its findings: the experiment, its variants and
line-ups, and a warning when the run is unfinished or cells were left out."""

from __future__ import annotations

__all__ = ["lineups_info", "run_info", "variants_info", "warning"]


def run_info(res, tables: dict) -> list[tuple[str, str]]:
    exp = res.experiment
    info = [("experiment", exp["name"]),
            ("mode", "whole games" if res.games_mode else "independent hands"),
            (f"{res.mode} per cell", f"{exp['count']:,}"),
            ("cells", f"{len(res.cells)} ({len(res.variants)} variant"
                      f"{'s' if len(res.variants) > 1 else ''} × {len(res.lineups)} line-up"
                      f"{'s' if len(res.lineups) > 1 else ''}, swapped seatings counted)")]
    points, sides = tables.get("points"), tables.get("table_sides")
    if sides is not None:  # every cell, at any table (reports.table_sections)
        cells = sides.filter(side="all").filter(sides.filter(side="all")["lineup"] != "all")
        info.append(("hands read", f"{cells['hands'].sum():,}"))
        if "games" in cells.columns:
            info.append(("games read", f"{cells['games'].sum():,}"))
    else:
        if points is not None:
            info.append(("hands read", f"{points.filter(side=0)['hands'].sum():,}"))
        if "games" in tables:
            info.append(("games read", f"{tables['games']['games'].sum():,}"))
    info += [("seed, block size", f"{exp['seed']}, {exp['block_size']:,}"),
             ("whistlab", str(res.manifest.get("versions", {}).get("whistlab", "?"))),
             ("results", str(res.path))]
    return info


def variants_info(res) -> list[tuple[str, str]]:
    """Each variant's rules as they differ from the first variant's."""
    rules = {}
    for c in res.cells:
        rules.setdefault(c["variant"], c.get("rules", {}))
    base = rules[res.variants[0]]
    out = []
    for v in res.variants:
        diff = [f"{k} = {val}" for k, val in rules[v].items() if base.get(k) != val]
        first = "the only variant" if len(res.variants) == 1 else "base of the comparisons"
        out.append((v, first if v == res.variants[0]
                    else ", ".join(diff) or "same rules as the base"))
    return out


def lineups_info(res) -> list[tuple[str, str]]:
    """Who sits where in each line-up."""
    out = []
    for lineup in res.lineups:
        seats = res.strategies.filter(lineup=lineup, swapped=False,
                                      variant=res.cells[0]["variant"])
        if not seats.height:
            seats = res.strategies.filter(lineup=lineup).unique("seat").sort("seat")
        labels = seats.sort("seat")["strategy"].to_list()
        if len(set(labels)) == 1:
            side = f"{labels[0]} at every seat"
        elif (len(labels) == 4 and labels[0::2] == [labels[0]] * 2
              and labels[1::2] == [labels[1]] * 2):
            side = f"side 0: {labels[0]}, side 1: {labels[1]}"
        else:
            side = "seats: " + ", ".join(labels)
        swap = any(c["lineup"] == lineup and c["swapped"] for c in res.cells)
        out.append((lineup, side + ("; also played with the sides' seats swapped" if swap
                                    else "")))
    return out


def warning(res) -> str | None:
    notes = [*res.notes, *([res.left_out] if res.left_out else [])]
    if not res.complete:
        done = res.blocks_done
        notes.append(f"The run is not finished: {sum(done.values())} of "
                     f"{res.n_blocks * len(done)} blocks are on disk. Each cell is reported on "
                     "its finished blocks; paired comparisons use the deals found in both cells.")
    return " ".join(notes) or None
