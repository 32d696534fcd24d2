"""The repairs ``normalize`` makes to one game when asked: broken games cut or left out
(``--broken truncate|drop``), and ``--fix-results``, ``--fix-tags``, ``--fix-move-numbers``.

``GameRepairs(options)`` is what ``Normalizer`` calls for them, game by game, with the
game's report and its edits: ``broken`` for a game whose moves hold an error (where the cuts
fall: ``broken``), ``fix_moves`` for a game whose main line reads cleanly, ``fix_tags`` for
its tags. The rules of each repair are in its own module (``result_repair``, ``tag_repair``,
``move_numbers``), the options and report codes in ``repairs``; this module joins them to a
game: which text is read, where the edits land and what is reported (docs/pgn.md, "Broken
games and repairs"). Each change is a warning under its code.

Nothing here raises on bad input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from notation.pgn.lines import line_ending
from notation.pgn.repairs import GAME_DROPPED, GAME_TRUNCATED, RESULT_FIXED, BrokenGames, Repair
from notation.pgn.tags import Tag, escape_tag_value

if TYPE_CHECKING:  # the move layer is imported when a repair needs it (--fix-tags alone reads no move)
    from notation.game.family import GamePosition
    from notation.pgn.broken import CutText
    from notation.pgn.gamemoves import GameMoves, PlacedProblem
    from notation.pgn.games import RawGame
    from notation.pgn.gamestart import Start
    from notation.pgn.move_numbers import PlyRecorder
    from notation.pgn.movewrite import MoveWriter
    from notation.pgn.normalize import NormalizeOptions, _Edits, _Report


class GameRepairs:
    """The ``--broken`` and ``--fix-*`` repairs of ``options``, made on one game at a time."""

    def __init__(self, options: NormalizeOptions):
        self.options = options

    def ply_recorder(self) -> PlyRecorder | None:
        """What records the plies of the moves played, for ``--fix-move-numbers`` (else None)."""
        if Repair.MOVE_NUMBERS not in self.options.repairs:
            return None
        from notation.pgn.move_numbers import PlyRecorder

        return PlyRecorder()

    def broken(self, game: RawGame, start: Start, found: GameMoves, result_tag: Tag | None, report: _Report,
               edits: _Edits, writer: MoveWriter | None) -> BrokenGames:
        """A game whose moves hold an error, under ``--broken truncate`` or ``drop``: its first
        error becomes a ``game-dropped`` warning (with the error as its ``cause``) and the game
        is left out (``DROP``), or each cut (``broken.find_cuts``: a bad variation's, the
        game's) a ``game-truncated`` warning with the error that made it (``TRUNCATE``). A cut
        game is read again, so that what is written is checked; its warnings are reported from
        that reading, and a game whose main line is whole gets the ``--fix-*`` repairs of a
        clean game. ``KEEP`` (not expected): the cut game did not read cleanly, and the game
        is kept as read with its errors reported."""
        from notation.pgn.broken import CutText, cut_replacement, find_cuts
        from notation.pgn.gamemoves import read_game_moves
        from notation.pgn.move_reports import move_problem_dict, report_moves
        from notation.pgn.movetext import movetext_start
        from notation.pgn.movewalk import Level

        options = self.options
        text = game.read_text
        cuts = find_cuts(text, movetext_start(text), found.problems, options.budget)
        assert cuts  # the game has an error
        if options.broken is BrokenGames.DROP:
            cause = cuts[0].cause
            for placed in found.problems:
                if placed.problem.level is not Level.ERROR:
                    report.add(placed.line, move_problem_dict(placed), kind="warnings")
            report.add(cause.line, _repair_dict(GAME_DROPPED, f"the game is left out: {_said(cause)}: "
                                                f"{cause.problem.message}", cause), kind="warnings")
            return BrokenGames.DROP
        kept = CutText(text, cuts, "*")
        plies = self.ply_recorder()
        game_cut = kept.game_cut
        again = read_game_moves(kept.text, game.start_line, start, result_tag=result_tag if game_cut < 0 else None,
                                writer=writer, budget=options.budget, letters=options.move_letters,
                                first_column=game.start_column, visitor=plies)
        if again.has_errors or again.end is None:  # not expected: the text kept read cleanly
            report_moves(found, report)
            return BrokenGames.KEEP
        report_moves(again, report)
        for start_at, end_at, new in again.edits:
            if game_cut < 0 or start_at < game_cut:
                edits.replace_span(kept.source(start_at), kept.source(end_at), new)
        result = "*"
        outcome = again.end.outcome() if game_cut >= 0 and Repair.RESULTS in options.repairs else None
        if outcome is not None:
            result = outcome.result
        for cut in cuts:
            edits.replace_span(cut.start, cut.end, cut_replacement(text, cut, result))
            cause = cut.cause
            report.add(cause.line, _repair_dict(GAME_TRUNCATED, (
                f"a variation is cut before {_said(cause)} ({cause.problem.message}); the main line is kept"
                if cut.variation else
                f"the game is cut before {_said(cause)} ({cause.problem.message}); its result is now {result}"
            ), cause), kind="warnings")
        if game_cut < 0:  # only variations cut: the main line is whole, repaired as a clean game's
            if start.position is not None:
                self.fix_moves(game, start.position, again, plies, result_tag, report, edits, kept)
            return BrokenGames.TRUNCATE
        self._set_result_tag(game, result_tag, result, edits)
        if outcome is not None:  # --fix-results: the cut game ends decided
            line, column = _place(text, game, kept.source(game_cut))
            report.add(line, {"code": RESULT_FIXED, "message": f"result * -> {result}: the moves end in "
                              f"{outcome.reason.value}", "column": column, "old": "*", "new": result}, kind="warnings")
        if plies is not None and start.position is not None:
            self._fix_numbers(game, kept, start.position, plies, report, edits, game_cut)
        return BrokenGames.TRUNCATE

    def fix_moves(self, game: RawGame, start: GamePosition, found: GameMoves, plies: PlyRecorder | None,
                  result_tag: Tag | None, report: _Report, edits: _Edits, kept: CutText | None = None) -> None:
        """``--fix-results`` and ``--fix-move-numbers`` on a game whose main line reads cleanly
        (``kept``: the game with its bad variations cut; None: as read; ``found``: its moves
        read, ``plies`` recorded as they were played)."""
        if kept is None:
            from notation.pgn.broken import CutText

            kept = CutText(game.read_text, [], "")
        if Repair.RESULTS in self.options.repairs:
            self._fix_results(game, kept, found, result_tag, report, edits)
        if plies is not None:
            self._fix_numbers(game, kept, start, plies, report, edits, -1)

    def fix_tags(self, game: RawGame, has_fen: bool, report: _Report, edits: _Edits) -> None:
        """``--fix-tags`` (``tag_repair``): each change a ``tag-fixed`` warning at its tag."""
        from notation.pgn.repairs import TAG_FIXED
        from notation.pgn.tag_repair import tag_fixes

        for fix in tag_fixes(game.text, game.tags, setup_by_normalize=has_fen):
            if fix.part == "name":
                edits.replace_span(fix.start, fix.end, fix.new)
                message = f"tag name {fix.old} -> {fix.new}"
            else:
                edits.replace_span(fix.start, fix.end, escape_tag_value(fix.new))
                message = f"{fix.tag.name} {fix.old!r} -> {fix.new!r}"
            report.add(fix.tag.line, {"code": TAG_FIXED, "message": message, "tag": fix.tag.name,
                                      "column": fix.start - fix.tag.line_offset + 1, "old": fix.old, "new": fix.new},
                       kind="warnings")

    def _fix_results(self, game: RawGame, kept: CutText, found: GameMoves, result_tag: Tag | None, report: _Report,
                     edits: _Edits) -> None:
        """The Result tag and the result token made to say the same, the decided end where the
        moves reach one (``result_repair``); each change a ``result-fixed`` warning."""
        from notation.pgn.movetext import movetext_start
        from notation.pgn.result_repair import main_result, stated_result

        text = kept.text
        begin = movetext_start(text)
        token = main_result(text, begin, self.options.budget)
        outcome = found.end.outcome() if found.end is not None else None
        tag_value = result_tag.value if result_tag is not None else None
        stated = stated_result(tag_value, token.value if token is not None else None, outcome)
        if stated is None:
            return
        if tag_value != stated.result and self._set_result_tag(game, result_tag, stated.result, edits):
            line = result_tag.line if result_tag is not None else game.tags[-1].line
            report.add(line, {"code": RESULT_FIXED, "tag": "Result", "old": tag_value, "new": stated.result,
                              "message": (f"Result tag {tag_value!r} -> " if tag_value is not None else
                                          "Result tag added: ") + f"{stated.result!r}: {stated.why}"}, kind="warnings")
        if token is not None:
            if text[token.start:token.end] != stated.result:
                edits.replace_span(kept.source(token.start), kept.source(token.end), stated.result)
                line, column = _place(game.read_text, game, kept.source(token.start))
                report.add(line, {"code": RESULT_FIXED, "message": f"result token {text[token.start:token.end]} "
                                  f"-> {stated.result}: {stated.why}", "column": column,
                                  "old": text[token.start:token.end], "new": stated.result}, kind="warnings")
        else:
            end = len(text.rstrip())
            if end > begin:  # movetext to end: the token goes after it
                at = kept.source(end)
                edits.replace_span(at, at, " " + stated.result)
                line, column = _place(game.read_text, game, at)
                report.add(line, {"code": RESULT_FIXED, "message": f"result token added: {stated.result}: "
                                  f"{stated.why}", "column": column, "old": None, "new": stated.result},
                           kind="warnings")

    def _set_result_tag(self, game: RawGame, result_tag: Tag | None, value: str, edits: _Edits) -> bool:
        """The Result tag's value set to ``value``; a game with tags but no Result tag gets one
        on a line after its last tag, unless the movetext starts on that tag's line (a tag line
        after it would start another game). False where no tag could be written."""
        if result_tag is not None:
            if result_tag.value != value:
                edits.replace(result_tag, result_tag.value_start, result_tag.value_end, value)
            return True
        if not game.tags:
            return False
        last = game.tags[-1]
        line = game.text[last.line_offset:last.line_offset + last.line_length]
        if not line_ending(line) or line[last.end:].strip():  # the movetext goes on from the tag's line
            return False
        edits.insert_after(last, f'[Result "{value}"]')
        return True

    def _fix_numbers(self, game: RawGame, kept: CutText, start: GamePosition, plies: PlyRecorder, report: _Report,
                     edits: _Edits, end: int) -> None:
        """The move numbers of ``kept`` before ``end`` (an offset of it; -1: all) counted from
        the start's fullmove; one ``move-numbers-fixed`` warning for the game, at the first
        number changed."""
        from notation.pgn.move_numbers import renumber
        from notation.pgn.movetext import movetext_start
        from notation.pgn.repairs import MOVE_NUMBERS_FIXED

        setup = start.to_setup()
        text = kept.text
        changes = renumber(text, movetext_start(text), plies.plies, setup.turn == "w", setup.fullmove, end,
                           self.options.budget)
        if not changes:
            return
        for change in changes:
            edits.replace_span(kept.source(change.start), kept.source(change.end), change.new)
        first = changes[0]
        line, column = _place(game.read_text, game, kept.source(first.start))
        was = f"{first.old!r} -> {first.new.strip()!r}" if first.old else f"{first.new.strip()!r} added"
        entry: dict[str, Any] = {"code": MOVE_NUMBERS_FIXED, "message": f"{len(changes)} move number"
                                 f"{'s' if len(changes) != 1 else ''} rewritten from the start's move "
                                 f"{setup.fullmove} (the first: {was})", "column": column}
        if len(changes) > 1:
            entry["count"] = len(changes)
        report.add(line, entry, kind="warnings")


def _said(cause: PlacedProblem) -> str:
    """A broken game's error, as its warning names it: the code and the ply."""
    return cause.problem.code + (f" at ply {cause.problem.ply}" if cause.problem.ply is not None else "")


def _repair_dict(code: str, message: str, cause: PlacedProblem) -> dict[str, Any]:
    """A broken game's warning for the report, placed at its first error, which it holds
    as ``cause``."""
    from notation.pgn.move_reports import move_problem_dict

    out: dict[str, Any] = {"code": code, "message": message, "column": cause.column}
    if cause.problem.ply is not None:
        out["ply"] = cause.problem.ply
    if cause.problem.move is not None:
        out["move"] = cause.problem.move
    out["cause"] = move_problem_dict(cause)
    return out


def _place(text: str, game: RawGame, offset: int) -> tuple[int, int]:
    """The input's line and column of ``offset`` in the game's ``text``."""
    from notation.pgn.movetext import Locator

    return Locator(text, game.start_line, game.start_column).place(offset)
