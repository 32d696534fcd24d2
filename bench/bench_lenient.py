"""Lenient move spellings against clean ones: what ``notation check`` pays a ply when a
file spells its moves the ways real files do, and the same against python-chess.

Games: bench_pgn's generator (seeded random games in nine lichess variants, clock
comments, Chess960, Horde and Racing Kings from a FEN tag), read back by python-chess and
written again, each move spelled by one of FORMS where it applies (the rest as SAN):

- over-disambiguation: ``Ngf3`` (the origin's file) and ``Ng1f3``, ``Qd1d2``, ``Rf1xf7``
  (the whole origin square) where SAN needs neither;
- long algebraic ``Ng1-f3``, ``e2-e4``, ``e4xd5``; pgn-extract's hyphenated one without the
  piece (``-Whalg``: ``g1-f3``, castling ``e1-g1``); UCI (``e2e4``, ``e7e8q``, no marks);
- check and mate marks left out; a ``+`` on a move that gives none; castling with zeros
  ``0-0``; the capture mark left out (``Nf3``, ``ed5``) or written where nothing is taken;
  ``e.p.`` glued after an en passant capture; a promotion without ``=`` (``e8Q``).

Each form is read with its own warning (``over-disambiguated``, ``long-algebraic``,
``wrong-check-mark``, ...). Figures:

- per form, ``check``'s whole cost a ply on the respelled file against the clean one
  (CPU time, best of REPEATS in turns), and callgrind's instruction count (the same count
  whatever else the machine runs) a ply and a respelled move: the clean file's count a ply
  plus what the respelled file costs more, over its respelled moves (target: 1.5x a clean
  ply at most). A respelled move costs its reading and its warning; where most such
  warnings are reported (one a game when the form is rare: a game folds a code met again
  into its first), the report dominates. So the same callgrind run also gives the
  instructions spent reading the games' moves (``read_game_moves``, compiled build: each
  move read, each warning made and placed at its line and column), without the check's
  work around them (splitting, tags, the problems sorted, formatted and printed): the
  ``reading`` columns, counted the same way;
- the hold-out: the same games, each spelled as one producer would (HABITS: long
  algebraic without check marks, whole squares, zeros and no marks, ...; only spellings
  python-chess reads too, and both read every game without an error), ``check`` against
  python-chess's ``read_game`` in whole processes (bench/pychess_pgn.py), CPU time, best
  of REPEATS taken in turns (target: 10x), beside the clean file's ratio.

"compiled" is the installed command beside this interpreter (its build is printed),
"pure" the same from a copy of the repository's ``.py`` sources (common.pure_build).

    python bench/bench_lenient.py [--games 2000] [--counted-games 300] [--repeats 3] [--no-pure]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_pgn  # noqa: E402
from bench_movetext import _best_cpu  # noqa: E402
from common import pure_build, pure_command  # noqa: E402

GAMES = 2_000
COUNTED_GAMES = 300  # games of each form counted under callgrind (about 20 s a run)
REPEATS = 3
TARGET_RATIO = 1.5  # a lenient ply against a clean one
TARGET_PEER = 10.0  # check against python-chess on the hold-out

# A speller: the text of ``move`` on ``board`` (python-chess, before the move) given its
# SAN and its ply, or None to keep the SAN.
Speller = Callable[[chess.Board, chess.Move, str, int], "str | None"]


def _marks(san: str) -> str:
    return san[len(san.rstrip("+#")):]


def _plain_piece_move(board: chess.Board, move: chess.Move) -> chess.PieceType | None:
    """The piece type of a move that is neither a drop nor castling, else None."""
    if move.drop is not None or board.is_castling(move):
        return None
    piece = board.piece_type_at(move.from_square)
    return piece


def _promotion(move: chess.Move, equals: bool = True) -> str:
    if move.promotion is None:
        return ""
    return ("=" if equals else "") + chess.piece_symbol(move.promotion).upper()


def _disambiguated(whole: bool) -> Speller:
    """``Ngf3`` (whole: ``Ng1f3``) for a piece move whose SAN names no origin."""
    def spell(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
        piece = _plain_piece_move(board, move)
        if piece is None or piece == chess.PAWN or (piece == chess.KING and not whole):
            return None
        if len(san.rstrip("+#").replace("x", "")) != 3:  # SAN names the origin already
            return None
        origin = chess.square_name(move.from_square)
        letter = chess.piece_symbol(piece).upper()
        return letter + (origin if whole else origin[0]) + san[1:]
    return spell


def _long(piece_letter: bool) -> Speller:
    """``Ng1-f3``, ``e4xd5`` (without the letter: ``g1-f3``, castling ``e1-g1`` where it is
    the king's two-step from the e-file, as pgn-extract's ``-Whalg`` writes it)."""
    def spell(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
        if move.drop is not None:
            return None
        if board.is_castling(move):
            if piece_letter or board.chess960 or chess.square_file(move.from_square) != 4:
                return None
            target = chess.square(6 if board.is_kingside_castling(move) else 2, chess.square_rank(move.from_square))
            return chess.square_name(move.from_square) + "-" + chess.square_name(target) + _marks(san)
        piece = board.piece_type_at(move.from_square)
        letter = chess.piece_symbol(piece).upper() if piece_letter and piece != chess.PAWN else ""
        separator = "x" if board.is_capture(move) else "-"
        return (letter + chess.square_name(move.from_square) + separator + chess.square_name(move.to_square)
                + _promotion(move) + _marks(san))
    return spell


def _uci(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    if move.drop is not None or (board.is_castling(move) and board.chess960):
        return None
    return move.uci()


def _no_check_marks(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    return san.rstrip("+#") if _marks(san) else None


def _false_check(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    return san + "+" if not _marks(san) and ply % 8 == 0 else None


def _zeros(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    return san.replace("O", "0") if san.startswith("O-O") else None


def _no_capture_marks(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    return san.replace("x", "") if "x" in san else None


def _false_capture(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    if "x" in san or ply % 8 != 0 or _plain_piece_move(board, move) in (None, chess.PAWN):
        return None
    body = san.rstrip("+#")
    return body[:-2] + "x" + body[-2:] + _marks(san)


def _en_passant(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    if not board.is_en_passant(move):
        return None
    body = san.rstrip("+#")
    return body + "e.p." + _marks(san)


def _promotion_without_equals(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    return san.replace("=", "") if "=" in san else None


# name, example, speller, whether python-chess's read_game reads it too
FORMS: list[tuple[str, str, Speller, bool]] = [
    ("over-disambiguated file", "Ngf3", _disambiguated(whole=False), True),
    ("over-disambiguated square", "Ng1f3", _disambiguated(whole=True), True),
    ("long algebraic", "Ng1-f3", _long(piece_letter=True), True),
    ("hyphenated, no piece", "g1-f3", _long(piece_letter=False), True),
    ("UCI", "g1f3", _uci, True),
    ("check marks left out", "Bb5", _no_check_marks, True),
    ("false check mark", "Nf3+", _false_check, True),
    ("castling with zeros", "0-0", _zeros, True),
    ("capture mark left out", "Nf3", _no_capture_marks, True),
    ("false capture mark", "Nxf3", _false_capture, True),
    ("e.p. glued", "exd6e.p.", _en_passant, True),
    ("promotion without =", "e8Q", _promotion_without_equals, True),
]
_BY_NAME = {name: speller for name, _, speller, _ in FORMS}


def _together(*names: str) -> Speller:
    """The forms named, the first that applies to a move spelling it (the last named is
    applied to what the first wrote where it marks or castles)."""
    spellers = [_BY_NAME[name] for name in names]

    def spell(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
        text = None
        for speller in spellers:
            found = speller(board, move, text or san, ply)
            if found is not None:
                text = found
        return text
    return spell


# The hold-out: each game spelled as one producer would, in turn (weights by repetition).
HABITS: list[tuple[str, Speller]] = [
    ("long algebraic", _BY_NAME["long algebraic"]),
    ("long algebraic, no check marks", _together("long algebraic", "check marks left out")),
    ("whole origin squares", _BY_NAME["over-disambiguated square"]),
    ("origin files, zeros", _together("over-disambiguated file", "castling with zeros")),
    ("no check marks", _BY_NAME["check marks left out"]),
    ("zeros, no check marks", _together("castling with zeros", "check marks left out")),
    ("hyphenated", _BY_NAME["hyphenated, no piece"]),
    ("UCI", _BY_NAME["UCI"]),
    ("no capture marks, e8Q", _together("capture mark left out", "promotion without =")),
    ("e.p., false marks", _together("e.p. glued", "false check mark", "false capture mark")),
]


class _Respeller(chess.pgn.StringExporter):
    """A game as ``str(game)`` writes it, each main-line move spelled by ``spell``."""

    def __init__(self, spell: Speller) -> None:
        super().__init__(columns=None)
        self.spell = spell
        self.plies = 0
        self.respelled = 0

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        if board.turn == chess.WHITE:
            self.write_token(f"{board.fullmove_number}. ")
        elif self.force_movenumber:
            self.write_token(f"{board.fullmove_number}... ")
        san = board.san(move)
        self.plies += 1
        text = self.spell(board, move, san, self.plies)
        if text is not None and text != san:
            self.respelled += 1
            san = text
        self.write_token(san + " ")
        self.force_movenumber = False


def _games(path: Path, count: int) -> list[chess.pgn.Game]:
    bench_pgn.build_games(path, count)
    found = []
    with open(path, encoding="utf-8") as source:
        while (game := chess.pgn.read_game(source)) is not None:
            found.append(game)
    return found


def _primer(games: list[chess.pgn.Game]) -> str:
    """For each form, the first of ``games`` it respells, respelled: put before every file
    counted, clean included, so that what a process pays once (the first warning of each
    code, the full reader's first call) is in every count and not in the difference."""
    found = []
    for _, _, speller, _ in FORMS:
        for game in games:
            exporter = _Respeller(speller)
            text = game.accept(exporter)
            if exporter.respelled:
                found.append(text + "\n\n")
                break
    return "".join(found)


def _write(games: list[chess.pgn.Game], path: Path, spell_of: Callable[[int], Speller],
           primer: str = "") -> tuple[int, int]:
    """``games`` written to ``path`` after ``primer``, game i spelled by ``spell_of(i)``:
    (plies, respelled) of ``games``."""
    plies = respelled = 0
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(primer)
        for index, game in enumerate(games):
            exporter = _Respeller(spell_of(index))
            out.write(game.accept(exporter) + "\n\n")
            plies += exporter.plies
            respelled += exporter.respelled
    return plies, respelled


def _keep(board: chess.Board, move: chess.Move, san: str, ply: int) -> str | None:
    return None


def _installed() -> str:
    script = Path(sys.executable).with_name("notation")
    if not script.exists():
        raise SystemExit(f"bench_lenient: no notation command beside {sys.executable}; install the package first")
    return str(script)


def _build() -> str:
    probe = ("import notation.moves.chess as m; "
             "print('compiled' if m.__file__.endswith(('.so', '.pyd')) else 'pure')")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd="/")
    return done.stdout.strip() or "unknown"


