// The page at /: a FEN's board, its problems, its dialect and the same position in every
// profile; play moves on the board and edit the position. Everything it knows comes from
// the service: the variant guess ("auto", POST /v1/fen/validate), the problems, the
// profiles of the variant (GET /v1/variants), the legal moves and their squares
// (POST /v1/moves), the position after a move (POST /v1/play), the start positions
// (GET /v1/start) and the picture (GET /v1/board.svg, check and last move marked).
// No rule of any variant is written here: a move is legal when the service listed it.
// Every request it makes answers 200: moves are asked only of a legal position, a move
// is played only when it was listed, so no bad input shows up as a failed request.
// A pasted game (game.js, POST /v1/pgn/game) is stepped through by showing its positions.
"use strict";

const SQUARE_NAME = /\b([a-l](?:1[0-2]|[1-9]))\b/g;
const SVG_NS = "http://www.w3.org/2000/svg";
const HIGHLIGHT = "#e0442c";
const DEFAULT_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const UNREADABLE = new Set(["fen-syntax", "unknown-variant"]);
const FILE_LETTERS = "abcdefghijkl";

const state = {
  variants: [], byKey: new Map(), allProfiles: [], acceptCodes: [], orientation: "white",
  generation: 0, timer: null,
  shown: null,        // {fen, variant (key), valid}: the position the board shows
  lastMove: "",       // the move that led here, as board.svg's last_move ("e2e4", "@e4")
  legal: [],          // [{move, from, to, drop, promotion, kind, rook}] of the shown position
  selected: null,     // {from, drop}: the piece (or pocket piece) whose moves are shown
  drag: null,
  history: [],        // earlier {fen, variant, lastMove}, for Undo
  mode: "play",
  tool: null,         // edit mode: a piece letter to place, "erase", or null (drag pieces)
  game: null,         // the pasted game (game.js): its answer and its positions as a tree of nodes
  node: null,         // the game's position the board shows, or null
  branch: null,       // the game's position moves were played from on the board, or null
  outcome: null,      // how the game ended in the shown position (POST /v1/moves), or null
};

// --- words for people -------------------------------------------------------------------

// A move as a player reads it: a pawn drop with its letter, as lichess writes it ("P@g4");
// the service writes python-chess's SAN ("@g4").
function displayMove(move) {
  return move && move.startsWith("@") ? `P${move}` : move;
}

function sideName(letter, variantKey) {
  const variant = state.byKey.get(variantKey);
  if (letter === "w") return variant && variant.family === "xiangqi" ? "Red" : "White";
  return letter === "b" ? "Black" : letter;
}

const OUTCOME_WORDS = { checkmate: "Checkmate", stalemate: "Stalemate", hill: "King of the hill",
  "check-count": "Checks given", race: "Race won", "royal-exploded": "King exploded" };

// What the status line says of the shown position: whose move, check, or how the game ended.
function describePosition(valid, variantKey) {
  const svg = $("board").querySelector("svg");
  const turn = svg && svg.querySelector("g.turn");
  const side = turn ? sideName(turn.dataset.turn, variantKey) : null;
  if (!valid) return `${side ? `${side} to move, but the` : "The"} position is not legal: see its problems.`;
  const outcome = state.outcome;
  if (outcome) {
    const how = OUTCOME_WORDS[outcome.reason] || outcome.reason.replace(/-/g, " ");
    const verdict = outcome.winner ? `${sideName(outcome.winner, variantKey)} wins` : "a draw";
    return `${how[0].toUpperCase()}${how.slice(1)}: ${verdict} (${outcome.result}).`;
  }
  const inCheck = svg && svg.querySelector("g.check") ? ", in check" : "";
  const count = state.legal.length;
  return `${side || "The side"} to move${inCheck} (${count} legal move${count === 1 ? "" : "s"}).`;
}

function $(id) { return document.getElementById(id); }

function setStatus(text) { $("status").textContent = text; }

async function getJson(url, options) {
  const response = await fetch(url, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.detail || `${response.status} from ${url}`);
  return body;
}

