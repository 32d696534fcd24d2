"""One shape for each thing: a problem has one human line (``Problem.describe``), used by
the CLI and the service alike; variant aliases have one parser (``parse_aliases``), used by
``--variant-alias`` and ``NOTATION_VARIANT_ALIASES`` alike."""

from __future__ import annotations

import io
import json

import pytest

from notation.cli.main import main
from notation.errors import Problem
from notation.fen.profiles import resolve_options
from notation.operations import ConvertResult, ValidateResult, convert_fen, validate_fen
from notation.variants import parse_aliases

from notation_service import create_app
from notation_service.config import ConfigError, Settings
from notation_service.schemas import ConvertOut, ValidateOut

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.mark.parametrize(
    ("problem", "line"),
    [
        (Problem("empty", "no pieces"), "empty: no pieces"),
        (Problem("fen-syntax", "bad", field="turn"), "fen-syntax: bad (field turn)"),
        (Problem("fen-syntax", "bad", column=7), "fen-syntax: bad (column 7)"),
        (Problem("fen-syntax", "bad", field="turn", column=7), "fen-syntax: bad (field turn, column 7)"),
    ],
)
def test_problem_describe(problem, line):
    assert problem.describe() == line
    assert problem.describe(prefix="line 3") == "line 3: " + line


def test_cli_and_service_describe_a_problem_alike(capsys):
    bad = START.replace(" w ", " x ")
    assert main(["convert", bad]) == 1
    cli_line = capsys.readouterr().out.strip().removeprefix("error: ")
    response = create_app(Settings()).test_client().post("/v1/fen/convert", json={"fen": bad})
    assert response.status_code == 422
    assert response.get_json()["detail"] == cli_line


@pytest.mark.parametrize(
    "entries",
    ["zh960=crazyhouse, koth2 = kingofthehill", ["zh960=crazyhouse", "koth2=kingofthehill"],
     ["zh960=crazyhouse,koth2=kingofthehill"], ["", "zh960=crazyhouse,,koth2=kingofthehill,"]],
)
def test_parse_aliases_takes_a_comma_string_or_a_list(entries):
    assert parse_aliases(entries) == {"zh960": "crazyhouse", "koth2": "kingofthehill"}


@pytest.mark.parametrize("entry", ["noequals", "=crazyhouse", "zh960=", " = "])
def test_parse_aliases_refuses_a_malformed_entry(entry):
    with pytest.raises(ValueError, match="ALIAS=VARIANT"):
        parse_aliases(["zh960=crazyhouse", entry])
    with pytest.raises(ValueError, match="ALIAS=VARIANT"):
        parse_aliases("zh960=crazyhouse," + entry)


def test_cli_and_service_read_the_same_alias_text(capsys):
    text = "myhouse=crazyhouse,koth2=kingofthehill"
    assert Settings.from_env({"NOTATION_VARIANT_ALIASES": text}).alias_map() == parse_aliases(text)
    assert main(["validate", "--variant-alias", text, "--variant", "koth2", START]) == 0
    assert capsys.readouterr().out == "valid\n"


def test_cli_and_service_refuse_the_same_malformed_alias(capsys):
    with pytest.raises(ConfigError, match="NOTATION_VARIANT_ALIASES: expected ALIAS=VARIANT"):
        Settings.from_env({"NOTATION_VARIANT_ALIASES": "a=crazyhouse,nonsense"})
    with pytest.raises(SystemExit) as stopped:
        main(["validate", "--variant-alias", "a=crazyhouse,nonsense", START])
    assert stopped.value.code == 2
    assert "--variant-alias: expected ALIAS=VARIANT, got 'nonsense'" in capsys.readouterr().err


def test_failure_results_have_the_shape_of_real_ones():
    problem = Problem("bad-input", "line 1: expected a JSON object")
    converted = ConvertResult.failure(problem).to_dict()
    assert converted.keys() == convert_fen(START).to_dict().keys()
    assert converted == {"ok": False, "fen": None, "variant": None, "errors": [problem.to_dict()],
                         "warnings": [], "detected": None}
    judged = ValidateResult.failure(problem).to_dict()
    assert judged.keys() == validate_fen(START).to_dict().keys()
    assert judged == {"valid": False, "variant": None, "errors": [problem.to_dict()], "warnings": [], "detected": None}


@pytest.mark.parametrize(("command", "ok_key"), [("convert", "ok"), ("validate", "valid")])
def test_an_unusable_json_line_is_answered_with_the_failure_shape(command, ok_key, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"fen": 1}\n{"fen": "' + START.encode() + b'"}\n')))
    assert main([command, "--json"]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first.keys() == second.keys()
    assert first[ok_key] is False and second[ok_key] is True
    assert first["errors"] == [{"code": "bad-input", "message": 'line 1: "fen" must be a string'}]


@pytest.mark.parametrize(("command", "ok_key"), [("convert", "ok"), ("validate", "valid")])
def test_a_library_failure_on_one_input_is_its_answer_and_exit_3(command, ok_key, monkeypatch, capsys, tmp_path):
    # The failure is injected where the compiled build still looks it up at run time: the
    # variant guesser, imported when an input first asks for ``auto``.
    import notation.guess

    def failing(text, registry):
        raise RuntimeError("boom")

    monkeypatch.setattr(notation.guess, "guess_variant", failing)
    lines = tmp_path / "lines.jsonl"
    lines.write_text(json.dumps({"fen": START, "variant": "auto"}) + "\n" + json.dumps({"fen": START}) + "\n")
    assert main([command, "--json", "--input", str(lines)]) == 3
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first[ok_key] is False and second[ok_key] is True
    assert first["errors"][0]["code"] == "internal-error"
    assert first.keys() == second.keys()


ZH = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
THREE_CHECK = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+2 0 1"


@pytest.mark.parametrize(
    ("fen", "variant"),
    [(START, "standard"), (ZH, "crazyhouse"), (START.replace(" 0 1", ""), "zh"), (THREE_CHECK, "3check")],
)
def test_service_answers_are_the_results_as_the_response_schemas_dump_them(fen, variant):
    client = create_app(Settings()).test_client()
    converted = client.post("/v1/fen/convert", json={"fen": fen, "variant": variant, "profile": "lichess"})
    assert converted.status_code == 200
    result = convert_fen(fen, variant, options=resolve_options("lichess"))
    assert converted.get_json() == ConvertOut().dump(result.to_dict())
    judged = client.post("/v1/fen/validate", json={"fen": fen, "variant": variant})
    expected = validate_fen(fen, variant).to_dict()
    assert judged.get_json() == ValidateOut().dump(expected) == expected


def test_service_json_stays_ascii():
    client = create_app(Settings()).test_client()
    response = client.post("/v1/fen/convert", json={"fen": "é\udc80 w - - 0 1"})
    assert response.status_code == 422
    assert response.data.isascii()
    assert "é" in response.get_json()["detail"] or "\\u00e9" in response.data.decode()
