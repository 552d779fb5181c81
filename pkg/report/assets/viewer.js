// The game viewer of a rafle match report. It draws what the report's Go code computed:
// positions as strings of one character per square ('.', 'w', 'b', 'W', 'B'), plies as
// the squares they change (the new content, or 'x' for a captured piece). It applies no
// rule of the game.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("viewer-data").textContent);
  const board = data.board, list = data.list, S = list.strings;
  const NS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const chunks = new Map(); // chunk index -> Promise of its games
  const pageSize = 25;
  let rows = list.games.map((_, i) => i); // indexes into list.games after the filter
  let page = 0, game = null, positions = [], changes = [], ply = 0;

  // Board: squares drawn once; pieces redrawn at each step.
  const cell = 40, size = [board.width * cell, board.height * cell];
  const svg = $("board");
  svg.setAttribute("viewBox", "0 0 " + size[0] + " " + size[1]);
  const el = (name, attrs, parent) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  };
  el("rect", { width: size[0], height: size[1], class: "light" }, svg);
  const squares = board.squares.map(([file, rank], i) => {
    const g = el("g", { "data-sq": i + 1, transform: "translate(" + file * cell + "," + (board.height - rank) * cell + ")" }, svg);
    el("rect", { width: cell, height: cell, class: "dark" }, g);
    const t = el("text", { x: 2, y: 10, class: "num" }, g);
    t.textContent = board.names[i];
    return g;
  });

  function draw() {
    const pos = positions[ply], ch = changes[ply - 1] || [];
    squares.forEach((g, i) => {
      while (g.childNodes.length > 2) g.removeChild(g.lastChild);
      g.removeAttribute("data-piece");
      g.classList.remove("from", "to", "taken");
      const c = pos[i];
      if (c !== ".") {
        g.setAttribute("data-piece", c);
        const side = c.toLowerCase() === "w" ? "white" : "black";
        el("circle", { cx: cell / 2, cy: cell / 2, r: cell * 0.38, class: "piece " + side }, g);
        if (c === "W" || c === "B") {
          el("circle", { cx: cell / 2, cy: cell / 2, r: cell * 0.2, class: "crown " + side }, g);
        }
      }
    });
    for (const [c, sq] of ch) {
      const g = squares[sq - 1];
      if (c === "x") {
        g.classList.add("taken");
        el("path", { d: "M12 12L28 28M28 12L12 28", class: "cross" }, g);
      } else g.classList.add(c === "." ? "from" : "to");
    }
    $("ply").textContent = "ply " + ply + " of " + (positions.length - 1);
    document.querySelectorAll("#moves .mv").forEach((m) => m.classList.toggle("cur", +m.dataset.ply === ply));
    const cur = document.querySelector("#moves .cur");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  function go(k) {
    if (game === null) return;
    ply = Math.max(0, Math.min(positions.length - 1, k));
    draw();
  }

  async function chunk(k) {
    if (!chunks.has(k)) {
      const text = document.getElementById("chunk-" + k).textContent;
      const bin = Uint8Array.from(atob(JSON.parse(text)), (c) => c.charCodeAt(0));
      const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
      chunks.set(k, new Response(stream).json());
    }
    return chunks.get(k);
  }

  async function open(i) {
    const games = await chunk(Math.floor(i / data.perChunk));
    const [start, moves, deltas, pdn] = games[i % data.perChunk];
    const row = list.games[i];
    game = i;
    positions = [start];
    changes = [];
    const plies = deltas === "" ? [] : deltas.split(" ");
    for (const d of plies) {
      const p = positions[positions.length - 1].split("");
      const ch = [...d.matchAll(/([.xwbWB])(\d+)/g)].map((m) => [m[1], +m[2]]);
      for (const [c, sq] of ch) p[sq - 1] = c === "x" ? "." : c;
      positions.push(p.join(""));
      changes.push(ch);
    }
    $("game-title").textContent = "Game " + row[0] + ": " + S[row[1]] + " (white) vs " + S[row[2]] + " (black): " + S[row[3]] + ", " + S[row[4]];
    $("game-opening").textContent = "Opening: " + S[row[6]];
    const ml = $("moves");
    ml.textContent = "";
    const mv = moves === "" ? [] : moves.split(" ");
    mv.forEach((m, k) => {
      const s = document.createElement("button");
      s.type = "button";
      s.className = "mv";
      s.dataset.ply = k + 1;
      s.textContent = (k % 2 === 0 ? Math.floor(k / 2) + 1 + ". " : "") + m;
      s.onclick = () => go(k + 1);
      ml.appendChild(s);
    });
    $("pdn").textContent = pdn;
    $("viewer").hidden = false;
    $("game-number").value = row[0];
    go(list.at ? list.at[i] : 0);
  }

  function showList() {
    const body = $("games-body");
    body.textContent = "";
    const pages = Math.max(1, Math.ceil(rows.length / pageSize));
    page = Math.max(0, Math.min(page, pages - 1));
    for (const i of rows.slice(page * pageSize, (page + 1) * pageSize)) {
      const g = list.games[i], tr = body.insertRow();
      [g[0], S[g[1]], S[g[2]], S[g[3]], S[g[4]], g[5], S[g[6]]].forEach((v, k) => {
        const td = tr.insertCell();
        td.textContent = v;
        if (k !== 0 && k !== 5) td.className = "text";
      });
      tr.tabIndex = 0;
      tr.onclick = tr.onkeydown = (e) => {
        if (e.type === "click" || e.key === "Enter") open(i);
      };
    }
    $("page").textContent = "page " + (page + 1) + " of " + pages + " (" + rows.length + " games)";
  }

  $("filter").addEventListener("input", (e) => {
    const q = e.target.value.toLowerCase();
    rows = [];
    list.games.forEach((g, i) => {
      if (!q || [g[0], S[g[1]], S[g[2]], S[g[3]], S[g[4]], S[g[6]]].join(" ").toLowerCase().includes(q)) rows.push(i);
    });
    page = 0;
    showList();
  });
  $("prev-page").onclick = () => { page--; showList(); };
  $("next-page").onclick = () => { page++; showList(); };
  $("game-number").addEventListener("change", (e) => {
    const i = list.games.findIndex((g) => g[0] === +e.target.value);
    if (i >= 0) open(i);
  });
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(ply - 1);
  $("forward").onclick = () => go(ply + 1);
  $("last").onclick = () => go(positions.length - 1);
  document.addEventListener("keydown", (e) => {
    if (game === null) return;
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: positions.length - 1 };
    if (e.key in keys) {
      e.preventDefault();
      go(keys[e.key]);
    }
  });
  showList();
  if (list.games.length > 0) open(0);
})();
