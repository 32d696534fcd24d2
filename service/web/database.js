// The database panel of the page at /: a pasted PGN database (several games) normalised
// by the service (POST /v1/pgn/normalize, the engine of `notation normalize`), its answer
// read as it streams (one JSON line per game, then a summary line) and shown as the
// output text (with Copy and Download), the summary and every problem with its game,
// line and code. The options offered are the endpoint's query parameters as the
// service's contract (/openapi.json) lists them, so the panel offers what the service
// takes and nothing else; an option left at its default is not sent. No PGN is read here.
"use strict";

const NORMALIZE_PATH = "/v1/pgn/normalize";
const MAX_LISTED_PROBLEMS = 500;  // a large database's problems past these are counted, not listed
const CHOICE_WORDS = {
  moves: { keep: "As written", check: "Checked, as written", san: "SAN", lan: "LAN", uci: "UCI",
    iccs: "ICCS (Xiangqi)", wxf: "WXF (Xiangqi)", opentafl: "OpenTafl (tafl)" },
  export: { keep: "Keep layout", full: "Full export format", reduced: "Reduced export format" },
  duplicates: { keep: "Keep all", drop: "Drop copies", mark: "Mark copies" },
  broken: { keep: "Keep as read", truncate: "Cut before the bad move", drop: "Drop" },
};
const database = { output: "", controller: null };

function databaseStatus(text, kind = "") {
  const status = $("database-status");
  status.textContent = text;
  status.className = `database-status${kind ? ` ${kind}` : ""}`;
}

// --- the options: the contract's parameters of POST /v1/pgn/normalize --------------------

function normalizeParameters(spec) {
  const operation = spec.paths && spec.paths[NORMALIZE_PATH] && spec.paths[NORMALIZE_PATH].post;
  const parameters = new Map();
  for (const parameter of (operation && operation.parameters) || []) {
    if (parameter.in === "query") parameters.set(parameter.name, parameter.schema || {});
  }
  return parameters;
}

function offerChoices(select, schema) {
  const words = CHOICE_WORDS[select.name] || {};
  for (const value of schema.enum) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = words[value] || value;
    select.appendChild(option);
  }
  select.value = schema.default || schema.enum[0];
  select.dataset.default = select.value;
}

// Each control shown only when the service takes its parameter.
function offerOptions(parameters) {
  for (const holder of document.querySelectorAll("#database [data-parameter]")) {
    const schema = parameters.get(holder.dataset.parameter);
    const select = holder.querySelector("select");
    const offered = Boolean(schema && (!select || Array.isArray(schema.enum)));
    holder.hidden = !offered;
    if (offered && select) offerChoices(select, schema);
  }
  const repairs = $("database-repairs");
  repairs.hidden = !repairs.querySelector("label:not([hidden])");
}

function databaseQuery() {
  const query = new URLSearchParams();
  for (const select of document.querySelectorAll("#database-form select")) {
    if (!select.closest("[hidden]") && select.value !== select.dataset.default) query.set(select.name, select.value);
  }
  for (const box of document.querySelectorAll("#database-form input[type=checkbox]")) {
    if (!box.closest("[hidden]") && box.checked) query.set(box.name, "true");
  }
  return query;
}

// --- the answer: a stream of JSON lines ---------------------------------------------------

async function* jsonLines(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    pending += decoder.decode(value || new Uint8Array(), { stream: !done });
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const line of lines) if (line.trim()) yield JSON.parse(line);
    if (done) break;
  }
  if (pending.trim()) {
    try {
      yield JSON.parse(pending);
    } catch (error) {
      // a line cut short: the missing summary line says the answer was cut
    }
  }
}

// A refused request in words: the problem's detail and, for a bad option, which one.
async function refusal(response) {
  let problem = null;
  try {
    problem = await response.json();
  } catch (error) {
    problem = null;
  }
  const detail = problem && problem.detail ? problem.detail : `${response.status} ${response.statusText}`.trim();
  if (response.status === 413) return `The database is too large for the service: ${detail}`;
  if (response.status === 422) {
    const named = ((problem && problem.errors) || []).map((e) => e.parameter || e.pointer).filter(Boolean);
    return `The service refused an option${named.length ? ` (${[...new Set(named)].join(", ")})` : ""}: ${detail}`;
  }
  if (response.status === 503) return `The service is busy; try again in a moment. (${detail})`;
  return `The service could not normalise the database (${response.status}): ${detail}`;
}

function problemItem(game, entry, level, problem) {
  const item = document.createElement("li");
  item.className = level;
  const where = document.createElement("span");
  where.textContent = `Game ${game}, line ${entry.line}: `;
  const code = document.createElement("code");
  code.textContent = problem.code;
  item.append(where, code, document.createTextNode(`: ${problem.message}`));
  item.dataset.game = String(game);
  item.dataset.line = String(entry.line);
  item.dataset.code = problem.code;
  return item;
}