function postJson(url, body) {
  return getJson(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

async function loadVariants() {
  const [variants, spec] = await Promise.all([getJson("/v1/variants"), getJson("/openapi.json")]);
  state.variants = variants.variants;
  for (const variant of state.variants) state.byKey.set(variant.key, variant);
  state.allProfiles = spec.components.schemas.Profile.enum;
  state.acceptCodes = spec.components.schemas.AcceptCodes.items.enum;
  const names = new Set(["auto"]);
  for (const variant of state.variants) {
    names.add(variant.name);
    names.add(variant.key);
    for (const alias of variant.aliases) names.add(alias);
  }
  const list = $("variant-list");
  for (const name of names) {
    const option = document.createElement("option");
    option.value = name;
    list.appendChild(option);
  }
  const starts = $("start-variant");
  for (const variant of state.variants) {
    const option = document.createElement("option");
    option.value = variant.key;
    option.textContent = variant.name;
    starts.appendChild(option);
  }
}

function typedVariant() {
  return $("variant").value.trim() || "auto";
}

// --- problems, dialect, profiles ---------------------------------------------------

function markColumn(fen, column) {
  const marked = $("fen-marked");
  marked.replaceChildren();
  if (!column) return;
  const index = Math.min(column - 1, fen.length);
  const mark = document.createElement("mark");
  mark.className = "column";
  mark.dataset.column = String(column);
  mark.title = `column ${column}`;
  mark.textContent = fen.slice(index, index + 1) || " ";
  marked.append(fen.slice(0, index), mark, fen.slice(index + 1));
}

function squaresNamed(problem) {
  const names = new Set();
  if (problem.square) names.add(problem.square);
  for (const match of (problem.message || "").matchAll(SQUARE_NAME)) names.add(match[1]);
  return names;
}

function showProblems(result) {
  const list = $("problems");
  list.replaceChildren();
  const shown = result.warnings.filter((p) => p.code !== "guessed-variant");  // said beside the variant
  for (const [kind, problem] of [...result.errors.map((p) => ["error", p]), ...shown.map((p) => ["warning", p])]) {
    const item = document.createElement("li");
    item.className = kind;
    item.dataset.code = problem.code;
    const code = document.createElement("code");
    code.textContent = problem.code;
    const where = [];
    if (problem.field) where.push(`field ${problem.field}`);
    if (problem.column) where.push(`column ${problem.column}`);
    item.append(code, `: ${problem.message}` + (where.length ? ` (${where.join(", ")})` : ""));
    list.appendChild(item);
  }
  $("verdict").textContent = result.valid ? "The position is legal." : `${result.errors.length} problem(s) found.`;
}

function showGuess(result) {
  const used = $("variant-used");
  if (result.guess) {
    used.textContent = `Guessed: ${result.guess.name} (from ${result.guess.reason}).`;
    used.dataset.guessed = result.guess.variant;
  } else {
    used.textContent = "";
    delete used.dataset.guessed;
  }
}

function showDialect(detected) {
  const list = $("dialect");
  list.replaceChildren();
  if (!detected) return;
  for (const [name, value] of Object.entries(detected)) {
    const term = document.createElement("dt");
    term.textContent = name;
    const description = document.createElement("dd");
    description.textContent = value === null ? "none" : String(value);
    description.dataset.name = name;
    list.append(term, description);
  }
}

function copyButton(label, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Copy";
  button.setAttribute("aria-label", label);
  button.addEventListener("click", () => copyText(text()));
  return button;
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    setStatus(`Copied: ${text}`);
  } catch (error) {
    setStatus(`Could not copy (${error.message}); select the text and copy it by hand.`);
  }
}

// The profiles that write the variant (the service says which: those of its family).
function profilesOf(key) {
  const variant = state.byKey.get(key);
  return variant ? variant.profiles : state.allProfiles;
}

async function showProfiles(fen, variant, key, generation) {
  const body = $("profiles").tBodies[0];
  const profiles = profilesOf(key);
  const answers = await Promise.all(profiles.map((profile) =>
    postJson("/v1/fen/batch", { operation: "convert", variant, profile, items: [fen] })));
  if (generation !== state.generation) return;
  body.replaceChildren();
  profiles.forEach((profile, i) => {
    const result = answers[i].results[0];
    const row = document.createElement("tr");
    row.dataset.profile = profile;
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = profile;
    const cell = document.createElement("td");
    const output = document.createElement("output");
    output.id = `profile-${profile}`;
    output.textContent = result.ok ? result.fen : "(not written: " + result.errors.map((p) => p.code).join(", ") + ")";
    cell.appendChild(output);
    const copy = document.createElement("td");
    if (result.ok) copy.appendChild(copyButton(`Copy ${profile} FEN`, () => output.textContent));
    row.append(name, cell, copy);
    body.appendChild(row);
  });
}

// --- the board ---------------------------------------------------------------------

function boardUrl(fen, variant) {
  const query = new URLSearchParams({ fen, variant, orientation: state.orientation, check: "auto" });
  if (state.lastMove) query.set("last_move", state.lastMove);
  return `/v1/board.svg?${query}`;
}

function squareMark(svg, name, className, colour, radius) {
  const target = svg.querySelector(`g.squares [data-square="${name}"]`);
  if (!target) return null;
  let mark;
  if (target.tagName === "circle") {
    mark = document.createElementNS(SVG_NS, "circle");
    for (const attribute of ["cx", "cy"]) mark.setAttribute(attribute, target.getAttribute(attribute));
    mark.setAttribute("r", radius || "22.5");
  } else if (radius) {
    const x = +target.getAttribute("x") + 22.5;
    const y = +target.getAttribute("y") + 22.5;
    mark = document.createElementNS(SVG_NS, "circle");
    mark.setAttribute("cx", String(x));
    mark.setAttribute("cy", String(y));
    mark.setAttribute("r", radius);
  } else {
    mark = document.createElementNS(SVG_NS, "rect");
    for (const attribute of ["x", "y", "width", "height"]) mark.setAttribute(attribute, target.getAttribute(attribute));
  }
  mark.setAttribute("fill", colour);
  mark.setAttribute("class", className);
  mark.dataset.square = name;
  return mark;
}

function highlightSquares(svg, names) {
  const layer = svg.querySelector("g.highlights");
  for (const name of names) {
    const mark = squareMark(svg, name, "highlight problem", HIGHLIGHT);
    if (!mark || !layer) continue;
    mark.setAttribute("fill-opacity", "0.5");
    mark.setAttribute("stroke", HIGHLIGHT);
    mark.setAttribute("stroke-width", "2.5");
    layer.appendChild(mark);
  }
}

async function showBoard(fen, variant, names, generation) {
  const url = boardUrl(fen, variant);
  const response = await fetch(url);
  const text = await response.text();
  if (generation !== state.generation || !response.ok) return false;
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = document.importNode(parsed.documentElement, true);
  highlightSquares(svg, names);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
  const [, , boxWidth, boxHeight] = (svg.getAttribute("viewBox") || "0 0 1 1").split(/[\s,]+/).map(Number);
  if (boxWidth > 0 && boxHeight > 0) $("board").style.setProperty("--aspect", String(boxWidth / boxHeight));
  const holder = $("board");
  holder.replaceChildren(svg);
  holder.classList.remove("stale");
  $("board-note").textContent = "";
  $("board-image-link").href = url;
  $("board-image-link").hidden = false;
  return true;
}

function markStale(result) {
  const holder = $("board");
  if (!holder.querySelector("svg")) return;
  holder.classList.add("stale");
  const first = result.errors[0];
  $("board-note").textContent = `The board shows the last position that could be read; this FEN cannot: ${first.code}: ${first.message}`;
}

// --- legal moves: shown, dragged, played ---------------------------------------------

async function loadMoves(fen, variant, generation) {
  const answer = await postJson("/v1/moves", { fen, variant, squares: true });
  if (generation !== state.generation) return;
  state.legal = answer.moves.map((move, i) => ({ move, ...answer.squares[i] }));
  const list = $("legal-moves");
  list.replaceChildren();
  for (const entry of state.legal) {
    const option = document.createElement("option");
    option.value = entry.move;
    option.textContent = displayMove(entry.move);
    list.appendChild(option);
  }
  $("play-move").disabled = state.legal.length === 0;
  state.outcome = answer.outcome;
  $("outcome").textContent = answer.outcome ? `Game over: ${answer.outcome.reason} (${answer.outcome.result}).` : "";
}

function movesFrom(from, drop) {
  return state.legal.filter((m) => (drop ? m.kind === "drop" && m.drop === drop : m.from === from));
}

function targetsOf(entry) {
  return entry.rook ? [entry.to, entry.rook] : [entry.to];
}

function clearTargets() {
  const svg = $("board").querySelector("svg");
  if (svg) for (const mark of svg.querySelectorAll(".target, .selected")) mark.remove();
  state.selected = null;
  $("promotion").hidden = true;
}

function showTargets(from, drop) {
  clearTargets();
  const svg = $("board").querySelector("svg");
  const moves = movesFrom(from, drop);
  if (!svg || !moves.length) return false;
  state.selected = { from, drop };
  let layer = svg.querySelector("g.targets");
  if (!layer) {
    layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("class", "targets");
    svg.querySelector("g.pieces").before(layer);
  }
  if (from) {
    const mark = squareMark(svg, from, "selected", "#1f6feb");
    if (mark) { mark.setAttribute("fill-opacity", "0.35"); layer.appendChild(mark); }
  }
  for (const name of new Set(moves.flatMap(targetsOf))) {
    const mark = squareMark(svg, name, "target", "#1f6feb", "8");
    if (mark) { mark.setAttribute("fill-opacity", "0.55"); layer.appendChild(mark); }
  }
  return true;
}

// The listed moves from the selection to ``square`` (one, or several promotions).
function movesTo(square) {
  if (!state.selected) return [];
  return movesFrom(state.selected.from, state.selected.drop).filter((m) => targetsOf(m).includes(square));
}

function tryMove(square) {
  const found = movesTo(square);
  const from = state.selected ? (state.selected.from || `${state.selected.drop.toUpperCase()}@`) : "";
  if (!found.length) {
    setStatus(`${from}${from.endsWith("@") ? "" : "-"}${square} is not a legal move here.`);
    document.body.dataset.refused = `${from}${square}`;
    clearTargets();
    return;
  }
  if (found.length > 1) return choosePromotion(found);
  playMove(found[0]);
}

function choosePromotion(found) {
  const box = $("promotion");
  const buttons = box.querySelector(".choices");
  buttons.replaceChildren();
  const variant = state.byKey.get(state.shown.variant);
  for (const entry of found) {
    const piece = variant.pieces.find((p) => p.letter === entry.promotion);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = piece ? piece.name : entry.move;
    button.dataset.move = entry.move;
    button.addEventListener("click", () => playMove(entry));
    buttons.appendChild(button);
  }
  box.hidden = false;
  buttons.firstChild.focus();
}

async function playMove(entry) {
  const shown = state.shown;
  clearTargets();
  const answer = await postJson("/v1/play", { fen: shown.fen, variant: shown.variant, moves: [entry.move] });
  const next = gameChildReached(answer.fen);
  if (next) return showNode(next, `Played ${displayMove(answer.played[0])}, the game's own move.`);
  state.history.push({
    fen: shown.fen, variant: typedVariant(), lastMove: state.lastMove, node: state.node, branch: state.branch,
  });
  state.branch = state.node || state.branch;  // off the game: the list keeps where it left
  state.node = null;
  markCurrent();
  state.lastMove = entry.from ? `${entry.from}${entry.to}` : `@${entry.to}`;
  $("fen").value = answer.fen;
  $("undo").disabled = false;
  await refresh(`Played ${displayMove(answer.played[0])}.`);
}

async function undo() {
  const previous = state.history.pop();
  if (!previous) return;
  $("fen").value = previous.fen;
  $("variant").value = previous.variant;
  state.lastMove = previous.lastMove;
  state.node = previous.node;
  state.branch = previous.branch;
  markCurrent();
  $("undo").disabled = state.history.length === 0;
  await refresh();
}

// --- pointer: click or drag, in play and in edit ------------------------------------

function pointed(event) {
  const element = document.elementsFromPoint(event.clientX, event.clientY)
    .find((e) => e.closest && e.closest("#board svg") && (e.closest("[data-square]") || e.closest("g.pocket g.piece")));
  if (!element) return {};
  const pocketPiece = element.closest("g.pocket g.piece");
  if (pocketPiece) return { pocket: pocketPiece.dataset.piece };
  const squared = element.closest("[data-square]");
  return { square: squared.dataset.square };
}

function pieceOn(square) {
  const piece = $("board").querySelector(`g.pieces g.piece[data-square="${square}"]`);
  return piece ? piece.dataset.piece : null;
}

function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function startDrag(event, square) {
  const svg = $("board").querySelector("svg");
  const piece = svg.querySelector(`g.pieces g.piece[data-square="${square}"]`);
  if (!piece) return;
  state.drag = { square, piece, transform: piece.getAttribute("transform"), x: event.clientX, y: event.clientY };
}

function onPointerDown(event) {
  if (event.button !== 0 || !state.shown) return;
  const { square, pocket } = pointed(event);
  if (!square && !pocket) return;
  event.preventDefault();
  if (state.mode === "edit") return editPointerDown(event, square, pocket);
  if (pocket) {
    if (!showTargets(null, pocket.toLowerCase())) setStatus(`No ${pocket} can be dropped now.`);
    return;
  }
  if (state.selected && movesTo(square).length) return tryMove(square);
  if (movesFrom(square, null).length) {
    showTargets(square, null);
    return startDrag(event, square);
  }
  if (state.selected) return tryMove(square);
  if (pieceOn(square)) setStatus(`The piece on ${square} has no legal move.`);
}

function onPointerMove(event) {
  const drag = state.drag;
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4) return;
  drag.moved = true;
  const svg = $("board").querySelector("svg");
  const point = svgPoint(svg, event);
  drag.piece.setAttribute("transform", `translate(${point.x - 22.5} ${point.y - 22.5})`);
  drag.piece.classList.add("dragged");
}

