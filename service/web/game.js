// The game panel of the page at /: a pasted PGN game, read by the service
// (POST /v1/pgn/game: its variant, its start, each ply's move in SAN, the FEN after it,
// its last-move squares and problems, variations nested under the move they replace),
// stepped through with the keyboard (Left, Right, Home, End) or by clicking the move list.
// Each position is shown by the page's own refresh (page.js), so the board, its marks
// (last move, a king in check), the problems and the legal moves come from the API as for
// any FEN. No rule of any variant is written here: move numbers, SAN and positions are
// the service's; a move played on the board stays in the game when the service's FEN after
// it is the FEN of one of the game's next moves.
"use strict";

const NAV_KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
const STEP_DELAY = 60;  // ms: a held arrow key moves the list at once and draws the board when it stops
let stepTimer = null;

// --- the address: #pgn=...&ply=... (a fragment: a game never reaches a server's logs) ----

function readGameAddress() {
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const pgn = fragment.get("pgn") || query.get("pgn");
  if (!pgn || !pgn.trim()) return null;
  return { pgn, ply: fragment.get("ply") || query.get("ply") || "0" };
}

function gameLink() {
  if (!state.game || !state.node) return null;
  const fragment = new URLSearchParams({ pgn: state.game.pgn, ply: state.node.path });
  if (state.orientation === "black") fragment.set("orientation", "black");
  return `${location.origin}/#${fragment}`;
}

// --- the game's positions: a tree of nodes, one per ply, paths as in the address ---------
// A main-line node's path is its ply ("12"); a variation's moves are "12.1.1", "12.1.2"
// (variation 1 of the move of "12"), nested likewise; the start is "0".

function moveNumber(ply) {
  return `${ply.number}${ply.color === "w" ? "." : "…"}`;
}

function moveText(ply) {
  return displayMove(ply.san) || ply.move;
}

// A clock as a player reads it: "0:02:55" (as written, [%clk 0:02:55]) is "2:55".
function clockText(clock) {
  const parts = clock.split(":");
  while (parts.length > 2 && Number(parts[0]) === 0) parts.shift();  // no hours
  if (parts.length > 1 && parts[0].length > 1 && parts[0].startsWith("0")) parts[0] = parts[0].slice(1);
  return parts.join(":");
}

function describeNode(node) {
  if (!node.ply) return "The game's start.";
  const text = `${moveNumber(node.ply)} ${moveText(node.ply)}`;
  return node.problem ? `${text}: ${node.problem.code}: ${node.problem.message}` : `${text}.`;
}

