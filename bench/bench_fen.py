"""Read + write throughput against python-chess, on the same positions, in one run.

ours:          write_fen(read_fen(fen).setup)             (target: at least 5x)
python-chess:  Board(fen).fen()

Also the two ways into the FEN grammar (notation/fen/grammar.py) on the same FENs: the
compiled regular expression the reader tries first against the pyparsing grammar it
falls back to for error messages.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BOARD_CLASSES, best_of, positions, report  # noqa: E402

from notation import find_variant, read_fen, write_fen  # noqa: E402
from notation.fen.grammar import CHECK_FIELDS, POCKET_FIELDS, fen_grammar, fen_pattern  # noqa: E402
from notation.fen.profiles import PROFILES  # noqa: E402

COUNT = 3000
REPEATS = 5


def main() -> list[float]:
    rows = []
    options = PROFILES["python-chess"]
    for key in ("standard", "crazyhouse", "threecheck"):
        fens = positions(key, COUNT)
        variant = find_variant(key)
        board_class = BOARD_CLASSES[key]

        def ours():
            for fen in fens:
                write_fen(read_fen(fen, variant).setup, variant, options)

        def theirs():
            for fen in fens:
                board_class(fen).fen()

        # Same answers before timing anything.
        for fen in fens[:200]:
            assert write_fen(read_fen(fen, variant).setup, variant, options).fen == board_class(fen).fen()
        rows.append((key, best_of(REPEATS, ours), best_of(REPEATS, theirs), len(fens)))
    ratios = report("FEN read + write (bench_fen)", rows)
    grammar_paths()
    return ratios


def grammar_paths() -> None:
    """Regex fast path vs pyparsing grammar, both matching the same well-formed FENs."""
    print("FEN grammar: regex fast path vs pyparsing (bench_fen)")
    for key, groups in (("standard", frozenset()), ("crazyhouse", frozenset({POCKET_FIELDS})),
                        ("threecheck", frozenset({CHECK_FIELDS}))):
        fens = positions(key, COUNT // 3)
        pattern, grammar = fen_pattern(groups), fen_grammar(groups)
        assert all(pattern.fullmatch(fen) for fen in fens[:50])
        regex = best_of(REPEATS, lambda: [pattern.fullmatch(fen) for fen in fens]) / len(fens)
        parsed = best_of(REPEATS, lambda: [grammar.parse_string(fen) for fen in fens]) / len(fens)
        print(
            f"  {key:14} regex {regex * 1e6:7.2f} us/FEN   pyparsing {parsed * 1e6:7.2f} us/FEN"
            f"   regex is {parsed / regex:5.0f}x faster"
        )


if __name__ == "__main__":
    main()