function showSummary(summary, leftOut) {
  const list = $("database-summary");
  list.replaceChildren();
  const problems = Object.values(summary.problems).reduce((a, b) => a + b, 0);
  const rows = [["Games read", summary.games], ["Changed", summary.changed], ["Unchanged", summary.unchanged],
    ["Left out", leftOut], ["Problems", problems]];
  for (const [name, value] of rows) {
    const term = document.createElement("dt");
    term.textContent = name;
    const count = document.createElement("dd");
    count.textContent = String(value);
    count.dataset.name = name.toLowerCase().replace(/ /g, "-");
    list.append(term, count);
  }
  const codes = Object.entries(summary.problems).sort(([a], [b]) => a.localeCompare(b));
  if (codes.length) {
    const term = document.createElement("dt");
    term.textContent = "By code";
    const value = document.createElement("dd");
    value.dataset.name = "by-code";
    value.textContent = codes.map(([code, count]) => `${code} ${count}`).join(", ");
    list.append(term, value);
  }
}

async function normalizeDatabase() {
  const pgn = $("database-pgn").value;
  if (!pgn.trim()) {
    databaseStatus("Paste a PGN database first.", "error");
    $("database-pgn").focus();
    return;
  }
  if (database.controller) database.controller.abort();
  const controller = new AbortController();
  database.controller = controller;
  const button = $("normalize-database");
  button.disabled = true;
  $("database").setAttribute("aria-busy", "true");
  databaseStatus("Normalising…");
  const query = databaseQuery().toString();
  const texts = [];
  const problems = $("database-problems");
  let games = 0;
  let leftOut = 0;
  let listed = 0;
  let unlisted = 0;
  let summary = null;
  let failure = "";
  try {
    const response = await fetch(`${NORMALIZE_PATH}${query ? `?${query}` : ""}`, {
      method: "POST", headers: { "Content-Type": "application/x-chess-pgn" }, body: pgn, signal: controller.signal,
    });
    if (!response.ok) {
      failure = await refusal(response);
    } else {
      problems.replaceChildren();
      for await (const line of jsonLines(response)) {
        if (line.kind === "game") {
          if (line.part === 0) games += 1;
          if (!line.rejected) texts.push(line.text);
          if (line.part === 0 && line.text === "") leftOut += 1;
          for (const entry of line.problems) {
            for (const [level, found] of [["error", entry.errors], ["warning", entry.warnings || []]]) {
              for (const problem of found) {
                if (listed < MAX_LISTED_PROBLEMS) {
                  problems.appendChild(problemItem(line.game, entry, level, problem));
                  listed += 1;
                } else {
                  unlisted += 1;
                }
              }
            }
          }
          if (games % 200 === 0) databaseStatus(`Normalising… ${games} games read.`);
        } else if (line.kind === "summary") {
          summary = line;
        } else if (line.kind === "error") {
          failure = `The service failed part way (${line.detail}); the output holds the ${games} games before it.`;
        }
      }
      if (!summary && !failure) failure = `The answer was cut after ${games} games; the output holds only those.`;
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    failure = games
      ? `The answer was cut after ${games} games (${error.message}); the output holds only those.`
      : `Could not reach the service (${error.message}); is it running?`;
  } finally {
    if (database.controller === controller) {
      database.controller = null;
      button.disabled = false;
      $("database").removeAttribute("aria-busy");
    }
  }
  if (!summary && !texts.length) {
    $("database-result").hidden = true;  // an earlier answer is not this request's
    databaseStatus(failure, "error");
    return;
  }
  database.output = texts.join("");
  $("database-output").value = database.output;
  if (summary) showSummary(summary, leftOut);
  else $("database-summary").replaceChildren();
  if (unlisted) {
    const more = document.createElement("li");
    more.textContent = `…and ${unlisted} more (see the summary's counts by code).`;
    problems.appendChild(more);
  }
  if (!listed) {
    const none = document.createElement("li");
    none.textContent = "No problems.";
    problems.appendChild(none);
  }
  $("database-result").hidden = false;
  if (failure) databaseStatus(failure, "error");
  else databaseStatus(`Normalised ${summary.games} game${summary.games === 1 ? "" : "s"}: ${summary.changed} changed, `
    + `${leftOut} left out, ${listed + unlisted} problem${listed + unlisted === 1 ? "" : "s"}.`);
}

async function copyDatabase() {
  try {
    await navigator.clipboard.writeText(database.output);
    databaseStatus("Copied the normalised PGN.");
  } catch (error) {
    $("database-output").select();
    databaseStatus(`Could not copy (${error.message}); the text is selected: copy it by hand.`, "error");
  }
}

function downloadDatabase() {
  const url = URL.createObjectURL(new Blob([database.output], { type: "application/x-chess-pgn" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "normalized.pgn";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  databaseStatus("Downloading normalized.pgn.");
}

async function startDatabase() {
  $("database-form").addEventListener("submit", (event) => {
    event.preventDefault();
    normalizeDatabase();
  });
  $("database-pgn").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) $("database-form").requestSubmit();
  });
  $("copy-database").addEventListener("click", copyDatabase);
  $("download-database").addEventListener("click", downloadDatabase);
  try {
    const response = await fetch("/openapi.json");
    if (!response.ok) throw new Error(`${response.status} from /openapi.json`);
    offerOptions(normalizeParameters(await response.json()));
  } catch (error) {
    offerOptions(new Map());
    databaseStatus(`Could not load the options (${error.message}); the database is normalised with the defaults.`,
      "error");
  }
  document.body.dataset.databaseReady = "true";
}

document.addEventListener("DOMContentLoaded", startDatabase);