function onPointerUp(event) {
  const drag = state.drag;
  state.drag = null;
  if (!drag || !drag.moved) return;
  drag.piece.setAttribute("transform", drag.transform);
  drag.piece.classList.remove("dragged");
  const { square } = pointed(event);
  if (!square || square === drag.square) return;
  if (state.mode === "edit") return editMove(drag.square, square);
  tryMove(square);
}

// --- edit mode: the lichess board editor's tools, each edit a new FEN ------------------

// The shown position's fields in the python-chess dialect (the service writes it, every
// code accepted so that an illegal position can be edited too), and its cells and pockets
// as the picture draws them.
async function editorModel() {
  const shown = state.shown;
  const answer = await postJson("/v1/fen/batch", {
    operation: "convert", profile: "python-chess", accept: state.acceptCodes,
    items: [{ fen: shown.fen, variant: shown.variant }],
  });
  const result = answer.results[0];
  if (!result.ok) return null;
  const cells = {};
  for (const piece of $("board").querySelectorAll("g.pieces g.piece")) cells[piece.dataset.square] = piece.dataset.piece;
  const pockets = {};
  for (const pocket of $("board").querySelectorAll("g.pocket")) {
    pockets[pocket.classList.contains("white") ? "white" : "black"] = pocket.dataset.pocket;
  }
  return { fields: result.fen.split(" "), cells, pockets, variant: state.byKey.get(shown.variant) };
}

