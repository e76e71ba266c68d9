// The review page (ragscore review page): one item a screen, decisions kept in this
// browser under the export's identity, and an export `ragscore review import` reads.
// Every text from the data is written with textContent; no data is ever run.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("ragscore-review-data").textContent);
  var items = data.items, identity = data.identity;
  var storeKey = "ragscore-review:" + identity.export;
  var $ = function (id) { return document.getElementById(id); };

  // ---- SHA-256 (FIPS 180-4), for each exported line's check --------------------------
  var K = [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
    0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
    0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138,
    0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1,
    0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
    0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb,
    0xbef9a3f7, 0xc67178f2];

  function sha256Hex(bytes) {
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
      0x1f83d9ab, 0x5be0cd19];
    var length = bytes.length, total = ((length + 9 + 63) >> 6) << 6;
    var padded = new Uint8Array(total);
    padded.set(bytes);
    padded[length] = 0x80;
    var bits = length * 8, view = new DataView(padded.buffer);
    view.setUint32(total - 8, Math.floor(bits / 0x100000000));
    view.setUint32(total - 4, bits >>> 0);
    var w = new Array(64);
    for (var offset = 0; offset < total; offset += 64) {
      for (var t = 0; t < 16; t++) w[t] = view.getUint32(offset + 4 * t);
      for (t = 16; t < 64; t++) {
        var a = w[t - 15], b = w[t - 2];
        var s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        var s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      var A = h[0], B = h[1], C = h[2], D = h[3], E = h[4], F = h[5], G = h[6], H = h[7];
      for (t = 0; t < 64; t++) {
        var S1 = ((E >>> 6) | (E << 26)) ^ ((E >>> 11) | (E << 21)) ^ ((E >>> 25) | (E << 7));
        var t1 = (H + S1 + ((E & F) ^ (~E & G)) + K[t] + w[t]) | 0;
        var S0 = ((A >>> 2) | (A << 30)) ^ ((A >>> 13) | (A << 19)) ^ ((A >>> 22) | (A << 10));
        var t2 = (S0 + ((A & B) ^ (A & C) ^ (B & C))) | 0;
        H = G; G = F; F = E; E = (D + t1) | 0; D = C; C = B; B = A; A = (t1 + t2) | 0;
      }
      h = [h[0] + A, h[1] + B, h[2] + C, h[3] + D, h[4] + E, h[5] + F, h[6] + G, h[7] + H]
        .map(function (x) { return x | 0; });
    }
    return h.map(function (x) { return ("00000000" + (x >>> 0).toString(16)).slice(-8); })
      .join("");
  }

  // ragscore.core.labels.content_key: the parts as compact JSON, UTF-8, SHA-256, 16 hex.
  function contentKey(parts) {
    return sha256Hex(new TextEncoder().encode(JSON.stringify(parts))).slice(0, 16);
  }
  window.ragscoreContentKey = contentKey;  // for the tests: Python computes the same

  // ---- what this browser keeps for this export --------------------------------------
  function load() {
    var empty = {decisions: {}, notes: {}, at: 0, reviewer: identity.reviewer, date: ""};
    try {
      var kept = JSON.parse(window.localStorage.getItem(storeKey) || "null");
      if (kept && typeof kept === "object" && kept.decisions) return kept;
    } catch (error) { /* storage unavailable or unreadable: start afresh */ }
    return empty;
  }
  var state = load();
  function save() {
    try { window.localStorage.setItem(storeKey, JSON.stringify(state)); }
    catch (error) { $("saved").textContent = "not kept in this browser: " + error; }
  }
  function today() {
    var now = new Date(), pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
  }
  if (!state.date) state.date = data.date || today();

  // ---- drawing ----------------------------------------------------------------------
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function passages(list, title) {
    var box = document.createDocumentFragment();
    box.appendChild(el("p", title, "ask"));
    var ul = el("ul");
    if (!list.length) ul.appendChild(el("li", "none"));
    list.forEach(function (pair) {
      var li = el("li");
      li.appendChild(el("code", pair[0]));
      li.appendChild(document.createTextNode(": "));
      li.appendChild(el("span", pair[1] || "(no text)"));
      ul.appendChild(li);
    });
    box.appendChild(ul);
    return box;
  }
  function quote(text) { return el("blockquote", text); }

  function body(item) {
    var box = document.createDocumentFragment();
    if (item.kind === "relevance") {
      box.appendChild(el("p", "Is this passage relevant to the question?", "ask"));
      var q = quote(""); q.appendChild(el("code", item.doc));
      q.appendChild(document.createTextNode(": " + item.passage)); box.appendChild(q);
    } else if (item.kind === "answerability") {
      box.appendChild(el("p", "Does this corpus answer the question?", "ask"));
    } else if (item.kind === "nugget") {
      box.appendChild(el("p", "Does the answer state this " + item.importance + " nugget (" +
        item.nugget + ")?", "ask"));
      box.appendChild(quote(item.claim));
      box.appendChild(el("p", "The answer:", "ask"));
      box.appendChild(quote(item.answer));
    } else if (item.kind === "citation") {
      box.appendChild(el("p", "Does this passage support the claim?", "ask"));
      box.appendChild(quote(item.claim));
      var c = quote(""); c.appendChild(el("code", item.doc));
      c.appendChild(document.createTextNode(": " + item.passage)); box.appendChild(c);
    } else {  // support
      box.appendChild(el("p", "The claim:", "ask"));
      box.appendChild(quote(item.claim));
      if (item.passages.length) box.appendChild(passages(item.passages, "Cited passages:"));
      else box.appendChild(passages(item.context,
        "Cites nothing. The passages its answer was given:"));
      if (item.answers.length) {
        box.appendChild(el("p", item.answers.length === 1 ? "The answer it comes from:" :
          "The answers it comes from:", "ask"));
        item.answers.forEach(function (text) { box.appendChild(quote(text)); });
      }
      if (item.findings.length) {
        box.appendChild(el("p", "Findings:", "ask"));
        var ul = el("ul");
        item.findings.forEach(function (f) { ul.appendChild(el("li", f)); });
        box.appendChild(ul);
      }
      var names = item.expected.map(function (pair) {
        return pair[0] + " (" + (pair[1].join(", ") || "no source") + ")";
      });
      box.appendChild(el("p", "Expected claims: " + (names.join("; ") || "none")));
    }
    return box;
  }

  function decidedCount() {
    return Object.keys(state.decisions).length;
  }
  function draw() {
    var at = Math.max(0, Math.min(state.at, items.length - 1));
    state.at = at;
    var done = decidedCount();
    $("progress").max = items.length; $("progress").value = done;
    $("progress-text").textContent = done + " of " + items.length + " decided";
    var panel = $("item");
    panel.textContent = "";
    var choices = $("choices");
    choices.textContent = "";
    if (!items.length) {
      panel.appendChild(el("p", "The queue is empty: every item has a judgement."));
      return;
    }
    var item = items[at], got = state.decisions[at];
    var head = el("p", "", "head");
    head.appendChild(el("span", item.kind, "kind"));
    head.appendChild(document.createTextNode(" item " + (at + 1) + " of " + items.length +
      ", case " + item.case));
    if (item.audit) head.appendChild(el("span", "audit sample", "badge audit"));
    if (item.moves && item.moves.length)
      head.appendChild(el("span", "can move: " + item.moves.join(", "), "badge moves"));
    else if (item.moves) head.appendChild(el("span", "cannot move the verdict", "badge quiet"));
    panel.appendChild(head);
    panel.appendChild(el("p", item.question, "question"));
    panel.appendChild(body(item));
    if (item.decisions) {
      panel.appendChild(el("p", "Reviewers decided differently:", "ask"));
      var said = el("ul");
      item.decisions.forEach(function (pair) { said.appendChild(el("li", pair[0] + ": " + pair[1])); });
      panel.appendChild(said);
    }
    item.choices.forEach(function (choice, index) {
      var button = el("button");
      button.type = "button";
      if (choice[3]) button.appendChild(el("kbd", choice[3]));
      button.appendChild(document.createTextNode(choice[0]));
      var pressed = !!got && got.d === choice[1] && (got.s || "") === (choice[2] || "");
      button.setAttribute("aria-pressed", pressed ? "true" : "false");
      button.dataset.choice = String(index);
      button.addEventListener("click", function () { decide(index); });
      choices.appendChild(button);
    });
    $("note").value = state.notes[at] || "";
    $("prev").disabled = at === 0;
    $("next").disabled = at === items.length - 1;
  }

  function decide(index) {
    var choice = items[state.at].choices[index];
    state.decisions[state.at] = {d: choice[1], s: choice[2] || ""};
    if (state.at < items.length - 1) state.at += 1;
    save(); draw();
  }
  function move(step) {
    state.at = Math.max(0, Math.min(items.length - 1, state.at + step));
    save(); draw();
  }

  // ---- the export: what review import reads ------------------------------------------
  function exportText() {
    var header = {ragscore_review_page: 1, export: identity.export, folder: identity.folder,
      dataset: identity.dataset, reviewer: identity.reviewer, items: items.length};
    var lines = [JSON.stringify(header)];
    items.forEach(function (item, index) {
      var got = state.decisions[index];
      var row = {kind: item.kind, case: item.case, key: item.key};
      if (item.kind === "relevance" || item.kind === "citation") row.doc = item.doc;
      if (item.kind === "support") row.citations = item.citations;
      if (item.kind === "nugget") row.nugget = item.nugget;
      row.decision = got ? got.d : "";
      row.states = got ? got.s : "";
      row.note = state.notes[index] || "";
      row.reviewer = state.reviewer || "";
      row.date = state.date || "";
      row.check = contentKey(["review page line", identity.export, row.kind, row.case,
        row.key, row.decision, row.states, row.note, row.reviewer, row.date]);
      lines.push(JSON.stringify(row));
    });
    return lines.join("\n") + "\n";
  }
  function exportFile() {
    var text = exportText();
    $("export-text").value = text;
    $("export-text").hidden = false;
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], {type: "application/x-ndjson"}));
    link.download = "review-" + identity.export + ".jsonl";
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  // ---- wiring ------------------------------------------------------------------------
  $("reviewer").value = state.reviewer || "";
  $("date").value = state.date;
  $("reviewer").addEventListener("input", function () {
    state.reviewer = $("reviewer").value; save();
  });
  $("date").addEventListener("input", function () { state.date = $("date").value; save(); });
  $("note").addEventListener("input", function () {
    if ($("note").value) state.notes[state.at] = $("note").value;
    else delete state.notes[state.at];
    save();
  });
  $("prev").addEventListener("click", function () { move(-1); });
  $("next").addEventListener("click", function () { move(1); });
  $("next-open").addEventListener("click", function () {
    for (var i = 1; i <= items.length; i++) {
      var at = (state.at + i) % items.length;
      if (!state.decisions[at]) { state.at = at; break; }
    }
    save(); draw();
  });
  $("clear").addEventListener("click", function () {
    delete state.decisions[state.at]; save(); draw();
  });
  $("export").addEventListener("click", exportFile);
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) {
      if (event.key === "Escape") target.blur();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || !items.length) return;
    if (event.key === "ArrowRight" || event.key === "j") { move(1); event.preventDefault(); return; }
    if (event.key === "ArrowLeft" || event.key === "k") { move(-1); event.preventDefault(); return; }
    if (event.key === "e") { $("note").focus(); event.preventDefault(); return; }
    var choices = items[state.at].choices;
    for (var i = 0; i < choices.length; i++) {
      if (choices[i][3] && choices[i][3] === event.key) {
        decide(i); event.preventDefault(); return;
      }
    }
  });
  draw();
  document.body.dataset.ready = "true";
})();
