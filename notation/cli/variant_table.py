"""The table of ``notation variants`` (and of ``--variant help`` on any command): one row per
variant of ``notation.variant_facts``, columns aligned. Raises nothing."""

from __future__ import annotations

from typing import Any, TextIO

from notation.variants import Registry


def print_variants(registry: Registry, out: TextIO) -> None:
    """The table of ``registry``'s variants on ``out`` (what ``--variant help`` prints)."""
    from notation.variant_facts import all_variant_facts

    write_table(all_variant_facts(registry), out)


_HEADINGS = ("KEY", "NAME", "BOARD", "FAMILY", "PLAYS", "READS", "ALIASES")


def write_table(facts: list[dict[str, Any]], out: TextIO) -> None:
    """One row per variant, columns aligned; the last column runs to the line's end."""
    rows = [_HEADINGS, *(_row(entry) for entry in facts)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADINGS) - 1)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        out.write("  ".join([*cells, row[-1]]).rstrip() + "\n")


def _row(entry: dict[str, Any]) -> tuple[str, ...]:
    board = f"{entry['geometry']['files']}x{entry['geometry']['ranks']}"
    reads = entry["reads"]
    parts = [
        f"{what} {'/'.join(reads[key])}"
        for key, what in (("positions", "positions"), ("pockets", "pockets"), ("checks", "checks"),
                          ("castling", "castling"), ("letters", "letters"), ("sides", "sides"),
                          ("layouts", "layouts"), ("fields", "fields"))
        if reads[key] and not (key == "positions" and reads[key] == ["fen"])
    ]
    return (
        entry["key"], entry["name"], board, entry["family"],
        ",".join(entry["plays"]["moves"]) + (" perft" if entry["plays"]["perft"] else ""),
        "; ".join(parts) or "-", ", ".join(entry["aliases"]) or "-",
    )