function placementOf(model) {
  const { files, ranks } = model.variant.geometry;
  const rows = [];
  for (let rank = ranks; rank >= 1; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < files; file++) {
      const letter = model.cells[`${FILE_LETTERS[file]}${rank}`];
      if (!letter) { empty++; continue; }
      if (empty) row += String(empty);
      empty = 0;
      row += letter;
    }
    rows.push(row + (empty ? String(empty) : ""));
  }
  let placement = rows.join("/");
  if (model.variant.pockets) {
    placement += `[${(model.pockets.white || "").toUpperCase()}${(model.pockets.black || "").toLowerCase()}]`;
  }
  return placement;
}

async function applyEdit(change) {
  const model = await editorModel();
  if (!model) {
    setStatus("This position cannot be edited: the service cannot write it.");
    return;
  }
  change(model);
  leaveGame();
  const fields = model.fields;
  fields[0] = placementOf(model);
  if (fields.length > 3) fields[3] = "-";  // an edited position has no en passant square
  state.lastMove = "";
  state.history = [];
  $("undo").disabled = true;
  $("fen").value = fields.join(" ");
  $("variant").value = model.variant.key;
  await refresh();
}

function editPointerDown(event, square, pocket) {
  if (pocket) return;
  if (state.tool === "erase") return applyEdit((model) => { delete model.cells[square]; });
  if (state.tool) return applyEdit((model) => { model.cells[square] = state.tool; });
  if (pieceOn(square)) startDrag(event, square);
}

