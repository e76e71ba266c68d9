// The per-question table of a ragscore report: sorting, filtering, details on click.
// Reads only the JSON in <script id="ragscore-data">; writes text with textContent, never
// as HTML, so nothing from the data is ever parsed as markup.
(function () {
  "use strict";
  const data = unpack(JSON.parse(document.getElementById("ragscore-data").textContent));
  const metrics = data.metrics;

  // The data comes packed (compact() in share_html.py): IDs by position, each side a list.
  function unpack(packed) {
    const ids = packed.ids;
    const names = ["relevant", "hits_at_k", "retrieved_relevant", "n_retrieved", "claims",
      "supported_at_k", "expected"];
    function side(item) {
      if (item === null) return null;
      const [diagnosis, values, parts, counts, retrieved, delivered, claims, answer, trials,
        trialDiagnoses, shownTrial, nuggets, relevantHere, waiting] = item;
      const pooled = {};
      packed.metrics.forEach((m, i) => { if (parts[i] !== null) pooled[m.name] = parts[i]; });
      const ranked = retrieved.map((i) => ids[i]);
      return {
        diagnosis, values, pooled, answer, trials, trial_diagnoses: trialDiagnoses,
        shown_trial: shownTrial, waiting, nuggets,
        relevant: relevantHere === null || relevantHere === undefined ? null :
          relevantHere.map((i) => ids[i]),
        counts: counts === null ? null : Object.fromEntries(names.map((n, i) => [n, counts[i]])),
        retrieved: ranked,
        delivered: delivered === null ? null : typeof delivered === "number" ?
          ranked.slice(0, delivered) : delivered.map((i) => ids[i]),
        claims: claims === null ? null : claims.map(([claim, cites]) =>
          [claim, cites.map(([doc, labelled, visible]) => [ids[doc], labelled === 1, visible === 1])]),
      };
    }
    packed.questions = packed.questions.map(([name, question, tags, relevant, b, c]) => {
      const row = { case: name, question, tags, relevant: relevant.map((i) => ids[i]),
        b: side(b), c: side(c) };
      row.delta = packed.metrics.map((m, i) => {
        const x = row.b ? row.b.values[i] : null, y = row.c ? row.c.values[i] : null;
        return x === null || y === null ? null : Number(y) - Number(x);
      });
      return row;
    });
    return packed;
  }
  const failures = new Set(data.failures);
  const PAGE = 200;
  const state = { key: null, dir: 1, text: "", show: "all", shown: PAGE, open: new Set() };

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "class") node.className = value; else node.setAttribute(name, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function fmt(value, kind) {
    if (value === null || value === undefined) return "n/a";
    if (kind === "yes/no" || typeof value === "boolean") return value ? "yes" : "no";
    if (kind === "count") return String(value);
    return Number(value).toFixed(data.digits);
  }

  function fmtDelta(value, kind) {
    if (value === null || value === undefined) return "n/a";
    const text = kind === "count" ? String(Math.abs(value)) : Math.abs(value).toFixed(data.digits);
    return (value > 0 ? "+" : value < 0 ? "\u2212" : "\u00b1") + text;
  }

  function worse(delta, metric) {
    if (delta === null || delta === undefined || delta === 0 || metric.neutral) return false;
    return metric.lower_is_better ? delta > 0 : delta < 0;
  }

  function diagnosis(row, side) { return row[side] ? row[side].diagnosis : "n/a"; }

  const columns = [
    { key: "case", label: "case", get: (r) => r.case },
    { key: "question", label: "question", get: (r) => r.question || "" },
    { key: "diag_b", label: "diagnosis " + data.baseline, get: (r) => diagnosis(r, "b") },
    { key: "diag_c", label: "diagnosis " + data.candidate, get: (r) => diagnosis(r, "c") },
  ].concat(metrics.map((m, i) => ({
    key: "d" + i, label: "\u0394 " + m.label, numeric: true, metric: m,
    get: (r) => r.delta[i],
  })));

  function matches(row) {
    if (state.text) {
      const hay = [row.case, row.question || "", row.relevant.join(" "),
        diagnosis(row, "b"), diagnosis(row, "c")].join(" ").toLowerCase();
      if (!hay.includes(state.text)) return false;
    }
    switch (state.show) {
      case "all": return true;
      case "failing": return failures.has(diagnosis(row, "c"));
      case "new": return failures.has(diagnosis(row, "c")) && !failures.has(diagnosis(row, "b"));
      case "fixed": return failures.has(diagnosis(row, "b")) && !failures.has(diagnosis(row, "c"));
      case "regressed": return metrics.some((m, i) => worse(row.delta[i], m));
      case "changed": return row.delta.some((d) => d !== null && d !== 0);
      default: return diagnosis(row, "c") === state.show;
    }
  }

  function sorted(rows) {
    if (state.key === null) return rows;
    const column = columns.find((c) => c.key === state.key);
    const keyed = rows.map((row, index) => [column.get(row), index, row]);
    keyed.sort((a, b) => {
      const x = a[0], y = b[0];
      const xNa = x === null || x === undefined, yNa = y === null || y === undefined;
      if (xNa || yNa) return xNa === yNa ? a[1] - b[1] : (xNa ? 1 : -1);  // n/a always last
      if (x < y) return -state.dir;
      if (x > y) return state.dir;
      return a[1] - b[1];
    });
    return keyed.map((item) => item[2]);
  }

  function idList(ids, row, detail) {
    const relevant = new Set(detail.relevant || row.relevant);  // a side's own chunking
    const delivered = detail.delivered === null ? null : new Set(detail.delivered);
    const list = el("ol", { class: "ids" });
    ids.forEach((id, index) => {
      const marks = [];
      if (relevant.has(id)) marks.push("relevant");
      if (index < data.k) marks.push("top " + data.k);
      if (delivered !== null && delivered.has(id)) marks.push("delivered");
      list.append(el("li", { class: relevant.has(id) ? "rel" : "" }, el("code", {}, id),
        marks.length ? " (" + marks.join(", ") + ")" : ""));
    });
    return list;
  }

  function sideDetail(row, side, name) {
    const detail = row[side];
    const box = el("div", { class: "side" }, el("h4", {}, name));
    if (!detail) { box.append(el("p", {}, "no run recorded")); return box; }
    box.append(el("p", { class: "diag " + (failures.has(detail.diagnosis) ? "bad" : "good") },
      "diagnosis: " + data.diagnoses[detail.diagnosis]));
    const values = el("table", { class: "values" },
      el("tr", {}, el("th", {}, "measure"), el("th", {}, "value"), el("th", {}, "numerator / denominator")));
    metrics.forEach((m, i) => {
      const parts = detail.pooled[m.name];
      values.append(el("tr", {}, el("td", {}, m.label), el("td", { class: "num" }, fmt(detail.values[i], m.kind)),
        el("td", { class: "num" }, parts ? parts[0] + " / " + parts[1] : "")));
    });
    box.append(values);
    const c = detail.counts;
    if (detail.trials > 1) {
      box.append(el("p", { class: "trials" }, `${detail.trials} trials: the values above combine them; ` +
        `the counts and lists below are trial ${detail.shown_trial}'s (the first with the ` +
        `question's diagnosis). Diagnosis of each trial: ` +
        (detail.trial_diagnoses || []).join(", ")));
    }
    if (c) {
      box.append(el("p", { class: "counts" },
        `relevant in top ${data.k}: ${c.hits_at_k} of ${c.relevant}; relevant anywhere in the ` +
        `${c.n_retrieved} retrieved: ${c.retrieved_relevant}; claims: ` +
        (c.claims === null ? "not assessed" : `${c.claims}, supported at k: ${c.supported_at_k}`) +
        `; expected claims: ${c.expected === null ? "no answer labels" : c.expected}`));
    }
    if (detail.relevant) {  // two chunkings: each side's relevant chunks are its own
      box.append(el("p", {}, el("strong", {}, "relevant in this chunking: "),
        detail.relevant.length ? detail.relevant.join(", ") : "none"));
    }
    box.append(el("h5", {}, "retrieved"), idList(detail.retrieved || [], row, detail));
    if (detail.delivered !== null && detail.delivered !== undefined) {
      box.append(el("h5", {}, "delivered"), el("p", {}, detail.delivered.length ? "" : "(nothing)"));
      box.append(idList(detail.delivered, row, detail));
    }
    box.append(el("h5", {}, "claims"));
    if (detail.claims === null) box.append(el("p", {}, detail.waiting ?
      detail.waiting + (detail.answer ? ` (the answer: ${detail.answer})` : "") :
      "answer not assessed"));
    else if (!detail.claims.length) box.append(el("p", {}, "no claims (abstained)"));
    else {
      const list = el("ul", { class: "claims" });
      for (const [claim, citations] of detail.claims) {
        const cites = citations.length ? citations.map(([doc, labelled, visible]) =>
          el("span", { class: "cite " + (labelled && visible ? "good" : "bad") }, el("code", {}, doc),
            ` (${labelled ? "labelled" : "not labelled"} for it, ${visible ? "in" : "not in"} the context)`))
          : [el("span", { class: "cite bad" }, "no citation")];
        const item = el("li", {}, el("code", {}, claim), " cites ");
        cites.forEach((cite, index) => { if (index) item.append("; "); item.append(cite); });
        list.append(item);
      }
      box.append(list);
    }
    if (detail.nuggets) {
      box.append(el("h5", {}, "nuggets"));
      const list = el("ul", { class: "nuggets" });
      for (const [name, text, importance, assignment] of detail.nuggets) {
        list.append(el("li", {}, el("code", {}, name), ` (${importance}): `,
          el("span", { class: "cite " + (assignment === "support" ? "good" :
            assignment === null ? "" : "bad") },
            assignment === null ? "not assigned yet" : assignment.replace("_", " ")),
          text ? ` \u2014 ${text}` : ""));
      }
      box.append(list);
    }
    if (detail.answer !== null && detail.answer !== undefined) {
      box.append(el("h5", {}, "answer"), el("blockquote", {}, detail.answer));
    }
    return box;
  }

  function detailRow(row) {
    const cell = el("td", { colspan: String(columns.length) }, el("div", { class: "panel" },
      el("p", {}, el("strong", {}, "question: "), row.question || "(no text)"),
      el("p", {}, el("strong", {}, "relevant IDs: "), row.relevant.length ? row.relevant.join(", ") : "none (unanswerable)"),
      el("div", { class: "sides" }, sideDetail(row, "b", "baseline " + data.baseline),
        sideDetail(row, "c", "candidate " + data.candidate))));
    return el("tr", { class: "detail" }, cell);
  }

  function render() {
    const body = document.getElementById("questions-body");
    const chosen = sorted(data.questions.filter(matches));
    const rows = [];
    for (const row of chosen.slice(0, state.shown)) {
      const tr = el("tr", { class: "q", "data-case": row.case, tabindex: "0" });
      for (const column of columns) {
        const value = column.get(row);
        let text = value, cls = "";
        if (column.numeric) {
          text = fmtDelta(value, column.metric.kind);
          cls = "num" + (value === null ? " na" : worse(value, column.metric) ? " worse" : value !== 0 ? " better" : "");
        } else if (column.key.startsWith("diag")) {
          cls = failures.has(value) ? "bad" : "";
        }
        tr.append(el("td", { class: cls }, text));
      }
      tr.addEventListener("click", () => toggle(row.case));
      tr.addEventListener("keydown", (event) => { if (event.key === "Enter") toggle(row.case); });
      rows.push(tr);
      if (state.open.has(row.case)) { tr.classList.add("open"); rows.push(detailRow(row)); }
    }
    body.replaceChildren(...rows);
    document.getElementById("shown").textContent =
      `showing ${Math.min(state.shown, chosen.length)} of ${chosen.length} matching questions (${data.questions.length} in all)`;
    document.getElementById("more").hidden = chosen.length <= state.shown;
    for (const th of document.querySelectorAll("#questions th[data-key]")) {
      th.setAttribute("aria-sort", th.dataset.key === state.key ? (state.dir > 0 ? "ascending" : "descending") : "none");
    }
  }

  function toggle(name) {
    if (state.open.has(name)) state.open.delete(name); else state.open.add(name);
    render();
  }

  const head = document.getElementById("questions-head");
  head.replaceChildren(el("tr", {}, ...columns.map((column) => {
    const th = el("th", { "data-key": column.key, title: "sort (n/a stays last)" }, column.label);
    th.addEventListener("click", () => {
      state.dir = state.key === column.key ? -state.dir : 1;
      state.key = column.key;
      render();
    });
    return th;
  })));
  document.getElementById("filter-text").addEventListener("input", (event) => {
    state.text = event.target.value.trim().toLowerCase(); state.shown = PAGE; render();
  });
  document.getElementById("filter-show").addEventListener("change", (event) => {
    state.show = event.target.value; state.shown = PAGE; render();
  });
  document.getElementById("more").addEventListener("click", () => { state.shown += PAGE * 5; render(); });
  for (const link of document.querySelectorAll("a[data-open]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const name = link.dataset.open;
      const box = document.getElementById("filter-text");
      box.value = name; state.text = name.toLowerCase(); state.show = "all";
      document.getElementById("filter-show").value = "all";
      state.open.add(name); render();
      document.getElementById("questions").scrollIntoView();
    });
  }
  render();
})();