function buildGame(pgn, answer) {
  const root = { path: "0", parent: null, ply: null, fen: answer.initial_fen, lastMove: "", children: [],
    problem: null, button: null };
  const byPath = new Map([["0", root]]);
  const byPlace = new Map();
  const list = $("move-list");
  list.replaceChildren();

  function addLine(plies, before, prefix, container) {
    let previous = before;
    let numbered = false;  // a number stands before the next move only where it is needed
    plies.forEach((ply, index) => {
      const path = prefix === null ? String(index + 1) : `${prefix}.${index + 1}`;
      const played = ply.fen !== null;
      const node = {
        path, parent: previous, ply, fen: played ? ply.fen : previous.fen,
        lastMove: played ? ply.last_move : previous.lastMove, children: [], problem: ply.problem, button: null,
      };
      previous.children.push(node);
      byPath.set(path, node);
      byPlace.set(`${ply.line}:${ply.column}`, node);
      const step = document.createElement("span");  // a move and its number, never cut apart by a line break
      step.className = "step";
      if (ply.color === "w" || !numbered) {
        const number = document.createElement("span");
        number.className = "move-number";
        number.textContent = moveNumber(ply);
        step.append(number);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.path = path;
      button.textContent = moveText(ply);
      const notes = ply.warnings.map((w) => `${w.code}: ${w.message}`);
      if (ply.move !== moveText(ply)) notes.unshift(`written ${ply.move}`);  // WXF, UCI, 0-0, N*f3, ...
      if (ply.problem) {
        button.classList.add("illegal");
        notes.unshift(`${ply.problem.code}: ${ply.problem.message}`);
      } else if (ply.warnings.length) {
        button.classList.add("lenient");
      }
      if (notes.length) button.title = notes.join("\n");
      button.setAttribute("aria-label", `${moveNumber(ply)} ${moveText(ply)}` + (ply.problem ? `, ${ply.problem.code}` : ""));
      node.button = button;
      step.append(button);
      if (ply.clock) {  // the clock in the comment after the move
        const clock = document.createElement("span");
        clock.className = "clock";
        clock.textContent = clockText(ply.clock);
        clock.title = `${sideName(ply.color, answer.variant)}'s clock after the move: ${ply.clock}`;
        step.append(clock);
      }
      container.append(step, " ");
      if (ply.problem) {
        const mark = document.createElement("span");
        mark.className = "move-problem";
        mark.textContent = `${ply.problem.code}: the line stops here`;
        container.append(mark, " ");
      }
      numbered = true;
      ply.variations.forEach((variation, v) => {
        const group = document.createElement("span");
        group.className = "variation";
        group.append("(");
        addLine(variation, previous, `${path}.${v + 1}`, group);
        if (variation.length) group.lastChild.remove();  // the space after its last move
        group.append(")");
        container.append(group, " ");
        numbered = false;
      });
      previous = node;
    });
  }

  addLine(answer.plies, root, null, list);
  return { pgn, answer, root, byPath, byPlace };
}

// --- showing a node -----------------------------------------------------------------------

function markCurrent() {
  for (const old of document.querySelectorAll("#move-list [aria-current]")) old.removeAttribute("aria-current");
  for (const old of document.querySelectorAll("#move-list .branch")) old.classList.remove("branch");
  const node = state.node || state.branch;
  const label = $("ply-label");
  const note = $("game-note");
  if (!state.game) return;
  if (!node) {
    label.textContent = "The board shows a position not in the game.";
    note.textContent = "";
    return;
  }
  if (node.button) {
    if (state.node) node.button.setAttribute("aria-current", "step");
    else node.button.classList.add("branch");
    node.button.scrollIntoView({ block: "nearest" });
  }
  const where = node.ply ? `${moveNumber(node.ply)} ${moveText(node.ply)} (ply ${node.ply.ply}`
    + `${node.path.includes(".") ? ", in a variation" : ""})` : "the start";
  label.textContent = state.node ? `Showing ${where}.` : `Showing moves played on the board from ${where}; ← returns to it.`;
  const ply = node.ply;
  note.className = "game-note";
  if (state.node && node.problem) {
    note.classList.add("error");
    note.textContent = `${moveNumber(ply)} ${ply.move} cannot be played: ${node.problem.code}: ${node.problem.message}. `
      + "The board shows the position before it; the rest of its line is not played.";
  } else if (state.node && ply && ply.warnings.length) {
    note.classList.add("warning");
    note.textContent = "Read leniently: " + ply.warnings.map((w) => `${w.code}: ${w.message}`).join("; ");
  } else {
    note.textContent = "";
  }
  for (const [id, target] of [["first-ply", "first"], ["previous-ply", "previous"], ["next-ply", "next"], ["last-ply", "last"]]) {
    const to = nodeFor(target);
    $(id).disabled = !to || to === state.node;
  }
}

async function showNode(node, done) {
  clearTimeout(stepTimer);
  state.node = node;
  state.branch = null;
  state.history = [];
  $("undo").disabled = true;
  $("fen").value = node.fen;
  $("variant").value = state.game.answer.variant;
  state.lastMove = node.lastMove;
  markCurrent();
  document.body.dataset.gamePath = node.path;
  await refresh(done || describeNode(node));
}

// A step by key: the list moves at once, the board is drawn once the keys stop.
function stepTo(node) {
  state.node = node;
  state.branch = null;
  markCurrent();
  clearTimeout(stepTimer);
  stepTimer = setTimeout(() => showNode(node), STEP_DELAY);
}

function nodeFor(action) {
  const game = state.game;
  const from = state.node || state.branch;
  if (!game || !from) return null;
  if (action === "first") return game.root;
  if (action === "previous") return state.node ? from.parent : from;  // off the game: back to where it left
  if (action === "next") return from.children[0] || null;  // the line's own next move (a failed one too)
  let last = from;
  while (last.children.length) last = last.children[0];
  return last;
}

function onGameKey(event) {
  const action = NAV_KEYS[event.key];
  if (!action || !state.game || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
  if (state.mode === "edit") return;
  const node = nodeFor(action);
  if (!node) return;
  event.preventDefault();
  if (node === state.node) return;
  const inList = document.activeElement instanceof Element && document.activeElement.closest("#move-list");
  stepTo(node);
  if (inList && node.button) node.button.focus();
}

// After a move played on the board (page.js playMove): the game's own next move when the
// service's FEN after it is that move's FEN (the game goes on), else null (off the game).
function gameChildReached(fen) {
  const from = state.node;
  if (!state.game || !from) return null;
  return from.children.find((child) => !child.problem && child.fen === fen) || null;
}

// The board left the game's positions (a typed FEN, an edit, a start position).
function leaveGame() {
  clearTimeout(stepTimer);
  state.node = null;
  state.branch = null;
  delete document.body.dataset.gamePath;
  markCurrent();
}

// --- the panel: loading a game, its problems --------------------------------------------

function gameTitle(answer) {
  const tags = new Map(answer.tags.map((tag) => [tag.name, tag.value]));
  const players = [tags.get("White"), tags.get("Black")].filter((name) => name && name !== "?");
  const parts = [];
  if (players.length) parts.push(players.join(" – "));
  if (tags.get("Event") && tags.get("Event") !== "?") parts.push(tags.get("Event"));
  if (answer.variant_name) parts.push(answer.variant_name);
  if (answer.result) parts.push(answer.result);
  return parts.join(" · ") || "A game";
}

function showGameProblems(game) {
  const list = $("game-problems");
  list.replaceChildren();
  for (const problem of game.answer.problems) {
    const item = document.createElement("li");
    item.className = problem.level;
    item.dataset.code = problem.code;
    const code = document.createElement("code");
    code.textContent = problem.code;
    const where = [`line ${problem.line}`];
    if (problem.column) where.push(`column ${problem.column}`);
    if (problem.ply !== undefined) where.push(`ply ${problem.ply}`);
    item.append(code, `: ${problem.message} (${where.join(", ")})`);
    const node = problem.column ? game.byPlace.get(`${problem.line}:${problem.column}`) : null;
    if (node) {
      const go = document.createElement("button");
      go.type = "button";
      go.className = "go-to-move";
      go.textContent = "Show";
      go.setAttribute("aria-label", `Show ply ${node.ply.ply}`);
      go.addEventListener("click", () => showNode(node));
      item.append(" ", go);
    }
    list.appendChild(item);
  }
  const errors = game.answer.problems.filter((p) => p.level === "error").length;
  const warnings = game.answer.problems.length - errors;
  $("game-verdict").textContent = errors || warnings ? `${errors} error(s), ${warnings} warning(s) in the game.`
    : "No problem in the game.";
}

async function openGame(pgn, path) {
  $("pgn").value = pgn;
  setStatus("Reading the game…");
  let answer;
  try {
    answer = await postJson("/v1/pgn/game", { pgn });
  } catch (error) {
    await refresh(`The service could not read the game: ${error.message}`);
    return;
  }
  const game = buildGame(pgn, answer);
  state.game = game;
  $("game-view").hidden = false;
  $("game-title").textContent = gameTitle(answer) + (answer.more_games ? " (the first game of the text)" : "");
  showGameProblems(game);
  document.body.dataset.game = answer.initial_fen ? "loaded" : "unplayable";
  if (!answer.initial_fen) {
    leaveGame();
    const first = answer.problems.find((p) => p.level === "error") || answer.problems[0];
    $("ply-label").textContent = "";
    await refresh("The game's moves cannot be played from its set-up" + (first ? `: ${first.code}: ${first.message}` : "."));
    return;
  }
  await showNode(game.byPath.get(path) || game.root);
}

function closeGame() {
  leaveGame();
  state.game = null;
  $("game-view").hidden = true;
  $("move-list").replaceChildren();
  delete document.body.dataset.game;
  updateLink($("fen").value);
}

function wireGame() {
  $("game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const pgn = $("pgn").value;
    if (!pgn.trim()) {
      setStatus("Paste a PGN game first.");
      return;
    }
    openGame(pgn, "0");
  });
  $("pgn").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) $("game-form").requestSubmit();
  });
  $("close-game").addEventListener("click", closeGame);
  $("move-list").addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("button[data-path]");
    if (button && state.game) showNode(state.game.byPath.get(button.dataset.path));
  });
  for (const [id, action] of [["first-ply", "first"], ["previous-ply", "previous"], ["next-ply", "next"], ["last-ply", "last"]]) {
    $(id).addEventListener("click", () => {
      const node = nodeFor(action);
      if (node && node !== state.node) showNode(node);
    });
  }
  document.addEventListener("keydown", onGameKey);
  window.addEventListener("hashchange", followGameAddress);
}

// A game link opened in a tab already showing the page changes only the fragment.
function followGameAddress() {
  const address = readGameAddress();
  if (!address) return;
  const game = state.game;
  if (game && game.pgn === address.pgn) {
    const node = game.byPath.get(address.ply);
    if (node && node !== state.node) showNode(node);
    return;
  }
  openGame(address.pgn, address.ply);
}