function editMove(from, to) {
  return applyEdit((model) => {
    model.cells[to] = model.cells[from];
    delete model.cells[from];
  });
}

function buildPalette() {
  const palette = $("palette");
  palette.replaceChildren();
  const variant = state.shown && state.byKey.get(state.shown.variant);
  if (!variant) return;
  const tools = [];
  for (const colour of ["white", "black"]) {
    for (const piece of variant.pieces) {
      const letter = colour === "white" ? piece.letter.toUpperCase() : piece.letter;
      tools.push([letter, `${colour} ${piece.name}`, letter]);
    }
  }
  tools.push(["erase", "remove a piece", "✕"]);
  for (const [tool, label, text] of tools) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.title = label;
    button.setAttribute("aria-label", `Place: ${label}`);
    button.dataset.tool = tool;
    button.setAttribute("aria-pressed", String(state.tool === tool));
    button.addEventListener("click", () => {
      state.tool = state.tool === tool ? null : tool;
      for (const other of palette.querySelectorAll("button")) {
        other.setAttribute("aria-pressed", String(other.dataset.tool === state.tool));
      }
    });
    palette.appendChild(button);
  }
}

async function showEditor() {
  const variant = state.shown && state.byKey.get(state.shown.variant);
  buildPalette();
  if (!variant) return;
  const model = await editorModel();
  if (!model) return;
  const [, turn, castling] = model.fields;
  $("edit-turn").value = turn;
  const rights = $("castling-rights");
  rights.hidden = !variant.castling;
  for (const box of rights.querySelectorAll("input")) box.checked = (castling || "").includes(box.value);
  $("edit-pockets").hidden = !variant.pockets;
  $("pocket-white").value = (model.pockets.white || "").toUpperCase();
  $("pocket-black").value = (model.pockets.black || "").toLowerCase();
  $("start-variant").value = variant.key;
  $("chess960-form").hidden = !(variant.castling || variant.random_start);
}