def _check(argv: list[str], path: Path) -> list[str]:
    return [*argv, "check", str(path), "--progress", "never"]


def _problems(installed: str, path: Path) -> dict[str, int]:
    """Each problem code ``check`` gives on ``path``, with how often (counts included);
    refuses a file where it finds an error: every spelling here must read."""
    done = subprocess.run([installed, "check", str(path), "--format", "json", "--progress", "never"],
                          capture_output=True, text=True, check=False)
    found: dict[str, int] = {}
    for problem in json.loads(done.stdout)["problems"]:
        if problem["severity"] == "error":
            raise SystemExit(f"bench_lenient: check found an error in {path.name}: {problem}")
        found[problem["code"]] = found.get(problem["code"], 0) + problem.get("count", 1)
    return found


def _python_chess_errors(path: Path) -> int:
    done = subprocess.run([sys.executable, str(HERE / "pychess_pgn.py"), str(path)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)["errors"]


READING = "CPyDef_gamemoves___read_game_moves"  # the compiled build's symbol for reading a game's moves
_TOTALS = re.compile(r"^(?:summary|totals): (\d+)", re.MULTILINE)


def _counts(argv: list[str], output: Path) -> tuple[int, int]:
    """(whole, reading): the instructions of the whole process and those spent within
    ``READING`` (0 where the build has no such symbol: a pure one), from one callgrind run
    (``PYTHONHASHSEED`` fixed, from ``/``, as bench_instructions counts)."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}", "--compress-strings=no",
         "--compress-pos=no", *argv],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False, cwd="/",
    )
    try:
        text = output.read_text(encoding="utf-8", errors="replace")
    except OSError:
        raise SystemExit(f"bench_lenient: callgrind wrote nothing for {argv}: {done.stderr[-500:]!r}") from None
    finally:
        output.unlink(missing_ok=True)
    totals = _TOTALS.findall(text)
    if not totals:
        raise SystemExit(f"bench_lenient: no total in callgrind's output for {argv}")
    reading = 0
    caller = callee = ""
    pending = False
    for line in text.splitlines():
        if line.startswith("fn="):
            caller = line[3:]
        elif line.startswith("cfn="):
            callee = line[4:]
        elif line.startswith("calls="):
            pending = True
        elif pending:
            pending = False
            if callee.startswith(READING) and not caller.startswith(READING):
                reading += int(line.split()[1])
    return int(totals[-1]), reading


def _per_form(directory: Path, games: list[chess.pgn.Game], installed: str, repeats: int, counted: int,
              forms: list[tuple[str, str, Speller, bool]]) -> None:
    """Each form's file against the clean one: CPU a ply, and instructions a ply and a
    respelled move (each file after the same primer, ``_primer``)."""
    primer = _primer(games)
    clean = directory / "clean.pgn"
    plies, _ = _write(games, clean, lambda _: _keep, primer)
    files: dict[str, tuple[Path, int]] = {}
    for name, _, speller, _ in forms:
        path = directory / f"form-{len(files)}.pgn"
        _, respelled = _write(games, path, lambda _, speller=speller: speller, primer)
        files[name] = (path, respelled)
    commands = {"clean": _check([installed], clean)}
    commands |= {name: _check([installed], path) for name, (path, _) in files.items()}
    best = _best_cpu(commands, repeats)
    counts: dict[str, tuple[int, int, int]] = {}  # form: (whole, reading, respelled moves), the primer's taken off
    small_plies = 0
    if shutil.which("valgrind") is None:
        print("  (valgrind is not installed here: no instruction counts)")
    else:
        only_primer = directory / "primer.pgn"
        only_primer.write_text(primer, encoding="utf-8")
        small = games[:counted]
        small_clean = directory / "counted-clean.pgn"
        small_plies, _ = _write(small, small_clean, lambda _: _keep, primer)
        output = directory / "callgrind.out"
        start, start_reading = _counts(_check([installed], only_primer), output)
        whole, reading = _counts(_check([installed], small_clean), output)
        counts["clean"] = (whole - start, reading - start_reading, 0)
        for index, (name, _, speller, _) in enumerate(forms):
            path = directory / f"counted-{index}.pgn"
            _, respelled = _write(small, path, lambda _, speller=speller: speller, primer)
            whole, reading = _counts(_check([installed], path), output)
            counts[name] = (whole - start, reading - start_reading, respelled)
    clean_cpu = best["clean"] / plies
    reads = bool(counts) and counts["clean"][1] > 0
    print(f"  {'form':27} {'example':9} {'respelled':>9} {'CPU us/ply':>10} {'ratio':>6}"
          + (f"  instr/ply  ratio  instr/respelled move      ratio (target <= {TARGET_RATIO}x)" if counts else "")
          + ("   reading (clean: a ply)  ratio" if reads else ""))
    row = f"  {'clean (SAN)':27} {'Nf3':9} {0:9,} {clean_cpu * 1e6:10.2f} {1:5.2f}x"
    if counts:
        clean_ply = counts["clean"][0] / small_plies
        row += f" {clean_ply:10,.0f}"
        clean_read = counts["clean"][1] / small_plies
        if reads:  # under the forms' reading of a respelled move
            row += " " * 39 + f" {clean_read:20,.0f}"
    print(row)
    for name, example, _, _ in forms:
        _, respelled = files[name]
        cpu = best[name] / plies
        row = f"  {name:27} {example:9} {respelled:9,} {cpu * 1e6:10.2f} {cpu / clean_cpu:5.2f}x"
        if counts:
            whole, reading, moves = counts[name]
            row += f" {whole / small_plies:10,.0f} {whole / counts['clean'][0]:5.2f}x"
            if moves:
                per_move = clean_ply + (whole - counts["clean"][0]) / moves
                row += f" {per_move:10,.0f} ({moves:5,} moves) {per_move / clean_ply:5.2f}x"
                if reads:
                    read_move = clean_read + (reading - counts["clean"][1]) / moves
                    row += f" {read_move:20,.0f} {read_move / clean_read:9.2f}x"
        print(row)
    print(f"  (CPU: whole check processes on {len(games):,} games, {plies:,} plies. Instructions: on the first "
          f"{counted:,} games ({small_plies:,} plies), the whole check process less one on the primer alone; a "
          "respelled move: a clean ply plus what the file costs more, over its respelled moves"
          + ("; reading: the same, counted within read_game_moves alone" if reads else "") + ")")


def _hold_out(directory: Path, games: list[chess.pgn.Game], installed: str, pure: Path | None,
              repeats: int) -> list[float]:
    """The hold-out of messy games against python-chess, beside the clean file."""
    clean = directory / "holdout-clean.pgn"
    messy = directory / "holdout-messy.pgn"
    plies, _ = _write(games, clean, lambda _: _keep)
    _, respelled = _write(games, messy, lambda index: HABITS[index % len(HABITS)][1])
    for path in (clean, messy):
        errors = _python_chess_errors(path)
        if errors:
            raise SystemExit(f"bench_lenient: python-chess found errors in {errors} games of {path.name}")
    warnings = _problems(installed, messy)
    sides = {"compiled": [installed]}
    if pure is not None:
        sides["pure"] = pure_command(pure)
    commands = {"python-chess clean": [sys.executable, str(HERE / "pychess_pgn.py"), str(clean)],
                "python-chess messy": [sys.executable, str(HERE / "pychess_pgn.py"), str(messy)]}
    for build, argv in sides.items():
        commands[f"check clean ({build})"] = _check(argv, clean)
        commands[f"check messy ({build})"] = _check(argv, messy)
    load = os.getloadavg()[0]
    best = _best_cpu(commands, repeats)
    print(f"the hold-out: {len(games):,} games, {plies:,} plies, {respelled:,} of them respelled "
          f"({respelled / plies:.0%}), each game as one of {len(HABITS)} producers would write it; whole processes, "
          f"CPU time, best of {repeats} in turns (load average {load:.2f} at the start)")
    print("  warnings check gives on it: " + ", ".join(f"{code} {count:,}" for code, count in sorted(warnings.items())))
    ratios = []
    for build in sides:
        for kind in ("clean", "messy"):
            ours, theirs = best[f"check {kind} ({build})"], best[f"python-chess {kind}"]
            ratio = theirs / ours
            target = f"  (target >= {TARGET_PEER:.0f}x)" if kind == "messy" and build == "compiled" else ""
            if kind == "messy" and build == "compiled":
                ratios.append(ratio)
            print(f"  check {kind} ({build}) {ours:6.2f} s {ours / plies * 1e6:6.2f} us/ply; python-chess "
                  f"{theirs:6.2f} s {theirs / plies * 1e6:6.2f} us/ply: {ratio:5.2f}x{target}")
        lenient = best[f"check messy ({build})"] / best[f"check clean ({build})"]
        print(f"  messy against clean ({build}): {lenient:4.2f}x a ply")
    return ratios


def main(argv: list[str] | None = None) -> list[float]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--counted-games", type=int, default=COUNTED_GAMES,
                        help="games of each form counted under callgrind")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--no-pure", action="store_true", help="skip the pure-Python build")
    parser.add_argument("--no-forms", action="store_true", help="only the hold-out")
    parser.add_argument("--forms", nargs="*", help="only the forms whose names hold one of these words")
    parser.add_argument("--no-hold-out", action="store_true", help="only the forms")
    args = parser.parse_args(argv or [])
    installed = _installed()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        games = _games(directory / "source.pgn", args.games)
        if not args.no_forms:
            print(f"lenient spellings, check's whole cost a ply ({len(games):,} games of bench_pgn's generator, each "
                  f"form on every move it applies to; installed build {_build()}; CPU best of {args.repeats})")
            forms = [form for form in FORMS if not args.forms or any(word in form[0] for word in args.forms)]
            _per_form(directory, games, installed, args.repeats, min(args.counted_games, len(games)), forms)
        if args.no_hold_out:
            return []
        pure = None if args.no_pure else pure_build(directory)
        return _hold_out(directory, games, installed, pure, args.repeats)


if __name__ == "__main__":
    main(sys.argv[1:])