async function setMode(mode) {
  state.mode = mode;
  clearTargets();
  $("edit-toggle").setAttribute("aria-pressed", String(mode === "edit"));
  $("editor").hidden = mode !== "edit";
  $("play-controls").hidden = mode === "edit";
  document.body.dataset.mode = mode;
  if (mode === "edit") await showEditor();
}

async function loadStart(query) {
  const answer = await getJson(`/v1/start?${new URLSearchParams(query)}`);
  leaveGame();
  state.lastMove = "";
  state.history = [];
  $("undo").disabled = true;
  $("fen").value = answer.fen;
  $("variant").value = answer.variant;
  await refresh(answer.chess960_number === null ? `The start of ${answer.variant}.`
    : `Chess960 position ${answer.chess960_number}.`);
}

function wireEditor() {
  $("edit-toggle").addEventListener("click", () => setMode(state.mode === "edit" ? "play" : "edit"));
  $("edit-turn").addEventListener("change", () => applyEdit((model) => { model.fields[1] = $("edit-turn").value; }));
  for (const box of $("castling-rights").querySelectorAll("input")) {
    box.addEventListener("change", () => applyEdit((model) => {
      const others = (model.fields[2] || "-").replace(/-/g, "").split("").filter((c) => c !== box.value);
      const letters = box.checked ? [...others, box.value] : others;
      const order = "KQkq";
      letters.sort((a, b) => order.indexOf(a) - order.indexOf(b));
      model.fields[2] = letters.join("") || "-";
    }));
  }
  for (const [id, colour] of [["pocket-white", "white"], ["pocket-black", "black"]]) {
    $(id).addEventListener("change", () => applyEdit((model) => { model.pockets[colour] = $(id).value.replace(/[^A-Za-z]/g, ""); }));
  }
  $("clear-board").addEventListener("click", () => applyEdit((model) => { model.cells = {}; model.pockets = {}; }));
  $("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    loadStart({ variant: $("start-variant").value });
  });
  $("chess960-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const key = $("start-variant").value;
    const variant = state.byKey.get(key);
    const number = $("chess960-number").value.trim();
    const query = { variant: key, array: variant && variant.random_start ? "own" : "chess960" };
    if (number !== "") query.number = number;
    loadStart(query);
  });
}

// --- the address: the FEN (and variant, orientation, last move) to share ---------------

function shareUrl(fen) {
  const game = gameLink();  // a position of the pasted game: the game and its ply (game.js)
  if (game) return game;
  const query = new URLSearchParams({ fen, variant: typedVariant() });
  if (state.orientation === "black") query.set("orientation", "black");
  if (state.lastMove) query.set("last", state.lastMove);
  return `${location.origin}/?${query}`;
}

function updateLink(fen) {
  const url = shareUrl(fen);
  $("share-link").href = url;
  history.replaceState(null, "", url);
}

function readAddress() {
  // The query (?fen=...) or the fragment (#fen=...), as a shared link has it.
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const get = (name) => query.get(name) || fragment.get(name);
  $("fen").value = get("fen") || DEFAULT_FEN;
  $("variant").value = get("variant") || "auto";
  state.lastMove = get("last") || "";
  if (get("orientation") === "black") {
    state.orientation = "black";
    $("flip").setAttribute("aria-pressed", "true");
  }
}

// --- one refresh: ask the service, show every answer ----------------------------------

// Ask the service about the FEN typed and show every answer; the status line then says
// ``done`` (what led here, if anything) and what the position is.
async function refresh(done = "") {
  const generation = ++state.generation;
  const fen = $("fen").value;
  const variant = typedVariant();
  updateLink(fen);
  clearTargets();
  if (!fen.trim()) {
    setStatus("Type or paste a FEN.");
    document.body.dataset.shownFen = fen;
    return;
  }
  setStatus("Reading…");
  try {
    const result = await postJson("/v1/fen/validate", { fen, variant });
    if (generation !== state.generation) return;
    const syntax = result.errors.find((p) => p.code === "fen-syntax");
    markColumn(fen, syntax ? syntax.column : null);
    $("fen").setAttribute("aria-invalid", result.valid ? "false" : "true");
    showGuess(result);
    showProblems(result);
    showDialect(result.detected);
    const readable = !result.errors.some((p) => UNREADABLE.has(p.code));
    const names = new Set();
    for (const problem of [...result.errors, ...result.warnings]) {
      for (const name of squaresNamed(problem)) names.add(name);
    }
    const key = result.variant || (state.shown && state.shown.variant);
    const work = [showProfiles(fen, readable ? result.variant : variant, key, generation)];
    state.legal = [];
    state.outcome = null;
    $("legal-moves").replaceChildren();
    $("play-move").disabled = true;
    $("outcome").textContent = "";
    if (readable) {
      work.push(showBoard(fen, result.variant, names, generation).then((drawn) => {
        if (drawn) state.shown = { fen, variant: result.variant, valid: result.valid };
      }));
      if (result.valid) work.push(loadMoves(fen, result.variant, generation));
    } else {
      markStale(result);
    }
    await Promise.all(work);
    if (generation !== state.generation) return;
    if (state.mode === "edit" && readable) await showEditor();
    const position = readable ? describePosition(result.valid, result.variant) : "The FEN cannot be read.";
    setStatus(done ? `${done} ${position}` : position);
  } catch (error) {
    if (generation === state.generation) setStatus(`The service failed: ${error.message}`);
  }
  if (generation === state.generation) document.body.dataset.shownFen = fen;
}

function scheduleRefresh() {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    leaveGame();
    state.lastMove = "";
    state.history = [];
    $("undo").disabled = true;
    refresh();
  }, 200);
}

async function start() {
  readAddress();
  $("fen").addEventListener("input", scheduleRefresh);
  $("variant").addEventListener("input", scheduleRefresh);
  $("variant").addEventListener("change", scheduleRefresh);
  $("position-form").addEventListener("submit", (event) => { event.preventDefault(); refresh(); });
  $("flip").addEventListener("click", () => {
    state.orientation = state.orientation === "white" ? "black" : "white";
    $("flip").setAttribute("aria-pressed", String(state.orientation === "black"));
    refresh();
  });
  $("copy-link").addEventListener("click", () => copyText($("share-link").href));
  $("undo").addEventListener("click", undo);
  $("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const entry = state.legal.find((m) => m.move === $("legal-moves").value);
    if (entry) playMove(entry);
  });
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  wireEditor();
  wireGame();
  try {
    await loadVariants();
  } catch (error) {
    setStatus(`Could not load the variants: ${error.message}`);
  }
  const game = readGameAddress();
  if (game) await openGame(game.pgn, game.ply);
  else await refresh();
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
